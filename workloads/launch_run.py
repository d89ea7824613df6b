"""Running what was planned: the data step, then torchrun, either exec'd (it becomes the pod's
PID 1 and forwards SIGTERM to its workers) or, with the transport assertion, watched: its output
teed to a log, termination signals passed on, and the checker run on the log afterwards.

Apart by concept, not size: processes and signals, nothing decided here."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from types import FrameType
from typing import NoReturn

from workloads.launch_env import Assertion
from workloads.launch_guard import first_stall
from workloads.launch_messages import E_CONFIG, E_DATA, LaunchError, error, info, shell_line


def run_data_step(command: Sequence[str], data_file: str, env: Mapping[str, str]) -> None:
    line = shell_line(command)
    info(f"data step: {line}")
    try:
        status = subprocess.run(list(command), env=dict(env), check=False).returncode
    except OSError:
        status = 127  # python3 not on PATH, as the shell reports it
    if status != 0:
        raise LaunchError(E_DATA, f"the data step failed (status {_shell_status(status)}): {line}")
    if not (os.path.isfile(data_file) and os.path.getsize(data_file) > 0):
        raise LaunchError(E_DATA, f"the data step wrote no {data_file}")


def exec_torchrun(command: Sequence[str], env: Mapping[str, str]) -> NoReturn:
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execvpe(command[0], list(command), dict(env))
    except OSError as exc:
        raise LaunchError(127, f"cannot run {command[0]}: {exc.strerror}") from None


def _shell_status(returncode: int) -> int:
    """A child's status as a shell reports it: 128+N when signal N ended it."""
    return 128 - returncode if returncode < 0 else returncode


def _run_teed(command: Sequence[str], env: Mapping[str, str], log_file: str) -> int:
    """torchrun with stdout and stderr to our stdout and to ``log_file``; SIGTERM and SIGINT go on
    to it (we are PID 1 while it runs, so nothing else would)."""
    try:
        log = open(log_file, "wb")  # closed below, after the child's last byte
    except OSError:
        raise LaunchError(E_CONFIG, f"cannot write the log {log_file} (GPU_CLUSTER_LOG)") from None
    child: subprocess.Popen[bytes] | None = None
    pending: list[int] = []

    def forward(signum: int, _frame: FrameType | None) -> None:
        if child is None:
            pending.append(signum)  # passed on as soon as torchrun has started
        elif child.poll() is None:
            child.send_signal(signum)

    previous = {signum: signal.signal(signum, forward) for signum in (signal.SIGTERM, signal.SIGINT)}
    try:
        with log:
            try:
                child = subprocess.Popen(list(command), env=dict(env), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            except OSError:
                return 127  # as a shell reports a command it cannot run
            for signum in pending:
                child.send_signal(signum)
            assert child.stdout is not None
            out, pipe = sys.stdout.buffer, child.stdout.fileno()
            while chunk := os.read(pipe, 65536):
                out.write(chunk)
                out.flush()
                log.write(chunk)
                log.flush()
            return _shell_status(child.wait())
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def run_watched(command: Sequence[str], env: Mapping[str, str], log_file: str) -> int:
    """torchrun teed to ``log_file``; a rank the stall watchdog stopped becomes the launcher's error."""
    status = _run_teed(command, env, log_file)
    if status != 0 and (stall := first_stall(log_file)):
        raise LaunchError(status, f"training stopped: {stall}")
    return status


def run_with_assertion(command: Sequence[str], env: Mapping[str, str], assertion: Assertion) -> int:
    """torchrun's status when it failed, else the transport checker's (0 pass, 1 fail)."""
    status = run_watched(command, env, assertion.log_file)
    if status != 0:
        raise LaunchError(
            status, f"torchrun exited with {status}; transport assertion skipped (log: {assertion.log_file})"
        )
    info(f"torchrun finished; checking the NCCL transport is {assertion.expect}")
    checker = ["python3", assertion.checker, "--expect", assertion.expect]
    # The checker only takes --ifnames with --expect socket: for the others the interface list
    # says nothing about which transport carried the data.
    if assertion.expect == "socket" and env.get("NCCL_SOCKET_IFNAME"):
        checker += ["--ifnames", env["NCCL_SOCKET_IFNAME"]]
    checker.append(assertion.log_file)
    info(f"running: {shell_line(checker)}")
    try:
        status = _shell_status(subprocess.run(checker, env=dict(env), check=False).returncode)
    except OSError:
        status = 127
    if status == 0:
        info(f"transport assertion passed ({assertion.expect})")
    else:
        error(f"transport assertion failed (expected {assertion.expect}, status {status}, log {assertion.log_file})")
    return status
