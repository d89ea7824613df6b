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
pod is deleted.  A checkpoint save, the final one included, is a phase of its own held to
``GPU_CLUSTER_SAVE_SECONDS``: a rank writing a whole model after its last step is not stalled.

Standard library only at import time (the tests import it without torch).
"""

from __future__ import annotations

import faulthandler
import importlib
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
STALL_VARIABLE = "GPU_CLUSTER_STALL_SECONDS"
SAVE_VARIABLE = "GPU_CLUSTER_SAVE_SECONDS"
MOST_STALL_SECONDS = 7 * 24 * 3600  # the job's stall_timeout_s has the same bound
SAVE_FACTOR = 4  # a save's limit when GPU_CLUSTER_SAVE_SECONDS is unset: this many stall limits
MOST_SAVE_SECONDS = SAVE_FACTOR * MOST_STALL_SECONDS
SAVES = ("save_checkpoint", "save_hf_format_accelerate")  # main_ds's savers in instructlab.training.utils (0.16)

Packer = Callable[[list[int], int, int, int], list[list[int]]]


def seconds_limit(name: str, value: str, most: int) -> int | None:
    """Whole seconds from 1 to ``most`` (None: unset); else (1e23, inf, nan, 0: timedelta overflows) ValueError."""
    if value == "":
        return None
    if value.isascii() and value.isdigit() and len(value) <= len(str(most)) and 1 <= int(value) <= most:
        return int(value)
    shown = value if len(value) <= 40 else value[:40] + "..."
    raise ValueError(f"{name} must be a whole number of seconds from 1 to {most}, got {shown!r}")


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
        self.saving = 0  # saves under way (a saver may call another); while any is, the save limit holds

    def enter(self, phase: str, *, next_step: bool = False) -> None:
        with self._lock:
            if next_step:
                self.step += 1
            self.started = True
            self.phase = phase
            self.since = self._clock()

    def begin_save(self, saver: str) -> None:
        with self._lock:
            self.saving += 1
            if self.saving == 1:
                self.started = True
                self.phase = f"saving a checkpoint ({saver})"
                self.since = self._clock()

    def end_save(self, saver: str) -> None:
        with self._lock:
            self.saving = max(0, self.saving - 1)
            if self.saving == 0:
                self.phase = f"after a checkpoint save ({saver})"
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


def save_on_stack(thread: int | None) -> str | None:
    """The saver (a ``save...`` function on its stack) ``thread`` is in: one the hooks miss is a save too."""
    frame = sys._current_frames().get(thread) if thread is not None else None
    while frame is not None and not frame.f_code.co_name.startswith("save"):
        frame = frame.f_back
    return frame.f_code.co_name if frame is not None else None


def overdue(progress: Progress, limit: float, saves: float, in_save: bool = False) -> tuple[float, str, float] | None:
    """Whether ``progress`` has been idle past the limit of the phase it is in (a save: hooked, or ``in_save``
    as the stack shows): the idle seconds, the variable that set the limit and the limit; None while not."""
    saving = progress.saving > 0 or in_save
    name, bound = (SAVE_VARIABLE, saves) if saving else (STALL_VARIABLE, limit)
    idle = progress.idle()
    return (idle, name, bound) if idle >= bound else None


def watch(
    progress: Progress,
    limit: float,
    rank: str,
    *,
    save_limit: float | None = None,
    poll: float | None = None,
    trace: Callable[[], bytes | None] = _flight_recorder,
    stop: Callable[[int], None] = os._exit,
    say: Callable[[str], None] | None = None,
) -> threading.Thread:
    """A daemon thread that stops this rank once ``progress`` has been idle for ``limit`` seconds, or for
    ``save_limit`` (default ``SAVE_FACTOR`` limits) while it saves a checkpoint."""
    out = say or _say
    saves = save_limit if save_limit is not None else SAVE_FACTOR * limit

    main = threading.main_thread().ident  # where main_ds runs

    def run() -> None:
        while True:
            time.sleep(poll if poll is not None else max(1.0, min(30.0, limit / 20)))
            saver = None if progress.saving or overdue(progress, limit, saves) is None else save_on_stack(main)
            late = overdue(progress, limit, saves, in_save=saver is not None)
            if late is None:
                continue
            idle, name, bound = late
            out(
                f"{STALL_MARK} rank {rank} made no progress for {idle:.0f} s ({name} {bound:.0f}) in "
                f"{progress.describe()}{f', in {saver}' if saver else ''}; waiting in {last_collective(trace())}"
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
    # Before main_ds runs, which binds utils' savers by name; it imports the on-demand one inside train().
    for module, name in (*(("utils", saver) for saver in SAVES), ("on_demand_checkpoint", "save_on_demand_checkpoint")):
        try:
            owner = importlib.import_module(f"instructlab.training.{module}")
        except ImportError:
            owner = None
        if (saver := getattr(owner, name, None)) is None:
            _say(f"gpu-cluster: main_ds has no {module}.{name} (another instructlab-training?): not watched as a save")
        else:
            setattr(owner, name, watched_save(saver, name, progress))


def watched_save(saver: Callable[..., Any], name: str, progress: Progress) -> Callable[..., Any]:
    """``saver`` run as a save phase: held to the save limit, however long after the last step it comes."""

    def saving(*args: Any, **kwargs: Any) -> Any:
        progress.begin_save(name)
        try:
            return saver(*args, **kwargs)
        finally:
            progress.end_save(name)

    return saving


def main(argv: Sequence[str]) -> None:
    try:
        limit = seconds_limit(STALL_VARIABLE, os.environ.get(STALL_VARIABLE, ""), MOST_STALL_SECONDS)
        save_limit = seconds_limit(SAVE_VARIABLE, os.environ.get(SAVE_VARIABLE, ""), MOST_SAVE_SECONDS)
    except ValueError as error:  # the launcher checks both first; this file may be run by hand
        _say(f"gpu-cluster: error: {error}")
        sys.exit(2)
    progress = Progress()
    install(progress, pad=os.environ.get("GPU_CLUSTER_EQUAL_MINIBATCHES", "1") != "0")
    if limit is not None:
        watch(progress, limit, os.environ.get("RANK", "?"), save_limit=save_limit)
    sys.argv = [MAIN_DS, *argv]
    runpy.run_module(MAIN_DS, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
