"""Two stacks' previews at once (what ``diff`` renders): the second in a forked process while this one renders
the first, where a second core is free now.

Each preview is one CPU-bound thread, so two free cores take the time of one preview; on a busy machine the
two processes would only take turns.  Whether a second core is free now is read from proc(5), not from the
1-minute load average, which still counts what finished seconds ago (a bench's previews, a test run): first
the tasks runnable this instant (``/proc/loadavg``'s fourth field; no wait), then, where that leaves a core
free, the idle time of the processors this process may run on over ``SAMPLE_S`` (``/proc/stat``).  Anything
else runs the two one after the other: no such file (not Linux) or one that reads oddly, a single core,
another thread alive (a fork would copy its locks held), no ``fork``, or a child that sends nothing back (it
failed: the second preview then runs here, so its errors are raised as a lone preview raises them).
"""

from __future__ import annotations

import multiprocessing
import os
import re
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

from experiments.offline.engine import EngineResult
from experiments.stacks.stackfile import StackFile
from experiments.state.preview import Preview, run_preview
from experiments.state.render_cache import RenderCache

__all__ = [
    "FREE_CORES",
    "SAMPLE_S",
    "cached_previews",
    "cpu_ticks",
    "idle_cores",
    "others_runnable",
    "run_previews",
    "second_core_free",
]

SAMPLE_S = 0.1
"""How long the processors are watched before forking: 10 ticks a processor (USER_HZ is 100)."""
FREE_CORES = 1.5
"""Idle processors the sample must show: this process's own (idle while it sleeps) and most of another."""
_STAT, _LOADAVG = Path("/proc/stat"), Path("/proc/loadavg")
_READ_LIMIT = 1 << 20
"""Bytes read at most of either file (``/proc/stat``'s ``cpuN`` lines come first)."""
_CPU_LINE = re.compile(r"cpu([0-9]{1,5})((?: [0-9]{1,20}){4,10})")
"""``cpuN`` and 4 to 10 counters: user nice system idle [iowait irq softirq steal guest guest_nice]."""
_LOADAVG_LINE = re.compile(r"(?:[0-9]{1,9}\.[0-9]{2} ){3}([0-9]{1,9})/([0-9]{1,9}) [0-9]{1,9}\n?")
"""Three load averages, runnable/existing scheduling entities, the last PID created."""
_COUNTED = 8
"""Counters summed as the processor's time: guest and guest_nice are already inside user and nice."""
_IDLE, _IOWAIT = 3, 4


def cpu_ticks(text: str, cpus: frozenset[int]) -> dict[int, tuple[int, int]]:
    """``(idle, total)`` ticks of each processor of ``cpus`` in ``/proc/stat``'s text; ValueError on a
    ``cpuN`` line of another shape, a processor given twice or one of ``cpus`` missing."""
    ticks: dict[int, tuple[int, int]] = {}
    for line in text.split("\n"):
        if not line.startswith("cpu") or line.startswith("cpu "):  # other statistics, the all-processor sum
            continue
        match = _CPU_LINE.fullmatch(line)
        if match is None:
            raise ValueError(f"/proc/stat: unexpected processor line {line[:40]!r}")
        cpu, counters = int(match.group(1)), [int(c) for c in match.group(2).split()]
        if cpu in ticks:
            raise ValueError(f"/proc/stat: processor {cpu} given twice")
        idle = counters[_IDLE] + (counters[_IOWAIT] if len(counters) > _IOWAIT else 0)
        ticks[cpu] = (idle, sum(counters[:_COUNTED]))
    if missing := cpus - ticks.keys():
        raise ValueError(f"/proc/stat: no line for processor(s) {sorted(missing)[:4]}")
    return {cpu: ticks[cpu] for cpu in cpus}


def others_runnable(text: str) -> int:
    """Tasks runnable this instant besides this process (running while it reads), from ``/proc/loadavg``'s
    text; ValueError on anything else."""
    match = _LOADAVG_LINE.fullmatch(text)
    if match is None or not 1 <= int(match.group(1)) <= int(match.group(2)):
        raise ValueError(f"/proc/loadavg: unexpected contents {text[:60]!r}")
    return int(match.group(1)) - 1


def idle_cores(before: dict[int, tuple[int, int]], after: dict[int, tuple[int, int]]) -> float:
    """The processors' idle time between two samples, in processors; ValueError where a counter went back
    (iowait may, proc(5) says) or none moved: such a sample says nothing."""
    free = 0.0
    for cpu, (idle_after, total_after) in after.items():
        idle, total = idle_after - before[cpu][0], total_after - before[cpu][1]
        if total <= 0 or not 0 <= idle <= total:
            raise ValueError(f"/proc/stat: processor {cpu}'s counters did not advance in step")
        free += idle / total
    return free


def _read(path: Path) -> str:
    with path.open("rb") as handle:
        return handle.read(_READ_LIMIT).decode("ascii")


def second_core_free(
    read: Callable[[Path], str] = _read, sleep: Callable[[float], None] = time.sleep, machine_cores: int | None = None
) -> bool:
    """Whether a second core is free now: this instant, at most all the machine's cores but two have a task
    to run besides this process, and over the next ``SAMPLE_S`` the processors this process may run on are
    idle for at least ``FREE_CORES`` of them.  False on anything that cannot say (no such file, odd
    contents, one processor).  ``machine_cores``: ``os.cpu_count()`` (what ``/proc/loadavg`` counts for)."""
    try:
        cpus = frozenset(os.sched_getaffinity(0))
        cores = machine_cores or os.cpu_count() or 1
        if len(cpus) < 2 or others_runnable(read(_LOADAVG)) > cores - 2:
            return False
        before = cpu_ticks(read(_STAT), cpus)
        sleep(SAMPLE_S)
        return idle_cores(before, cpu_ticks(read(_STAT), cpus)) >= FREE_CORES
    except (AttributeError, OSError, ValueError):  # no sched_getaffinity (not Linux), unreadable, odd
        return False


def run_previews(first: StackFile, second: StackFile) -> tuple[Preview, Preview]:
    """Two previews, side by side where a second core is free (see the module's docstring)."""
    return _side_by_side(first, second, None)


def cached_previews(first: StackFile, second: StackFile, renders: RenderCache | None) -> tuple[Preview, Preview]:
    """Two stacks' previews from ``renders`` where it has them, the others rendered (side by side if both)
    and kept there."""
    if renders is None:
        return run_previews(first, second)
    found = [renders.load(first), renders.load(second)]
    if found[0] is None and found[1] is None:
        return _side_by_side(first, second, renders)
    a, b = (
        Preview(stack, result) if result is not None else _kept(run_preview(stack), renders)
        for stack, result in zip((first, second), found, strict=True)
    )
    return a, b


def _kept(preview: Preview, renders: RenderCache | None) -> Preview:
    if renders is not None:
        renders.store(preview.stack, preview.result)
    return preview


def _side_by_side(first: StackFile, second: StackFile, renders: RenderCache | None) -> tuple[Preview, Preview]:
    """Each render kept in ``renders`` by the process that made it: the child's store runs beside the parent's."""
    if (
        threading.active_count() > 1
        or "fork" not in multiprocessing.get_all_start_methods()
        or not second_core_free()  # sampled last: it takes SAMPLE_S
    ):
        return _kept(run_preview(first), renders), _kept(run_preview(second), renders)
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_send_preview, args=(second, renders, sender), daemon=True)
    child.start()
    sender.close()
    try:
        ahead = _kept(run_preview(first), renders)
        try:
            result: EngineResult = receiver.recv()
        except EOFError:  # the child failed: its error is raised here, by the same preview
            return ahead, _kept(run_preview(second), renders)
        return ahead, Preview(stack=second, result=result)
    finally:
        receiver.close()
        if child.is_alive():
            child.terminate()
        child.join()


def _send_preview(stack: StackFile, renders: RenderCache | None, sender: Connection) -> None:
    try:
        sender.send(_kept(run_preview(stack), renders).result)
    except Exception:  # noqa: BLE001, S110 - nothing sent: the parent runs this preview again and raises
        pass
    finally:
        sender.close()
