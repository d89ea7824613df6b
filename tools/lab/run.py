"""Run a rendered stack's job as N emulated nodes on this host: ``python3 -m tools.lab JOB_DIR ...``.

JOB_DIR is what ``tools.lab.render`` wrote. The run prints the link (the model's figure for this stack
and GPUs per node, or the options' override) and everything it creates, creates it, starts every
pod's ``workloads/entrypoint.sh`` inside its node, waits, and removes it all again: on success, on
error, on Ctrl-C or SIGTERM. A killed run's leftovers go at the next start. Needs root and pyroute2;
``--dry-run`` prints the plan and each pod's environment, and needs neither. docs/lab.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any

from . import checks
from .faults import FAULTS, break_start
from .plan import TBF_MAX_BYTES_S, LabRefused, Plan, make_plan, model_link, override_link

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
HOST_ONLY = ("NCCL_", "PET_", "GPU_CLUSTER_", "MASTER_", "TORCH_NCCL", "LWS_")
HOST_ONLY_NAMES = {"RANK", "WORLD_SIZE", "LOCAL_RANK", "NNODES", "NPROC_PER_NODE", "CUDA_VISIBLE_DEVICES"}


def _say(text: str) -> None:
    print(f"lab: {text}", flush=True)


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python3 -m tools.lab", description=__doc__.split("\n")[0])
    parser.add_argument("job", type=Path, help="a folder tools.lab.render wrote")
    parser.add_argument(
        "--name", default="lab", type=checks.run_name, help="run name: OUT/NAME.<pod>.log, NAME.jsonl, NAME.lab.json"
    )
    parser.add_argument("--out", type=Path, default=Path("out/lab"))
    parser.add_argument("--gpus", help="GPU ids to split among the nodes (default: all this host shows)")
    parser.add_argument("--share-gpu", action="store_true", help="every node on the first GPU (a one-GPU host)")
    parser.add_argument("--gbps", type=checks.gbps, help="per-node bandwidth instead of the model's")
    parser.add_argument("--unshaped", action="store_true", help="no bandwidth limit")
    parser.add_argument("--latency-ms", type=checks.latency_ms, help="per-hop latency instead of the model's")
    parser.add_argument("--arch", type=Path, help="tools/gpu/*.json: build this model and data, run the data step")
    parser.add_argument("--layers", type=checks.positive)
    parser.add_argument("--samples", type=checks.positive, default=640)
    parser.add_argument("--fault", choices=FAULTS)
    parser.add_argument(
        "--rendezvous-timeout", type=checks.positive, help="GPU_CLUSTER_RENDEZVOUS_TIMEOUT for every pod"
    )
    parser.add_argument("--timeout", type=checks.positive, default=540, help="seconds before every pod is stopped")
    parser.add_argument(
        "--grace", type=checks.positive, default=60, help="seconds the others get once one pod has failed"
    )
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--work", type=Path, default=Path(os.environ.get("LAB_WORK", "/tmp/gpu-lab")))
    return parser.parse_args(argv)


def _present() -> int | None:
    """How many GPUs nvidia-smi lists (None: it cannot tell, as on a host without one)."""
    try:
        listed = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, check=False).stdout
    except OSError:
        return None
    return sum(1 for line in listed.splitlines() if line.startswith("GPU")) or None


def _gpus(text: str | None) -> list[int]:
    if text is not None:
        return checks.gpu_ids(text, _present())
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible:
        return checks.gpu_ids(visible, None)
    return list(range(_present() or 1))


def build_plan(args: argparse.Namespace, job: dict[str, Any], work: Path) -> Plan:
    gpus = _gpus(args.gpus)
    per_node = 1 if args.share_gpu else max(1, len(gpus) // int(job["nnodes"]))
    link = override_link(model_link(job, per_node), args.gbps, args.unshaped, args.latency_ms)
    paths = {
        "config": str(args.job.resolve() / "config.json"),
        "workloads": str(args.job.resolve() / "workloads"),
        "mapping": str(args.job.resolve() / "nic-mapping" / "nodename_ip_mapping.yaml"),
        "node_root": str(work / "nodes"),
    }
    return make_plan(job, gpus, sorted(os.sched_getaffinity(0)), link, paths, share_gpu=args.share_gpu)


def show(plan: Plan) -> None:
    link = plan.link
    _say(f"{plan.stack} (variant {plan.variant}): {len(plan.nodes)} nodes x {plan.gpus_per_node} GPU(s)")
    if plan.shared_gpu:
        _say("every node shares one GPU: a proof of the node boundary, not a throughput figure")
    rate = "unshaped" if link.gbps is None else f"{link.gbps:.3f} Gbit/s per node each way"
    _say(f"link ({link.source}): {rate}, {link.latency_ms:g} ms per hop; {link.detail}")
    if link.gbps is not None and link.gbps * 1e9 / 8 > TBF_MAX_BYTES_S:
        _say("that rate is above tbf's 32-bit ceiling (34.4 Gbit/s): left unshaped, bounded by the veth pair")
    for line in plan.created():
        _say(line)


def _pod_env(plan: Plan, index: int, extra: dict[str, str]) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(HOST_ONLY) and k not in HOST_ONLY_NAMES}
    if shutil.which("ip") is None:  # the pod's image has iproute2; a bare GPU host may not
        base["PATH"] = f"{HERE / 'bin'}:{base.get('PATH', '/usr/bin:/bin')}"
    return {**base, **plan.nodes[index].environment(), **extra}


def _prepare_storage(args: argparse.Namespace, storage: Path, extra: list[dict[str, str]], plan: Plan) -> None:
    storage.mkdir(parents=True)
    if args.arch is None:
        return
    config = json.loads((args.job / "config.json").read_text())
    layers = ["--layers", str(args.layers)] if args.layers else []
    tools = ROOT / "tools" / "gpu"
    subprocess.run(
        [sys.executable, tools / "make_model.py", "--arch", args.arch.resolve(), *layers, config["model_name_or_path"]],
        cwd=storage,
        check=True,
    )
    subprocess.run(
        [sys.executable, tools / "make_data.py", "--samples", str(args.samples), "messages.jsonl"],
        cwd=storage,
        check=True,
    )
    for node, node_extra in zip(plan.nodes, extra, strict=True):
        node_extra["GPU_CLUSTER_DATA_MESSAGES"] = "messages.jsonl"
        node_extra["GPU_CLUSTER_DATA_OUT"] = str(args.work.resolve() / "nodes" / node.pod / "processed")


def _stop(children: list[subprocess.Popen[bytes]]) -> None:
    for child in children:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGTERM)
    deadline = time.monotonic() + 15
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()


def _wait(args: argparse.Namespace, children: list[subprocess.Popen[bytes]]) -> None:
    deadline = time.monotonic() + args.timeout
    failed_at = None
    while any(c.poll() is None for c in children):
        now = time.monotonic()
        if failed_at is None and any(c.returncode not in (None, 0) for c in children):
            failed_at = now
            _say(f"a pod failed; the others get {args.grace} s")
        if now > deadline or (failed_at is not None and now > failed_at + args.grace):
            _say("stopping the pods still running")
            _stop(children)
            return
        time.sleep(1)


MAIN_PID = os.getpid()


def _interrupted(signum: int, _frame: FrameType | None) -> None:
    if os.getpid() != MAIN_PID:
        # A child pyroute2 forked (to enter a namespace) inherits this handler; it must just end.
        os._exit(128 + signum)
    raise KeyboardInterrupt(f"signal {signum}")


def _stop_orphans(ledger: Path) -> None:
    """Stop the pods a killed run left running: the process groups its ledger names, if still the lab's."""
    for text in ledger.read_text().split() if ledger.is_file() else []:
        try:
            with open(f"/proc/{int(text)}/cmdline", "rb") as handle:
                command = handle.read()
            # The pod's leader execs pod.py, then the entrypoint, then launch.py (or torchrun).
            if not any(mark in command for mark in (b"tools/lab/pod.py", b"entrypoint.sh", b"launch.py", b"torchrun")):
                continue
            os.killpg(int(text), signal.SIGKILL)
            _say(f"stopped a killed run's pod (process group {text})")
        except (OSError, ValueError):
            continue  # gone already
    ledger.unlink(missing_ok=True)


def execute(args: argparse.Namespace, job: dict[str, Any], plan: Plan, work: Path) -> int:
    from . import netns

    ledger = work.parent / "pods.pgid"
    _stop_orphans(ledger)
    for line in netns.remove():
        _say(f"removed a killed run's {line}")
    shutil.rmtree(work, ignore_errors=True)
    args.out.mkdir(parents=True, exist_ok=True)
    children: list[subprocess.Popen[bytes]] = []
    extra: list[dict[str, str]] = [{} for _ in plan.nodes]
    if args.rendezvous_timeout is not None:
        for node_extra in extra:
            node_extra["GPU_CLUSTER_RENDEZVOUS_TIMEOUT"] = str(args.rendezvous_timeout)
    # What the links really got, for the sidecar: no netem means no added latency, past tbf's ceiling no limit.
    too_fast = plan.link.gbps is not None and plan.link.gbps * 1e9 / 8 > TBF_MAX_BYTES_S
    applied: dict[str, Any] = {"gbps": None if too_fast else plan.link.gbps, "latency_ms": plan.link.latency_ms}
    previous = {s: signal.signal(s, _interrupted) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        storage = work / "storage"
        try:
            _prepare_storage(args, storage, extra, plan)
        except subprocess.CalledProcessError as failed:
            _say(f"error: building the model or data failed (status {failed.returncode}): {failed.cmd}")
            return 2
        notes = netns.create(plan)
        for note in notes:
            _say(note)
        if any("no netem" in note for note in notes):
            applied["latency_ms"] = 0.0
        hosts = work / "hosts"
        hosts.write_text(plan.hosts)
        if args.fault:
            break_start(args.fault, plan, work, extra)
        for index, node in enumerate(plan.nodes):
            root = work / "nodes" / node.pod
            (root / "tmp").mkdir(parents=True, exist_ok=True)
            spec = {
                "namespace": node.namespace,
                "hostname": node.pod,
                "hosts": str(hosts),
                "cpus": list(node.cpus),
                "cwd": str(storage),
                "argv": ["bash", str(args.job.resolve() / "workloads" / "entrypoint.sh")],
            }
            (root / "pod.json").write_text(json.dumps(spec))
            log = open(args.out / f"{args.name}.{node.pod}.log", "wb")  # noqa: SIM115 (the child holds it)
            children.append(
                subprocess.Popen(
                    [sys.executable, str(HERE / "pod.py"), str(root / "pod.json")],
                    env=_pod_env(plan, index, extra[index]),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
            log.close()
            with ledger.open("a") as pgids:
                pgids.write(f"{children[-1].pid}\n")
            _say(f"started {node.pod} in {node.namespace} (log {args.out / f'{args.name}.{node.pod}.log'})")
        _wait(args, children)
    except KeyboardInterrupt as stop:
        _say(f"interrupted ({stop}): tearing down")
    finally:
        _stop(children)
        for line in netns.remove():
            _say(f"torn down: {line}")
        ledger.unlink(missing_ok=True)
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return _report(args, plan, work, children, applied)


def _report(args: argparse.Namespace, plan: Plan, work: Path, children: list[Any], applied: dict[str, Any]) -> int:
    statuses = [c.returncode for c in children]
    for node, status in zip(plan.nodes, statuses, strict=False):
        text = (args.out / f"{args.name}.{node.pod}.log").read_text(errors="replace").splitlines()
        errors = [line for line in text if line.startswith("entrypoint: error:")]
        _say(f"{node.pod}: status {status}" + (f"; {errors[-1]}" if errors else ""))
    config = json.loads((args.job / "config.json").read_text())
    metrics = work / "storage" / config["output_dir"] / "training_params_and_metrics_global0.jsonl"
    if metrics.is_file():
        shutil.copy(metrics, args.out / f"{args.name}.jsonl")
    arch = json.loads(args.arch.read_text()) if args.arch else {}
    sidecar = {
        "stack": plan.stack,
        "variant": plan.variant,
        "nodes": len(plan.nodes),
        "gpus_per_node": plan.gpus_per_node,
        "gpu": _gpu_name(),
        "shared_gpu": plan.shared_gpu,
        "link": {**applied, "source": plan.link.source},
        "model_cut": {
            "arch": args.arch.stem if args.arch else None,
            "layers": args.layers or arch.get("num_hidden_layers"),
            "samples_per_gpu_per_step": int(config["effective_batch_size"]) // (len(plan.nodes) * plan.gpus_per_node),
            "max_batch_len": int(config["max_batch_len"]),
        },
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
    }
    if args.fault:
        sidecar["fault"] = args.fault
    (args.out / f"{args.name}.lab.json").write_text(json.dumps(sidecar, indent=2) + "\n")
    return next((s for s in statuses if s), 0) if statuses else 1


def _gpu_name() -> str | None:
    try:
        names = subprocess.run(
            ["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True, text=True, check=False
        ).stdout.split("\n")
    except OSError:
        return None
    return names[0].strip() or None


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    try:
        if args.out.exists() and not args.out.is_dir():
            raise LabRefused(f"--out {args.out}: is not a folder")
        job = checks.read_job(args.job / "lab.json")
        checks.check_job(job)
        work = args.work.resolve() / args.name
        plan = build_plan(args, job, work)
    except OSError as error:
        print(
            f"lab: error: {args.job}/lab.json: {error.strerror} (write it with python -m tools.lab.render)",
            file=sys.stderr,
        )
        return 2
    except LabRefused as refused:
        print(f"lab: error: {refused}", file=sys.stderr)
        return 2
    show(plan)
    if args.dry_run:
        for node in plan.nodes:
            _say(f"{node.pod} environment:")
            for key, value in sorted(node.environment().items()):
                _say(f"  {key}={value}")
        return 0
    if os.geteuid() != 0:
        print("lab: error: creating network namespaces needs root (--dry-run shows the plan without)", file=sys.stderr)
        return 2
    return execute(args, job, plan, work)


if __name__ == "__main__":
    sys.exit(main())
