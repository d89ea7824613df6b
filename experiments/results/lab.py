"""Lab runs: a stack's job on emulated nodes of one host, recorded as a kind of their own.

The lab (issue 35) runs a stack's Master and Worker pods as network namespaces of one multi-GPU
host, their links shaped, and writes ``<run>.lab.json`` beside the run's ``<run>.jsonl``: the
emulated shape, the link and the model cut.  That sidecar is foreign input: ``read_sidecar`` takes
a regular file of bounded size, strict JSON and a strict schema (no unknown key, no coercion, every
figure finite and within reason), and any problem is one ``InputError`` line naming the file and
the field.  ``check_lab_run`` then holds the sidecar against the stack it names and against its
own log, so a recorded figure never contradicts its log: the ranks the log reports (``num_gpus``,
else NCCL's ``nranks``) are the sidecar's nodes x GPUs per node, the samples of a step are its
samples per GPU x those ranks, and main_ds's ``max_batch_len`` and ``effective_batch_size``, when
the log prints them, are the sidecar's.

A lab run is never a cluster run: the store keeps its sidecar (``RunRecord.lab``), and listings
compare it with the model's prediction for the lab (``throughput.lab``), never with the study.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from experiments.base.bounded import parse_json
from experiments.base.errors import InputError
from experiments.results.runlog import RunMeasurement
from experiments.results.runlog_lines import records
from experiments.stacks.stackfile import StackFile
from experiments.throughput.lab import LabShape

__all__ = [
    "LAB_MIN_STEPS",
    "LabLink",
    "LabSidecar",
    "ModelCut",
    "check_lab_run",
    "lab_shape",
    "parse_sidecar",
    "read_sidecar",
]

MAX_SIDECAR_BYTES = 64 * 1024
LAB_MIN_STEPS = 5
"""Steps after warm-up a lab run needs (issue 35: at least 5 in every run)."""

_Name = Annotated[str, Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9._ -]*$")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class LabLink(_Strict):
    gbps: Annotated[float, Field(gt=0, le=100_000, allow_inf_nan=False)] | None
    """Shaped rate per node; None: unshaped."""
    latency_ms: Annotated[float, Field(ge=0, le=10_000, allow_inf_nan=False)]
    source: Literal["model", "override"]


class ModelCut(_Strict):
    arch: _Name
    layers: Annotated[int, Field(ge=1, le=1000)]
    samples_per_gpu_per_step: Annotated[int, Field(ge=1, le=1_000_000)]
    max_batch_len: Annotated[int, Field(ge=1, le=100_000_000)]


class LabSidecar(_Strict):
    """``<run>.lab.json``, as the lab writes it."""

    stack: _Name
    variant: Literal["pod", "vnic", "sriov", "sriov-rdma"]
    nodes: Annotated[int, Field(ge=1, le=64)]
    gpus_per_node: Annotated[int, Field(ge=1, le=64)]
    gpu: _Name
    shared_gpu: bool
    link: LabLink
    model_cut: ModelCut
    date: Annotated[str, Field(min_length=10, max_length=40, pattern=r"^\d{4}-\d{2}-\d{2}[0-9T:.+Z -]*$")]

    @field_validator("variant")
    @classmethod
    def _emulable(cls, variant: str) -> str:
        if variant == "sriov-rdma":
            raise ValueError("the lab emulates no RDMA (its host has no RDMA devices)")
        return variant

    def canonical(self) -> str:
        """The sidecar as the store keeps it: compact JSON, keys sorted."""
        return self.model_dump_json()


def _one_line(error: ValidationError, where: str) -> str:
    item = error.errors()[0]
    field = ".".join(str(part) for part in item["loc"]) or "(the document)"
    message = str(item["msg"]).removeprefix("Value error, ")
    more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
    return f"{where}: {field}: {message}{more}"


def parse_sidecar(text: str | bytes, where: str) -> LabSidecar:
    """A sidecar from its text; one ``InputError`` line for anything that is not one."""
    payload: Any = parse_json(text, where, "a lab sidecar (JSON)", unique_keys=True)
    try:
        return LabSidecar.model_validate(payload)
    except ValidationError as error:
        raise InputError(_one_line(error, where)) from None


def read_sidecar(path: Path) -> LabSidecar:
    """``--lab FILE``: a regular file (checked before it is opened) of at most 64 KiB."""
    where = f"--lab {path}"
    try:
        info = os.stat(path)
    except OSError as error:
        raise InputError(f"{where}: cannot read: {error.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{where}: is not a regular file")
    if info.st_size > MAX_SIDECAR_BYTES:
        raise InputError(f"{where}: over {MAX_SIDECAR_BYTES // 1024} KiB: not a lab sidecar")
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(descriptor, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise InputError(f"{where}: is not a regular file")
            raw = handle.read(MAX_SIDECAR_BYTES + 1)
    except OSError as error:
        raise InputError(f"{where}: cannot read: {error.strerror}") from None
    return parse_sidecar(raw, where)


def lab_shape(sidecar: LabSidecar) -> LabShape:
    """What the model needs of the run (the GPU named by its family: ``NVIDIA H100 80GB HBM3`` is H100)."""
    family = next((key for key in ("H200", "H100") if key in sidecar.gpu.upper()), sidecar.gpu)
    cut = sidecar.model_cut
    return LabShape(
        nodes=sidecar.nodes,
        gpus_per_node=sidecar.gpus_per_node,
        gpu=family,
        arch=cut.arch,
        layers=cut.layers,
        samples_per_gpu_per_step=cut.samples_per_gpu_per_step,
        max_batch_len=cut.max_batch_len,
        link_gbps=sidecar.link.gbps,
        latency_ms=sidecar.link.latency_ms,
        shared_gpu=sidecar.shared_gpu,
    )


def _config(lines: Iterable[str]) -> dict[str, Any]:
    """main_ds's own settings as its log prints them (the first value of each)."""
    found: dict[str, Any] = {}
    for record in records(lines):
        for key in ("max_batch_len", "effective_batch_size"):
            if key in record.values and key not in found and record.values[key] is not None:
                found[key] = record.values[key]
    return found


def check_lab_run(
    sidecar: LabSidecar, stack: StackFile, logs: Mapping[str, str], measurement: RunMeasurement, step_samples: int
) -> None:
    """Refuse (``InputError``) a sidecar that contradicts its stack or its own log."""
    cfg = stack.cluster
    if sidecar.stack != stack.name:
        raise InputError(f"--lab: the sidecar is a run of {sidecar.stack}, not of {stack.name}")
    if sidecar.nodes > cfg.nodes.count:
        raise InputError(f"--lab: {sidecar.nodes} emulated nodes, more than {stack.name}'s {cfg.nodes.count}")
    if sidecar.nodes > 1 and sidecar.variant != cfg.network.variant:  # one node has no link to shape
        raise InputError(
            f"--lab: the sidecar says variant {sidecar.variant}, but {stack.name} is {cfg.network.variant}"
        )
    if sidecar.gpus_per_node > cfg.profile.gpus:
        raise InputError(f"--lab: {sidecar.gpus_per_node} GPUs per node, more than {stack.name}'s {cfg.profile.gpus}")
    if sidecar.shared_gpu and sidecar.nodes < 2:
        raise InputError("--lab: shared_gpu is for several emulated nodes on the same GPUs, not one node")
    ranks = sidecar.nodes * sidecar.gpus_per_node
    reported = measurement.world_size if measurement.world_size is not None else measurement.ranks
    if reported is None:
        raise InputError(
            "--log: the log reports no world size (main_ds's num_gpus or NCCL's nranks): a lab run needs it"
        )
    if reported != ranks:
        raise InputError(
            f"--log: the log reports {reported} rank(s), but the sidecar's {sidecar.nodes} node(s) x "
            f"{sidecar.gpus_per_node} GPU(s) make {ranks}"
        )
    expected = sidecar.model_cut.samples_per_gpu_per_step * ranks
    if step_samples != expected:
        raise InputError(
            f"--log: the log's steps carry up to {step_samples} samples, but the sidecar's "
            f"{sidecar.model_cut.samples_per_gpu_per_step} per GPU x {ranks} rank(s) make {expected}"
        )
    config = _config(line for text in logs.values() for line in text.splitlines())
    for key, value in (("max_batch_len", sidecar.model_cut.max_batch_len), ("effective_batch_size", expected)):
        if key in config and str(config[key]) != str(value):
            raise InputError(f"--log: main_ds ran with {key} {str(config[key])[:40]}, but the sidecar makes it {value}")
    if measurement.steps_counted < LAB_MIN_STEPS:
        raise InputError(
            f"--log: {measurement.steps_counted} step(s) after warm-up; a lab run needs at least {LAB_MIN_STEPS}"
        )
