"""How long the offloaded optimizer step takes on the CPU with 1 and with N OpenMP threads.

    python3 tools/gpu/omp_adam.py [--params 500e6] [--threads 1 16]

main_ds with ``cpu_offload_optimizer`` runs torch's AdamW over each rank's shard on the host; torchrun
sets OMP_NUM_THREADS=1 when it is unset, so that step runs on one core. This times one AdamW step
over a float32 parameter of ``--params`` elements with each thread count (after one warm-up step),
which is the step's cost per rank for a shard of that size.
"""

from __future__ import annotations

import argparse
import time

import torch


def step_seconds(params: int, threads: int) -> float:
    torch.set_num_threads(threads)
    weight = torch.nn.Parameter(torch.randn(params, dtype=torch.float32))
    weight.grad = torch.randn(params, dtype=torch.float32)
    optimizer = torch.optim.AdamW([weight], lr=1e-4)
    optimizer.step()  # allocates the two moment buffers
    start = time.perf_counter()
    optimizer.step()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--params", type=float, default=500e6)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 16])
    args = parser.parse_args()
    for threads in args.threads:
        seconds = step_seconds(int(args.params), threads)
        print(
            f"omp_adam: {int(args.params):,} float32 parameters, {threads} thread(s): {seconds:.2f} s per AdamW step "
            f"({args.params / seconds / 1e6:.0f} M parameters/s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
