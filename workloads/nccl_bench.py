#!/usr/bin/env python3
"""Collective bandwidth sweep over torch.distributed + NCCL, reported like nccl-tests.

Launch one process per GPU:

    torchrun --nproc_per_node=8 [--nnodes=2 --rdzv-endpoint=HOST:PORT ...] \
        nccl_bench.py [--ops all_reduce,all_gather,reduce_scatter] \
        [--min-bytes 8] [--max-bytes 1G] [--factor 2] [--iters 20] [--warmup 5] \
        [--time-budget 0] [--dtype float32] [--json OUT.json]

Torch only, shipped into pods through a ConfigMap with the sweep it runs, ``nccl_sweep.py``.

Timing follows nccl-tests: per message size, warm up, line the ranks up, then
CUDA events around ``iters`` back-to-back collectives on the current stream
(torch makes that stream wait for NCCL's), time = elapsed / iters, averaged
over ranks. ``size`` is the all-reduce buffer, the all-gather *output* and the
reduce-scatter *input* in bytes, so

    algbw = size / time
    busbw = algbw * 2(n-1)/n  (all-reduce)
    busbw = algbw * (n-1)/n   (all-gather, reduce-scatter)

``--time-budget`` caps the iterations of one size at roughly that many seconds
(never fewer than ``--min-iters``), so slow transports (TCP sockets) still reach
1 GiB quickly. NCCL_DEBUG is left as the environment sets it, so with
NCCL_DEBUG=INFO the transport lines land in the same log as the table.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import socket
import sys
import types
from collections.abc import Sequence
from dataclasses import asdict

import torch
import torch.distributed as dist

if __name__ == "__main__" and not __package__:
    # Run as a file (torchrun in the pod: `/mnt/workloads/nccl_bench.py`): serve this file's folder
    # as the `workloads` package, whatever the folder is called, so the import below is the repo's.
    _package = types.ModuleType("workloads")
    _package.__path__ = [os.path.dirname(os.path.abspath(__file__))]
    sys.modules["workloads"] = _package

from workloads.nccl_sweep import DTYPES, OPS, Bench, Row  # noqa: E402

_SIZE = re.compile(r"^\s*(\d+)\s*([KMGT]?)i?B?\s*$", re.IGNORECASE)


def parse_bytes(text: str) -> int:
    """'8', '64K', '1M', '1G', '1GiB' -> bytes (binary multiples, as nccl-tests)."""
    m = _SIZE.fullmatch(text)
    if not m:
        raise argparse.ArgumentTypeError(f"not a byte size: {text!r}")
    shift = {"": 0, "K": 10, "M": 20, "G": 30, "T": 40}[m.group(2).upper()]
    return int(m.group(1)) << shift


def sweep_sizes(min_bytes: int, max_bytes: int, factor: int) -> list[int]:
    sizes, size = [], min_bytes
    while size <= max_bytes:
        sizes.append(size)
        size *= factor
    return sizes


def nccl_version() -> str:
    version = torch.cuda.nccl.version()
    if isinstance(version, tuple):
        return ".".join(str(v) for v in version)
    # Older torch returns NCCL's integer code: major*10000+minor*100+patch since 2.9.
    code = int(version)
    if code >= 10000:
        return f"{code // 10000}.{code % 10000 // 100}.{code % 100}"
    return f"{code // 1000}.{code % 1000 // 100}.{code % 100}"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ops", default="all_reduce,all_gather", help=f"comma list of {', '.join(OPS)}")
    p.add_argument("--min-bytes", type=parse_bytes, default=parse_bytes("8"))
    p.add_argument("--max-bytes", type=parse_bytes, default=parse_bytes("1G"))
    p.add_argument("--factor", type=int, default=2, help="size multiplier between steps")
    p.add_argument("--iters", type=int, default=20, help="timed iterations per size (upper bound)")
    p.add_argument("--warmup", type=int, default=5, help="untimed iterations per size (>= 2 used)")
    p.add_argument(
        "--min-iters",
        type=int,
        default=3,
        help="floor when --time-budget cuts iterations",
    )
    p.add_argument(
        "--time-budget",
        type=float,
        default=0.0,
        help="seconds of timed iterations per size; 0 = always --iters",
    )
    p.add_argument(
        "--runs",
        type=int,
        default=1,
        help="timed blocks of --iters per size; >1 reports the median block and the spread",
    )
    p.add_argument("--dtype", choices=sorted(DTYPES), default="float32")
    p.add_argument("--json", metavar="OUT", help="write rows and run metadata here (rank 0)")
    args = p.parse_args(argv)
    args.ops = [o.strip() for o in args.ops.split(",") if o.strip()]
    unknown = [o for o in args.ops if o not in OPS]
    if unknown:
        p.error(f"unknown op(s) {unknown}; choose from {', '.join(OPS)}")
    if args.factor < 2:
        p.error("--factor must be >= 2")
    if args.min_bytes <= 0 or args.max_bytes < args.min_bytes:
        p.error("need 0 < --min-bytes <= --max-bytes")
    if min(args.iters, args.min_iters, args.runs) < 1:
        p.error("--iters, --min-iters and --runs must be >= 1")
    return args


def init_distributed() -> None:
    # Also runnable as a single plain process (world size 1) for a smoke test.
    os.environ.setdefault("RANK", "0")
    os.environ.setdefault("WORLD_SIZE", "1")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29511")
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)
    timeout = datetime.timedelta(minutes=10)
    try:
        # device_id binds the communicator to this GPU and creates it eagerly.
        dist.init_process_group("nccl", timeout=timeout, device_id=device)
    except TypeError:  # torch < 2.3
        dist.init_process_group("nccl", timeout=timeout)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if not torch.cuda.is_available():
        print("nccl_bench: no CUDA device visible", file=sys.stderr)
        return 2
    init_distributed()
    bench = Bench(args)
    me = {
        "rank": bench.rank,
        "host": socket.gethostname(),
        "local_rank": int(os.environ.get("LOCAL_RANK", "0")),
        "gpu": torch.cuda.get_device_name(bench.device),
    }
    peers: list[dict[str, object]] = [{} for _ in range(bench.world)]
    dist.all_gather_object(peers, me)
    nccl_env = {k: v for k, v in sorted(os.environ.items()) if k.startswith("NCCL_")}
    meta = {
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "nccl": nccl_version(),
        "world_size": bench.world,
        "ranks": peers,
        "env": nccl_env,
        "args": {k: v for k, v in vars(args).items() if k != "json"},
    }
    versions = f"torch {meta['torch']} (CUDA {meta['cuda']}), NCCL {meta['nccl']}"
    bench.log(f"# nccl_bench: {versions}")
    bench.log(f"# world size {bench.world}, dtype {args.dtype}, ops {','.join(args.ops)}")
    for peer in peers:
        where = f"{peer['host']} cuda:{peer['local_rank']}"
        bench.log(f"#   rank {peer['rank']}: {where} {peer['gpu']}")
    bench.log("# env: " + (" ".join(f"{k}={v}" for k, v in nccl_env.items()) or "(no NCCL_* set)"))

    sizes = sweep_sizes(args.min_bytes, args.max_bytes, args.factor)
    rows: list[Row] = []
    for op in args.ops:
        rows.extend(bench.sweep(op, sizes))

    if bench.rank == 0 and args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"meta": meta, "rows": [asdict(r) for r in rows]}, handle, indent=1)
    dist.barrier()
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
