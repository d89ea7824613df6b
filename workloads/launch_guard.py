"""The launcher's side of main_ds on several GPUs: ``main_ds_guard.py`` as torchrun's target (equal
minibatch counts per rank, the progress watchdog), the environment PyTorch and main_ds read for it,
OpenMP threads for the CPU offload, and a stopped rank's reason repeated as the launcher's error."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import replace

from workloads.launch_env import Rendezvous
from workloads.launch_messages import E_CONFIG, LaunchError, info
from workloads.main_ds_guard import (
    MAIN_DS,
    MOST_SAVE_SECONDS,
    MOST_STALL_SECONDS,
    SAVE_FACTOR,
    SAVE_VARIABLE,
    STALL_MARK,
    STALL_VARIABLE,
    seconds_limit,
)

TRACE_ENTRIES = "2000"
"""PyTorch's NCCL flight recorder ring (TORCH_NCCL_TRACE_BUFFER_SIZE): the watchdog names the
collective a stopped rank waits in from it; off by default in PyTorch."""
NCCL_MARGIN_S = 120
"""main_ds's collective timeout (INSTRUCTLAB_NCCL_TIMEOUT_MS) is the save limit plus this: a save ends in a
barrier where every rank waits for rank 0's writes, so NCCL must wait longer than the watchdog lets a save
take; the watchdog, which names the step and the phase, fires first in the training loop and in saves,
while NCCL's own timeout bounds the collectives of start-up, which the watchdog does not watch."""
TIMEOUT_VARIABLE = "INSTRUCTLAB_NCCL_TIMEOUT_MS"
MOST_TIMEOUT_MS = (MOST_SAVE_SECONDS + NCCL_MARGIN_S) * 1000
"""The longest collective timeout accepted from the user: main_ds makes a ``timedelta`` of it."""
_COUNT = re.compile(r"[1-9][0-9]*")
_WATCHDOG = re.compile(r"Watchdog caught collective operation timeout: (WorkNCCL\(.{0,300}?\)) ran for")


def usable_cpus(cgroup: str = "/sys/fs/cgroup") -> int:
    """CPUs this pod may use: its affinity, capped by a cgroup v2 ``cpu.max`` quota (a pod's CPU limit)."""
    cpus = len(os.sched_getaffinity(0))
    try:
        with open(os.path.join(cgroup, "cpu.max"), encoding="ascii") as handle:
            quota, _, period = handle.read(64).strip().partition(" ")
        if quota != "max" and _COUNT.fullmatch(quota) and _COUNT.fullmatch(period or ""):
            cpus = min(cpus, max(1, math.ceil(int(quota) / int(period))))
    except OSError:
        pass  # cgroup v1 or no limit file: the affinity is the bound
    return cpus


def guard_main_ds(
    env: MutableMapping[str, str],
    rendezvous: Rendezvous,
    program_args: Sequence[str],
    cpus: Callable[[], int] = usable_cpus,
) -> Rendezvous:
    """main_ds's rendezvous run through the guard, and ``env`` set for it; any other program as is."""
    stall, save = _limits(env)  # checked whatever runs: a bad value is a bad job either way
    if rendezvous.target != ("-m", MAIN_DS):
        return rendezvous
    # Beside this file in the workloads ConfigMap (shipped with it, so never missing).
    guard = os.path.join(os.path.dirname(os.path.abspath(__file__)), "main_ds_guard.py")
    if stall is not None and save is not None:
        env[SAVE_VARIABLE] = str(save)
        wanted = (max(stall, save) + NCCL_MARGIN_S) * 1000
        if not env.get(TIMEOUT_VARIABLE):
            env[TIMEOUT_VARIABLE] = str(wanted)
        elif int(env[TIMEOUT_VARIABLE]) < wanted:
            info(
                f"keeping {TIMEOUT_VARIABLE}={env[TIMEOUT_VARIABLE]} set by the user: NCCL may stop a rank before "
                f"the watchdog's limits ({stall} s a phase, {save} s a save) run out, without naming the step"
            )
    env["TORCH_NCCL_TRACE_BUFFER_SIZE"] = env.get("TORCH_NCCL_TRACE_BUFFER_SIZE") or TRACE_ENTRIES
    if "--cpu_offload_params_fsdp" in program_args and _COUNT.fullmatch(rendezvous.nproc):
        if env.get("OMP_NUM_THREADS"):
            info(f"keeping OMP_NUM_THREADS={env['OMP_NUM_THREADS']} set by the user")
        else:
            # torchrun sets 1 when unset: the offloaded optimizer step (CPU Adam over this rank's
            # shard) then runs on one core while the pod's others idle.
            usable = cpus()
            env["OMP_NUM_THREADS"] = str(max(1, usable // int(rendezvous.nproc)))
            info(
                f"OMP_NUM_THREADS={env['OMP_NUM_THREADS']} ({usable} CPUs / {rendezvous.nproc} processes; CPU offload)"
            )
    limits = f"stall limit {stall} s, checkpoint saves {save} s" if stall is not None else "stall limit off"
    info(f"main_ds runs through {guard} (equal minibatches per rank; {limits})")
    return replace(rendezvous, target=(guard,))


def _limits(env: MutableMapping[str, str]) -> tuple[int | None, int | None]:
    """The stall limit and a save's limit (``SAVE_FACTOR`` stall limits unless set), and the user's collective
    timeout, each refused in one line where it is not a whole number within its bound."""
    try:
        stall = seconds_limit(STALL_VARIABLE, env.get(STALL_VARIABLE, ""), MOST_STALL_SECONDS)
        save = seconds_limit(SAVE_VARIABLE, env.get(SAVE_VARIABLE, ""), MOST_SAVE_SECONDS)
    except ValueError as error:
        raise LaunchError(E_CONFIG, str(error)) from None
    timeout = env.get(TIMEOUT_VARIABLE, "")
    if timeout and not (_COUNT.fullmatch(timeout) and len(timeout) <= 13 and int(timeout) <= MOST_TIMEOUT_MS):
        shown = timeout if len(timeout) <= 40 else timeout[:40] + "..."
        raise LaunchError(
            E_CONFIG,
            f"{TIMEOUT_VARIABLE} must be a whole number of milliseconds from 1 to {MOST_TIMEOUT_MS}, got {shown!r}",
        )
    if stall is None:
        return None, None
    if save is not None and save < stall:  # as job.save_timeout_s: a save may take longer than a phase, never less
        raise LaunchError(
            E_CONFIG, f"{SAVE_VARIABLE} {save} is below {STALL_VARIABLE} {stall}: a save's limit is the longer"
        )
    return stall, save if save is not None else SAVE_FACTOR * stall


def first_stall(log_file: str, max_line: int = 2000) -> str | None:
    """The first watchdog line of torchrun's teed output (ours, else NCCL's own), or None."""
    nccl = None
    try:
        with open(log_file, encoding="utf-8", errors="replace") as handle:
            while line := handle.readline(64 * 1024):
                if STALL_MARK in line:
                    return line[line.index(STALL_MARK) :].strip()[:max_line]
                if nccl is None and (match := _WATCHDOG.search(line)):
                    nccl = f"NCCL's watchdog stopped a rank: collective {match.group(1)} timed out"
    except OSError:
        return None
    return nccl
