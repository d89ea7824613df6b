"""InstructLab's main_ds under torchrun, with the two guards a job on more than one GPU needs.

The launcher runs ``torchrun ... main_ds_guard.py ARGS`` where the job names
``instructlab.training.main_ds``; this file installs the guards in each rank, then runs main_ds
exactly as ``python -m instructlab.training.main_ds ARGS`` would.

**Equal minibatch counts.** Without flash attention main_ds pads each minibatch and deals them out
with ``padded_batch_packer.batch_lengths_to_minibatches_padded`` (instructlab-training 0.16.2,
``_distribute_batches_balanced``): whole minibatches go to the least-loaded rank by padded tokens,
so one rank may get 22 minibatches of a step and its peer 21. Every minibatch is an FSDP forward
and backward, a fixed series of all-gathers and reduce-scatters; the rank with fewer passes then
enters the step's metrics all-reduce (``BatchLossManager._reduce_metrics``) while its peers still
all-gather, and no rank ever returns. The packer used with flash attention
(``batch_packer.batch_lengths_to_minibatches_lpt``) gives every rank the same count and fills a
rank's missing share with ``[-1]``, the collator's dummy sample (labels all -100: no loss, no
gradient). The guard does the same for the padded packer: every rank computes every rank's count
(the packer is deterministic and each rank sees the same global batch) and pads its own list.

**Progress watchdog.** A rank that starts no new phase of the training loop for
``GPU_CLUSTER_STALL_SECONDS`` prints one ``gpu-cluster: stall:`` line naming the step, the phase,
the minibatch counts and the collective it waits in (PyTorch's NCCL flight recorder, when
``TORCH_NCCL_TRACE_BUFFER_SIZE`` is set), dumps every thread's Python stack, and exits with
``STALL_EXIT``; torchrun then stops the other ranks and the job fails instead of spinning until the
pod is deleted.

Standard library only at import time (the tests import it without torch).
"""

from __future__ import annotations

import faulthandler
import os
import pickle
import runpy
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

MAIN_DS = "instructlab.training.main_ds"
STALL_EXIT = 86
"""A rank's exit status when the watchdog stops it (torchrun itself then exits 1)."""
STALL_MARK = "gpu-cluster: stall:"
"""The start of the watchdog's line; the launcher repeats the first one as its error."""
EQUAL_MARK = "gpu-cluster: equal minibatches:"

Packer = Callable[[list[int], int, int, int], list[list[int]]]


class Progress:
    """Where this rank is in the training loop, as the hooks report it."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self.step = 0
        self.phase = "start-up"
        self.counts: tuple[int, ...] = ()
        self.since = clock()
        self.started = False

    def enter(self, phase: str, *, next_step: bool = False) -> None:
        with self._lock:
            if next_step:
                self.step += 1
            self.started = True
            self.phase = phase
            self.since = self._clock()

    def record_counts(self, counts: Sequence[int]) -> None:
        with self._lock:
            self.counts = tuple(counts)

    def idle(self) -> float:
        """Seconds since the last phase began; 0 before the training loop starts (model load,
        data step and the first collectives have their own time limits)."""
        with self._lock:
            return self._clock() - self.since if self.started else 0.0

    def describe(self) -> str:
        with self._lock:
            counts = f"; minibatches per rank in this step: {list(self.counts)}" if self.counts else ""
            return f"step {self.step}, {self.phase}{counts}"


def equal_counts(packer: Packer, progress: Progress, say: Callable[[str], None], *, pad: bool = True) -> Packer:
    """``packer`` with every rank's list padded with dummy minibatches to the largest count (``pad``),
    and the counts recorded either way; rank 0 says so for each step whose counts differ."""

    def packed(lengths: list[int], max_tokens: int, num_ranks: int, rank: int) -> list[list[int]]:
        mine = list(packer(lengths, max_tokens, num_ranks, rank))
        counts = [
            len(mine) if other == rank else len(packer(lengths, max_tokens, num_ranks, other))
            for other in range(num_ranks)
        ]
        progress.record_counts(counts)
        if rank == 0 and len(set(counts)) > 1:
            what = f"each padded to {max(counts)}" if pad else "NOT padded (GPU_CLUSTER_EQUAL_MINIBATCHES=0)"
            say(f"{EQUAL_MARK} minibatches per rank {counts}: {what}")
        if not pad:
            return mine
        return mine + [[-1] for _ in range(max(counts) - len(mine))]

    return packed


def last_collective(trace: bytes | None) -> str:
    """The oldest collective of the flight recorder's dump that has not completed, in words."""
    if not trace:
        return "collective unknown (flight recorder off: TORCH_NCCL_TRACE_BUFFER_SIZE=0)"
    try:
        data = pickle.loads(trace)  # PyTorch's own dump, made in this process
    except Exception as error:  # noqa: BLE001 - any failure here only loses detail
        return f"collective unknown (flight recorder unreadable: {type(error).__name__})"
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return "collective unknown (flight recorder empty)"
    pending = [e for e in entries if isinstance(e, dict) and e.get("state") != "completed"]
    if not pending:
        return "no collective in flight (the rank waits outside NCCL)"
    entry = pending[0]
    group = entry.get("process_group")
    group_text = (
        f", process group {group[1] or group[0]}" if isinstance(group, (list, tuple)) and len(group) == 2 else ""
    )
    return (
        f"collective {entry.get('profiling_name', '?')} #{entry.get('collective_seq_id', '?')} "
        f"({entry.get('state', '?')}{group_text}, {len(pending)} not completed)"
    )


def _flight_recorder() -> bytes | None:
    if os.environ.get("TORCH_NCCL_TRACE_BUFFER_SIZE", "0") in ("", "0"):
        return None
    try:
        from torch._C._distributed_c10d import _dump_nccl_trace  # private: PyTorch's flight recorder

        return bytes(_dump_nccl_trace(True, False, True))  # collectives, no stacks, only active
    except Exception:  # noqa: BLE001 - an older or newer PyTorch without it: no collective named
        return None


def watch(
    progress: Progress,
    limit: float,
    rank: str,
    *,
    poll: float | None = None,
    trace: Callable[[], bytes | None] = _flight_recorder,
    stop: Callable[[int], None] = os._exit,
    say: Callable[[str], None] | None = None,
) -> threading.Thread:
    """A daemon thread that stops this rank once ``progress`` has been idle for ``limit`` seconds."""
    out = say or _say

    def run() -> None:
        while True:
            time.sleep(poll if poll is not None else max(1.0, min(30.0, limit / 20)))
            idle = progress.idle()
            if idle < limit:
                continue
            out(
                f"{STALL_MARK} rank {rank} made no progress for {idle:.0f} s (GPU_CLUSTER_STALL_SECONDS "
                f"{limit:.0f}) in {progress.describe()}; waiting in {last_collective(trace())}"
            )
            faulthandler.dump_traceback(all_threads=True)
            stop(STALL_EXIT)
            return

    thread = threading.Thread(target=run, name="gpu-cluster-stall-watch", daemon=True)
    thread.start()
    return thread


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def install(progress: Progress, *, pad: bool) -> None:
    """Hook main_ds's packer and its step loop (imports instructlab.training)."""
    from instructlab.training import batch_loss_manager, sampler  # noqa: PLC0415 - only in the pod

    padded = getattr(sampler, "batch_lengths_to_minibatches_padded", None)
    if padded is None:
        _say("gpu-cluster: main_ds has no padded packer to equalize (a newer instructlab-training?); running as is")
    else:
        # MaxTokensPerRankCollator binds this name when it is built, after this assignment.
        sampler.batch_lengths_to_minibatches_padded = equal_counts(padded, progress, _say, pad=pad)
    manager = batch_loss_manager.BatchLossManager
    process_batch = manager.process_batch

    def hooked(self: Any, batch: Any, *args: Any, **kwargs: Any) -> Any:
        progress.enter(f"forward/backward of {len(batch)} minibatch(es) and the loss all-reduce", next_step=True)
        result = process_batch(self, batch, *args, **kwargs)
        progress.enter("the optimizer step, logging and any checkpoint")
        return result

    manager.process_batch = hooked


def main(argv: Sequence[str]) -> None:
    progress = Progress()
    install(progress, pad=os.environ.get("GPU_CLUSTER_EQUAL_MINIBATCHES", "1") != "0")
    limit = float(os.environ.get("GPU_CLUSTER_STALL_SECONDS") or 0)
    if limit > 0:
        watch(progress, limit, os.environ.get("RANK", "?"))
    sys.argv = [MAIN_DS, *argv]
    runpy.run_module(MAIN_DS, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
