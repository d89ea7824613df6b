"""The measurement behind ``nccl_bench.py``: one collective swept over message sizes on the
current process group, timed and reported the way nccl-tests does (see ``nccl_bench.py`` for the
timing rules and the algbw/busbw definitions). Shipped into the pods beside it; torch only."""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch
import torch.distributed as dist

DTYPES: dict[str, torch.dtype] = {
    "float32": torch.float32,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float64": torch.float64,
    "int32": torch.int32,
    "int8": torch.int8,
}
# nccl-tests' names, for a familiar `type` column.
TYPE_NAMES = {
    "float32": "float",
    "float16": "half",
    "bfloat16": "bfloat16",
    "float64": "double",
    "int32": "int32",
    "int8": "int8",
}
OPS = ("all_reduce", "all_gather", "reduce_scatter")


def _columns(*cells: str) -> str:
    widths = (12, 12, 8, 10, 8, 8, 6)
    return " ".join(f"{cells[i]:>{w}}" for i, w in enumerate(widths)).rstrip()


def bus_factor(op: str, world: int) -> float:
    """nccl-tests' busbw correction: what each rank's busiest link carries."""
    if world <= 1:
        return 0.0
    if op == "all_reduce":
        return 2.0 * (world - 1) / world
    return (world - 1) / world


@dataclass
class Row:
    op: str
    size: int  # bytes, nccl-tests convention (see module docstring)
    count: int  # elements in that buffer
    dtype: str
    iters: int
    time_us: float  # per collective; the median timed block when --runs > 1
    algbw_gbps: float
    busbw_gbps: float
    runs: int = 1  # timed blocks of `iters` collectives
    time_us_min: float = 0.0  # fastest and slowest block (equal to time_us for 1 run)
    time_us_max: float = 0.0


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rank = dist.get_rank()
        self.world = dist.get_world_size()
        self.device = torch.device("cuda", torch.cuda.current_device())
        self.dtype = DTYPES[args.dtype]
        self.elsize = int(torch.empty((), dtype=self.dtype).element_size())
        self._scalar = torch.zeros(1, dtype=torch.float64, device=self.device)
        self.generator = torch.Generator(device=self.device)
        self.generator.manual_seed(1234 + self.rank)

    def log(self, text: str = "") -> None:
        if self.rank == 0:
            print(text, flush=True)

    # -- helpers that every rank calls in the same order -------------------------
    def reduce_scalar(self, value: float, op: dist.ReduceOp) -> float:
        self._scalar.fill_(value)
        dist.all_reduce(self._scalar, op=op)
        return float(self._scalar.item())

    def line_up(self) -> None:
        """Drain this GPU, then meet the other ranks, so timing starts together."""
        torch.cuda.synchronize(self.device)
        self.reduce_scalar(0.0, dist.ReduceOp.SUM)
        torch.cuda.synchronize(self.device)

    def random(self, numel: int) -> torch.Tensor:
        # Random, not zeros: zeros hide unwritten buffers and can run unrealistically
        # fast.
        if self.dtype.is_floating_point:
            return torch.rand(numel, device=self.device, dtype=self.dtype, generator=self.generator)
        return torch.randint(
            -8,
            8,
            (numel,),
            device=self.device,
            dtype=self.dtype,
            generator=self.generator,
        )

    # -- correctness first ---------------------------------------------------------
    def verify(self, op: str) -> None:
        """One small collective on rank-dependent values; raise if the result is off."""
        n, r = self.world, self.rank
        per_rank = 1024
        total = per_rank * n
        if op == "all_reduce":
            buf = torch.full((total,), r + 1, dtype=self.dtype, device=self.device)
            dist.all_reduce(buf)
            expected = torch.full_like(buf, n * (n + 1) // 2)
        elif op == "all_gather":
            inp = torch.full((per_rank,), r + 1, dtype=self.dtype, device=self.device)
            buf = torch.full((total,), -1, dtype=self.dtype, device=self.device)
            dist.all_gather_into_tensor(buf, inp)
            expected = torch.arange(1, n + 1, device=self.device).repeat_interleave(per_rank)
            expected = expected.to(self.dtype)
        else:
            inp = torch.full((total,), r + 1, dtype=self.dtype, device=self.device)
            buf = torch.full((per_rank,), -1, dtype=self.dtype, device=self.device)
            dist.reduce_scatter_tensor(buf, inp)
            expected = torch.full_like(buf, n * (n + 1) // 2)
        if not torch.equal(buf, expected):
            bad = int((buf != expected).sum().item())
            raise RuntimeError(f"{op} gave a wrong result on rank {r}: {bad} wrong elements")

    # -- the sweep -------------------------------------------------------------------
    def make_op(self, op: str, max_bytes: int) -> Callable[[int], Callable[[], None]]:
        """Allocate the largest buffers once; return count -> collective on views."""
        n = self.world
        max_count = max_bytes // self.elsize
        if op == "all_reduce":
            buf = self.random(max_count)

            def bind(count: int) -> Callable[[], None]:
                view = buf[:count]
                return lambda: dist.all_reduce(view)

        elif op == "all_gather":
            out = self.random(max_count)
            inp = self.random(max_count // n)

            def bind(count: int) -> Callable[[], None]:
                dst, src = out[:count], inp[: count // n]
                return lambda: dist.all_gather_into_tensor(dst, src)

        else:
            inp = self.random(max_count)
            out = self.random(max_count // n)

            def bind(count: int) -> Callable[[], None]:
                dst, src = out[: count // n], inp[:count]
                return lambda: dist.reduce_scatter_tensor(dst, src)

        return bind

    def element_count(self, op: str, size: int) -> int:
        count = size // self.elsize
        if op != "all_reduce":
            count -= count % self.world  # every rank's share must be whole, as nccl-tests rounds
        return count

    def time_size(self, run: Callable[[], None]) -> tuple[list[float], int]:
        """Per-collective seconds of each timed block (rank-averaged), and iterations."""
        args = self.args
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        run()  # first call pays lazy connection setup / algorithm switch: never timed
        self.line_up()
        start.record()
        run()
        end.record()
        end.synchronize()
        # Every rank must agree on the iteration count, so decide on the slowest probe.
        probe_s = self.reduce_scalar(start.elapsed_time(end) / 1e3, dist.ReduceOp.MAX)
        iters = args.iters
        if args.time_budget > 0 and probe_s > 0:
            iters = max(args.min_iters, min(args.iters, int(args.time_budget / probe_s)))
        for _ in range(min(max(args.warmup - 2, 0), iters)):
            run()
        blocks: list[float] = []
        for _ in range(args.runs):
            self.line_up()
            start.record()
            for _ in range(iters):
                run()
            end.record()
            end.synchronize()
            mean_s = start.elapsed_time(end) / 1e3 / iters
            # nccl-tests' default (-a 1): the rank-average of each rank's time.
            blocks.append(self.reduce_scalar(mean_s, dist.ReduceOp.SUM) / self.world)
        return blocks, iters

    @staticmethod
    def _spread(row: Row) -> str:
        spread = (row.time_us_max - row.time_us_min) / row.time_us * 100
        return f"  x{row.runs} blocks, min..max {row.time_us_min:.1f}..{row.time_us_max:.1f} us ({spread:.1f}%)"

    def sweep(self, op: str, sizes: Sequence[int]) -> list[Row]:
        rows: list[Row] = []
        self.verify(op)
        bind = self.make_op(op, max(sizes))
        type_name = TYPE_NAMES[self.args.dtype]
        factor = bus_factor(op, self.world)
        self.log(f"#\n# {op}  ({self.world} ranks, busbw factor {factor:.3f})")
        self.log("# " + _columns("size", "count", "type", "time", "algbw", "busbw", "iters"))
        self.log("# " + _columns("(B)", "(elements)", "", "(us)", "(GB/s)", "(GB/s)", ""))
        for size in sizes:
            count = self.element_count(op, size)
            if count == 0:
                continue  # smaller than one element per rank
            nbytes = count * self.elsize
            blocks, iters = self.time_size(bind(count))
            seconds = statistics.median(blocks)
            algbw = nbytes / seconds / 1e9
            row = Row(
                op=op,
                size=nbytes,
                count=count,
                dtype=self.args.dtype,
                iters=iters,
                time_us=seconds * 1e6,
                algbw_gbps=algbw,
                busbw_gbps=algbw * bus_factor(op, self.world),
                runs=len(blocks),
                time_us_min=min(blocks) * 1e6,
                time_us_max=max(blocks) * 1e6,
            )
            rows.append(row)
            self.log(
                f"  {row.size:>12} {row.count:>12} {type_name:>8} {row.time_us:>10.1f} "
                f"{row.algbw_gbps:>8.2f} {row.busbw_gbps:>8.2f} {row.iters:>6}"
                + (self._spread(row) if row.runs > 1 else "")
            )
        if rows:
            avg = sum(r.busbw_gbps for r in rows) / len(rows)
            last = rows[-1]
            self.log(f"# {op}: avg busbw {avg:.2f} GB/s; {last.size} B: {last.busbw_gbps:.2f} GB/s")
        torch.cuda.empty_cache()
        return rows
