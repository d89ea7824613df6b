"""What the lab takes from outside, checked before any of it is used (standard library only).

The lab runs as root: a job folder's ``lab.json`` and the command's options end up in network
namespace names, interface names, addresses, a hosts file, paths and the pods' command line.  Each
is held to the form the kernel and the files expect (a Linux ifname of at most 15 bytes, a DNS
label, an IPv4 address inside its subnet, a finite figure), and anything else is one
``LabRefused`` line naming the field.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .plan import PREFIX, LabRefused

__all__ = ["check_job", "gbps", "gpu_ids", "latency_ms", "read_job", "run_name"]

IFNAMSIZ = 15
"""The longest interface name Linux takes (IFNAMSIZ - 1 bytes)."""
MAX_NODES = 64
MAX_GPUS = 64
_LABEL = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")
_IFNAME = re.compile(r"^[a-z][a-z0-9]{0,7}$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")
_STACK = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
_RUN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_VARIANTS = ("pod", "vnic", "sriov", "sriov-rdma")
_FIELDS = ("spec.nodeName", "metadata.name", "status.podIP")
MAX_GBPS = 100_000.0
MAX_LATENCY_MS = 10_000.0


def _count(value: object, field: str, low: int, high: int) -> int:
    """A whole number in ``low``..``high``; render writes some as digit strings (``nprocPerNode``)."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 6:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise LabRefused(f"lab.json: {field}: not a whole number in {low}..{high}")
    return value


def _label(value: object, field: str) -> str:
    if not isinstance(value, str) or not _LABEL.match(value):
        raise LabRefused(f"lab.json: {field}: not a DNS label (a-z, 0-9, '-', at most 63)")
    return value


def _figure(value: object, field: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise LabRefused(f"lab.json: {field}: not a finite number")
    if not low <= value <= high:
        raise LabRefused(f"lab.json: {field}: {value:g} is outside {low:g}..{high:g}")
    return float(value)


def _networks(job: Mapping[str, Any], nnodes: int) -> None:
    networks = job.get("networks")
    if not isinstance(networks, list) or len(networks) > 8:
        raise LabRefused("lab.json: networks: not a list of at most 8 networks")
    seen = {"eth0"}
    for k, net in enumerate(networks):
        where = f"networks[{k}]"
        if not isinstance(net, dict) or set(net) != {"ifname", "range", "range_start"}:
            raise LabRefused(f"lab.json: {where}: not an object of ifname, range and range_start")
        ifname = net["ifname"]
        if not isinstance(ifname, str) or not _IFNAME.match(ifname):
            raise LabRefused(f"lab.json: {where}.ifname: not an interface name (a-z then a-z/0-9, at most 8)")
        if ifname in seen:
            raise LabRefused(f"lab.json: {where}.ifname: {ifname} appears twice")
        seen.add(ifname)
        try:
            subnet = ipaddress.IPv4Network(net["range"])
            start = ipaddress.IPv4Address(net["range_start"])
        except (ValueError, TypeError):
            raise LabRefused(f"lab.json: {where}: range or range_start is not an IPv4 network/address") from None
        if start not in subnet or int(start) + nnodes > int(subnet.broadcast_address):
            raise LabRefused(f"lab.json: {where}.range_start: leaves no room for the nodes inside {subnet}")


def _env(env: object, where: str) -> None:
    if not isinstance(env, list) or len(env) > 512:
        raise LabRefused(f"lab.json: {where}: not a list of at most 512 [name, value] pairs")
    for pair in env:
        if not isinstance(pair, list) or len(pair) != 2 or not isinstance(pair[0], str):
            raise LabRefused(f"lab.json: {where}: an entry is not a [name, value] pair")
        name, value = pair
        if not _ENV_NAME.match(name):
            raise LabRefused(f"lab.json: {where}: {name[:40]!r} is not an environment variable name")
        if isinstance(value, dict):
            if set(value) != {"fieldRef"} or value["fieldRef"] not in _FIELDS:
                raise LabRefused(f"lab.json: {where}: {name}: a downward-API field the lab does not give")
        elif not isinstance(value, str) or "\0" in value or len(value) > 4096:
            raise LabRefused(f"lab.json: {where}: {name}: not a string of at most 4096 characters without NUL")


def check_job(job: object) -> None:
    """``lab.json`` as ``tools.lab.render`` writes it, or ``LabRefused`` naming the first field that is not."""
    if not isinstance(job, dict):
        raise LabRefused("lab.json: not a JSON object")
    stack = job.get("stack")
    if not isinstance(stack, str) or not _STACK.match(stack):
        raise LabRefused("lab.json: stack: not a stack name")
    if job.get("variant") not in _VARIANTS:
        raise LabRefused(f"lab.json: variant: not one of {', '.join(_VARIANTS)}")
    nnodes = _count(job.get("nnodes"), "nnodes", 1, MAX_NODES)
    _count(job.get("nproc_per_node"), "nproc_per_node", 1, MAX_GPUS)
    _count(job.get("port"), "port", 1, 65535)
    replicas, names = job.get("replicas"), job.get("node_names")
    if not isinstance(replicas, list) or len(replicas) != nnodes:
        raise LabRefused(f"lab.json: replicas: not a list of {nnodes} (nnodes) pods")
    if not isinstance(names, list) or len(names) != nnodes:
        raise LabRefused(f"lab.json: node_names: not a list of {nnodes} (nnodes) names")
    for k, name in enumerate(names):
        if not isinstance(name, str) or not all(_LABEL.match(part) for part in name.split(".")) or len(name) > 253:
            raise LabRefused(f"lab.json: node_names[{k}]: not a DNS name")
    if len(set(names)) != len(names):
        raise LabRefused("lab.json: node_names: a name appears twice")
    pods = []
    for k, replica in enumerate(replicas):
        if not isinstance(replica, dict):
            raise LabRefused(f"lab.json: replicas[{k}]: not an object")
        pod = _label(replica.get("pod"), f"replicas[{k}].pod")
        if len(f"{PREFIX}-{pod}") > 255:
            raise LabRefused(f"lab.json: replicas[{k}].pod: too long for a namespace name")
        pods.append(pod)
        _count(replica.get("rank"), f"replicas[{k}].rank", 0, nnodes - 1)
        _env(replica.get("env"), f"replicas[{k}].env")
    if len(set(pods)) != len(pods):
        raise LabRefused("lab.json: replicas: a pod name appears twice (each is a hostname and a namespace)")
    if sorted(int(r["rank"]) for r in replicas) != list(range(nnodes)):
        raise LabRefused("lab.json: replicas: the ranks are not 0..nnodes-1, each once")
    _networks(job, nnodes)
    if len(f"{PREFIX}{nnodes - 1}-") + max((len(n["ifname"]) for n in job["networks"]), default=4) > IFNAMSIZ:
        raise LabRefused("lab.json: networks: an interface name leaves no room for the lab's host-side names")
    mapping = job.get("mapping")
    if mapping is not None and not (isinstance(mapping, dict) and isinstance(mapping.get("text"), str)):
        raise LabRefused("lab.json: mapping: not null or an object with its text")
    links = job.get("links")
    if not isinstance(links, dict):
        raise LabRefused("lab.json: links: not an object of the model's figures per GPU count")
    alone = nnodes == 1  # one node has no link: render gives it zero figures ("local")
    for count, figures in links.items():
        where = f"links.{count[:10]}"
        if not isinstance(figures, dict):
            raise LabRefused(f"lab.json: {where}: not an object")
        _figure(figures.get("gbps"), f"{where}.gbps", 0.0 if alone else 1e-3, MAX_GBPS)
        _figure(figures.get("hop_latency_ms"), f"{where}.hop_latency_ms", 0.0, MAX_LATENCY_MS)
        _figure(figures.get("line_gbps_per_nic"), f"{where}.line_gbps_per_nic", 0.0, MAX_GBPS)
        _figure(figures.get("efficiency"), f"{where}.efficiency", 0.0, 1.0)
        _count(figures.get("nics"), f"{where}.nics", 0 if alone else 1, 64)
        if not isinstance(figures.get("transport"), str) or not _LABEL.match(figures["transport"]):
            raise LabRefused(f"lab.json: {where}.transport: not a transport name")


def _option(parse: Any) -> Any:
    """An argparse ``type`` from a parser that raises ``ValueError`` with the whole message."""

    def checked(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return checked


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{text!r} is not a finite number")
    return value


@_option
def gbps(text: str) -> float:
    """``--gbps``: a finite rate above 0 Gbit/s, at most ``MAX_GBPS``."""
    value = _number(text)
    if not 0 < value <= MAX_GBPS:
        raise ValueError(f"{text!r}: must be above 0 and at most {MAX_GBPS:g} Gbit/s (--unshaped for no limit)")
    return value


@_option
def latency_ms(text: str) -> float:
    """``--latency-ms``: a finite delay of 0 to ``MAX_LATENCY_MS`` ms."""
    value = _number(text)
    if not 0 <= value <= MAX_LATENCY_MS:
        raise ValueError(f"{text!r}: must be 0 to {MAX_LATENCY_MS:g} ms")
    return value


@_option
def run_name(text: str) -> str:
    """``--name``: part of file and folder names (OUT/NAME.*, WORK/NAME): no '/', no leading '.', no '..'."""
    if not _RUN_NAME.match(text) or ".." in text:
        raise ValueError(f"{text!r}: a run name is letters, digits, '.', '_', '-' (no '/' or '..', at most 64)")
    return text


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: must be above 0")
    return value


def gpu_ids(text: str, present: int | None) -> list[int]:
    """``--gpus``: distinct GPU ids, comma-separated, each one this host has (when it can tell)."""
    parts = [part.strip() for part in text.split(",")]
    if not text.strip() or any(not (p.isascii() and p.isdigit()) for p in parts):
        raise LabRefused(f"--gpus {text!r}: not a comma-separated list of GPU ids (0, 1, ...)")
    ids = [int(p) for p in parts]
    if len(set(ids)) != len(ids):
        raise LabRefused(f"--gpus {text!r}: a GPU appears twice (--share-gpu puts the nodes on one GPU)")
    if present is not None and max(ids) >= present:
        raise LabRefused(f"--gpus {text!r}: this host has {present} GPU(s), ids 0..{present - 1}")
    return ids


MAX_JOB_BYTES = 4 * 2**20


def read_job(path: Path) -> Any:
    """lab.json: a regular file (a FIFO would block the open) of at most 4 MiB, strict JSON."""
    if path.exists() and not path.is_file():
        raise LabRefused(f"{path}: is not a regular file")
    with path.open("rb") as handle:
        raw = handle.read(MAX_JOB_BYTES + 1)
    if len(raw) > MAX_JOB_BYTES:
        raise LabRefused(f"{path}: over {MAX_JOB_BYTES // 2**20} MiB: not a lab.json")

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    try:
        return json.loads(raw, parse_constant=constant)
    except (ValueError, RecursionError) as error:
        message = "nested too deeply" if isinstance(error, RecursionError) else str(error).splitlines()[0][:120]
        raise LabRefused(f"{path}: not JSON ({message})") from None
