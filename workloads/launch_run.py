"""Running what was planned: the data step, then torchrun, either exec'd (it becomes the pod's
PID 1 and forwards SIGTERM to its workers) or, with the transport assertion, watched: its output
teed to a log, termination signals passed on, and the checker run on the log afterwards.

Apart by concept, not size: processes and signals, nothing decided here."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from types import FrameType
from typing import NoReturn, Optional

from workloads.launch_env import Assertion
from workloads.launch_guard import first_stall
from workloads.launch_messages import E_CONFIG, E_DATA, E_TRANSPORT, LaunchError, error, info, shell_line
from workloads.nccl_log import parse_log

STOP_GRACE_S = 30
"""How long torchrun gets to stop its ranks after SIGTERM before it is killed."""
_EXPECTED = {"pod": "net-socket", "vnic": "net-socket", "sriov": "net-socket", "sriov-rdma": "net-ib"}


class TransportWatch:
    """Reads torchrun's output as it comes and says when NCCL wires the nodes in a way the variant does
    not expect: another network transport (IB for a socket variant, sockets for RDMA), a socket on an
    interface outside NCCL_SOCKET_IFNAME, or fewer nodes than the job has (pods taken for one host, which
    NCCL then connects over P2P or SHM). NCCL prints all of it at INFO, which the job sets."""

    def __init__(self, variant: str, ifnames: Sequence[str], nnodes: str, nproc: str) -> None:
        self.variant = variant
        self.expected = _EXPECTED.get(variant) if nnodes.isdigit() and int(nnodes) > 1 else None
        self.ifnames = tuple(ifnames)
        self.nproc = int(nproc) if nproc.isdigit() else 0
        wanted = ",".join(self.ifnames) or "the default interface"
        self.wanted = f"NET/Socket over {wanted}" if self.expected == "net-socket" else "NET/IB (RDMA)"

    def _allowed(self, name: str) -> bool:
        plain = [e for e in self.ifnames if not e.startswith("^")]
        # NCCL_SOCKET_IFNAME entries are prefixes, `=name` exact, `^name` exclusions.
        return not plain or any(name == e[1:] if e.startswith("=") else name.startswith(e) for e in plain)

    def line(self, text: str) -> Optional[str]:
        """Why NCCL's wiring is wrong, from one line of output, or None."""
        if self.expected is None or "NCCL" not in text:
            return None
        one_host = "(same hostname or NCCL_HOSTID on two pods?)"
        if "Duplicate GPU detected" in text:
            return (
                f"NCCL found ranks of two pods on one GPU of one host (Duplicate GPU detected): it takes the "
                f"job's nodes for one host, so it cannot connect them over {self.wanted} {one_host}"
            )
        summary = parse_log([text])
        for via, _ in summary.via.items():
            transport = next(iter(summary.connections))
            if (transport.startswith("net-") or transport == "collnet") and transport != self.expected:
                return f"NCCL connected ranks via {via}, but variant {self.variant} carries NCCL over {self.wanted}"
        if self.expected == "net-socket":
            for bound in summary.socket_interfaces:
                if not self._allowed(bound.name):
                    return (
                        f"NCCL's socket transport bound {bound.name} ({bound.address}), outside "
                        f"NCCL_SOCKET_IFNAME={','.join(self.ifnames)}: variant {self.variant} carries NCCL over "
                        f"{self.wanted}"
                    )
        # A communicator of more ranks than one node runs spans several nodes (FSDP's shard groups stay
        # inside one: nRanks 2 nNodes 1 is right there); fewer nodes means pods taken for one host.
        if summary.n_nodes is not None and summary.n_ranks and self.nproc:
            least = -(-summary.n_ranks // self.nproc)
            if summary.n_nodes < least:
                return (
                    f"NCCL counts {summary.n_nodes} node(s) for {summary.n_ranks} ranks of {self.nproc} per node: "
                    f"it takes pods of different nodes for one host and connects them over P2P/SHM, not "
                    f"{self.wanted} {one_host}"
                )
        return None


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


def _run_teed(
    command: Sequence[str], env: Mapping[str, str], log_file: str, watch: Optional[TransportWatch] = None
) -> tuple[int, Optional[str]]:
    """torchrun with stdout and stderr to our stdout and to ``log_file``; SIGTERM and SIGINT go on
    to it (we are PID 1 while it runs, so nothing else would). With ``watch``, the first wrong wiring
    it reports stops torchrun (SIGTERM, then SIGKILL after STOP_GRACE_S) and is returned with the status."""
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
                return 127, None  # as a shell reports a command it cannot run
            for signum in pending:
                child.send_signal(signum)
            assert child.stdout is not None
            out, pipe = sys.stdout.buffer, child.stdout.fileno()
            partial = b""
            wrong: Optional[str] = None
            killer: Optional[threading.Timer] = None
            while chunk := os.read(pipe, 65536):
                out.write(chunk)
                out.flush()
                log.write(chunk)
                log.flush()
                if watch is None or wrong is not None:
                    continue
                *lines, partial = (partial + chunk).split(b"\n")
                partial = partial[-65536:]  # a line that never ends is no NCCL line
                for raw in lines:
                    wrong = watch.line(raw.decode("utf-8", "replace"))
                    if wrong is not None:
                        child.send_signal(signal.SIGTERM)
                        killer = threading.Timer(STOP_GRACE_S, child.kill)
                        killer.daemon = True
                        killer.start()
                        break
            status = _shell_status(child.wait())
            if killer is not None:
                killer.cancel()
            return status, wrong
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def run_watched(
    command: Sequence[str], env: Mapping[str, str], log_file: str, watch: Optional[TransportWatch] = None
) -> int:
    """torchrun teed to ``log_file``; a wrong transport, or a rank the stall watchdog stopped, becomes the
    launcher's error."""
    status, wrong = _run_teed(command, env, log_file, watch)
    if wrong is not None:
        raise LaunchError(E_TRANSPORT, f"{wrong}; torchrun stopped (status {status})")
    if status != 0 and (stall := first_stall(log_file)):
        raise LaunchError(status, f"training stopped: {stall}")
    return status


def run_with_assertion(
    command: Sequence[str], env: Mapping[str, str], assertion: Assertion, watch: Optional[TransportWatch] = None
) -> int:
    """torchrun's status when it failed, else the transport checker's (0 pass, 1 fail)."""
    status = run_watched(command, env, assertion.log_file, watch)
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
