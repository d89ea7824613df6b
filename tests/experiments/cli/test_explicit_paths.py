"""Every path a user names on the command line is hostile (issue 37): a FIFO must not block, a device must not be
read forever, a loop or a directory is named as such.  Each is one line, exit 2, and nothing is written."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from experiments.cli.main import main

HANG_BOUND_S = 30.0
"""How long a command may take to refuse a FIFO (it takes milliseconds; a blocked read never ends)."""


def _fifo(tmp_path: Path) -> str:
    path = tmp_path / "Pulumi.fifo.yaml"
    os.mkfifo(path)
    return str(path)


def _loop(tmp_path: Path) -> str:
    path = tmp_path / "Pulumi.loop.yaml"
    path.symlink_to(path)
    return str(path)


HOSTILE: dict[str, tuple[Callable[[Path], str], str]] = {
    "fifo": (_fifo, "is not a regular file (a FIFO or a device would block or never end)"),
    "dev-zero": (
        lambda _: "/dev/zero",
        "/dev/zero: is not a regular file (a FIFO or a device would block or never end)",
    ),
    "dev-urandom": (
        lambda _: "/dev/urandom",
        "/dev/urandom: is not a regular file (a FIFO or a device would block or never end)",
    ),
    "loop": (_loop, "(a symbolic link to nothing, or a loop)"),
}


def run_bounded(argv: list[str], unblock: str | None) -> int | None:
    """``main(argv)`` in a thread; if it is still running after ``HANG_BOUND_S`` (blocked on a FIFO), a writer
    opens ``unblock`` so that the thread ends, and the answer is None."""
    result: list[int] = []

    def command() -> None:
        try:
            result.append(main(argv))
        except SystemExit as error:  # argparse's own refusals
            result.append(int(error.code or 0))

    worker = threading.Thread(target=command, daemon=True)
    worker.start()
    worker.join(HANG_BOUND_S)
    if worker.is_alive() and unblock is not None:
        os.close(os.open(unblock, os.O_WRONLY | os.O_NONBLOCK))  # the blocked reader sees an empty file
        worker.join(HANG_BOUND_S)
        return None
    return result[0] if result else None


COMMANDS: dict[str, Callable[[str, Path], list[str]]] = {
    "preview": lambda p, d: ["preview", p, "--out", str(d / "out"), "--state-dir", str(d / "state")],
    "diff": lambda p, d: ["diff", "dev", p, "--state-dir", str(d / "state")],
    "predict": lambda p, d: ["predict", p],
    "results add": lambda p, d: ["results", "--store", str(d / "s.sqlite"), "add", p, "--log", str(d / "x.log")],
    "pko": lambda p, d: ["pko", p, "--out", str(d / "out"), "--on-delete", "keep", "--image", "example/image:1"],
    "sweep --base": lambda p, d: [
        *("sweep", "--offline", "--profile", "l40s", "--variant", "pod", "--nodes", "2"),
        *("--base", p, "--state-dir", str(d / "state"), "--out", str(d / "o.json")),
    ],
    "sweep --matrix": lambda p, d: [
        *("sweep", "--offline", "--matrix", p, "--state-dir", str(d / "state"), "--out", str(d / "o.json"))
    ],
}


@pytest.mark.parametrize("kind", list(HOSTILE))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_stack_or_matrix_file_that_is_not_a_file_is_one_line(tmp_path, capsys, command: str, kind: str) -> None:
    """Before: a FIFO blocked every verb that reads a stack file for ever, and /dev/zero filled the memory."""
    make, expected = HOSTILE[kind]
    work = tmp_path / "work"
    work.mkdir()
    named = make(tmp_path)
    code = run_bounded(COMMANDS[command](named, work), named if kind == "fifo" else None)
    err = capsys.readouterr().err
    assert code == 2, f"blocked or wrong exit: {code}"
    (line,) = err.strip().splitlines()
    assert line.startswith("error: ") and line.endswith(expected), line
    assert "Traceback" not in err
    assert list(work.iterdir()) == []  # nothing written, not even a folder


SWEEP_CELL = ["sweep", "--offline", "--profile", "l40s", "--variant", "pod", "--nodes", "2"]
PRIVATE_BODY = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"


def _ssh_key_file(tmp_path: Path, kind: str) -> str:
    path = tmp_path / "id_ed25519.pub"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "not-utf8":
        path.write_bytes(b"ssh-ed25519 \xff\xfe\x80\n")
    elif kind == "private":
        path.write_text(f"-----BEGIN OPENSSH PRIVATE KEY-----\n{PRIVATE_BODY}\n-----END OPENSSH PRIVATE KEY-----\n")
    else:
        return kind
    return str(path)


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("fifo", "is not a regular file (a FIFO or a device would block or never end)"),
        ("/dev/zero", "/dev/zero: is not a regular file (a FIFO or a device would block or never end)"),
        ("/dev/urandom", "/dev/urandom: is not a regular file (a FIFO or a device would block or never end)"),
        ("not-utf8", "not UTF-8 text, so not an OpenSSH public key"),
        ("private", "holds a private key"),
    ],
)
def test_an_ssh_public_key_file_that_is_not_one_is_one_line(tmp_path, capsys, kind: str, expected: str) -> None:
    """Before: a FIFO or a device blocked the sweep (or read for ever), and bytes that are not UTF-8 were a
    traceback.  A private key is refused without a byte of it in the message."""
    work = tmp_path / "work"
    work.mkdir()
    named = _ssh_key_file(tmp_path, kind)
    argv = [*SWEEP_CELL, "--ssh-public-key-file", named, "--state-dir", str(work / "st"), "--out", str(work / "o.json")]
    code = run_bounded(argv, named if kind == "fifo" else None)
    err = capsys.readouterr().err
    assert code == 2, f"blocked or wrong exit: {code}"
    (line,) = err.strip().splitlines()
    assert expected in line, line
    assert PRIVATE_BODY[:16] not in err and "Traceback" not in err
    assert list(work.iterdir()) == []


def _not_a_directory(tmp_path: Path, kind: str) -> str:
    path = tmp_path / "state"
    if kind == "file":
        path.write_text("")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "loop":
        path.symlink_to(path)
    else:
        return kind
    return str(path)


@pytest.mark.parametrize("kind", ["file", "fifo", "loop", "/dev/zero"])
@pytest.mark.parametrize(
    "command",
    [
        lambda s, d: ["preview", "dev", "--out", str(d / "out"), "--state-dir", s],
        lambda s, d: ["diff", "dev", "h100-1n", "--state-dir", s],
        lambda s, d: [*SWEEP_CELL, "--state-dir", s, "--out", str(d / "o.json")],
    ],
    ids=["preview", "diff", "sweep"],
)
def test_a_state_dir_that_is_not_a_directory_is_refused(tmp_path, capsys, command: Any, kind: str) -> None:
    """Before: preview, diff and sweep --offline ran as if no cache had been named, exit 0."""
    work = tmp_path / "work"
    work.mkdir()
    named = _not_a_directory(tmp_path, kind)
    assert main(command(named, work)) == 2
    assert capsys.readouterr().err == f"error: --state-dir {named}: exists and is not a directory\n"
    assert list(work.iterdir()) == []


@pytest.mark.parametrize(
    "command",
    [
        lambda k, d: ["run", "dev", "--timeout", "5", "--store", str(d / "s.sqlite"), "--out", str(d / "o")],
        lambda k, d: ["approve-csrs", "h100-2n-sriov-rdma-join", "--timeout", "5", "--dry-run"],
    ],
    ids=["run", "approve-csrs"],
)
def test_a_kubeconfig_far_larger_than_any_is_refused_before_it_is_read(tmp_path, capsys, command: Any) -> None:
    """Before: a 2 GiB --kubeconfig was read whole (2 GiB of memory), and the command ended in "--timeout reached"."""
    huge = tmp_path / "kubeconfig"
    with huge.open("wb") as handle:
        handle.truncate(2 * 2**30)  # sparse: no disk used
    work = tmp_path / "work"
    work.mkdir()
    assert main([*command(str(huge), work), "--kubeconfig", str(huge)]) == 2
    assert capsys.readouterr().err == f"error: --kubeconfig {huge}: larger than 16 MiB, not a kubeconfig\n"
    assert list(work.iterdir()) == []
