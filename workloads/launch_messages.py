"""What the launcher says: its exit statuses, its one error type, its progress lines and the shell
form it prints commands in (``bash``'s ``printf %q``, so a logged command can be pasted back).

Apart by concept, not size: every ``launch_*`` module says things through it, and ``experiments.live.jobpods``
reads the launcher's last error with it without importing the launcher."""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Sequence

E_CONFIG = 2
"""Launch configuration: a missing or invalid variable, a bad config.json."""
E_MAPPING = 3
"""Address mapping: the mapping file, interface addresses, a failed ``ip`` command."""
E_RDMA = 4
"""RDMA device lookup in sysfs."""
E_DATA = 5
"""The data step: data_process failed or wrote no data.jsonl."""
E_RENDEZVOUS = 6
"""The rendezvous: the master is not MASTER_ADDR, or a worker cannot reach it in time."""
E_TRANSPORT = 7
"""NCCL connected the nodes over a transport the variant does not expect; torchrun was stopped."""


class LaunchError(Exception):
    """Stops the launch with ``status`` and one ``entrypoint: error:`` line."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def info(message: str) -> None:
    # Flushed at once: the launcher ends in exec, which would drop anything still buffered.
    print(f"entrypoint: {message}", flush=True)


ERROR_PREFIX = "entrypoint: error: "
"""How every stop of the launcher begins; ``run`` leads its failure message with the last one."""


def error(message: str) -> None:
    print(f"{ERROR_PREFIX}{message}", file=sys.stderr, flush=True)


def last_error(lines: Sequence[str]) -> str | None:
    """The reason of the launcher's last error line among a pod's log ``lines``, if any."""
    reasons = [line[len(ERROR_PREFIX) :] for line in lines if line.startswith(ERROR_PREFIX)]
    return reasons[-1] if reasons else None


# Characters bash's `printf %q` escapes with a backslash anywhere in a word.
_SPECIAL = frozenset(" \t\n'\"\\|&;()<>!{}*[?]^$`,")
_PRINTABLE = re.compile(r"[^\x00-\x1f\x7f]*")


def _quote(word: str) -> str:
    if not word:
        return "''"
    if not _PRINTABLE.fullmatch(word):
        return shlex.quote(word)  # control characters: bash would write $'...'
    out = []
    for index, char in enumerate(word):
        before = word[index - 1] if index else ""
        if char in _SPECIAL or (char == "#" and index == 0) or (char == "~" and (index == 0 or before in "=:")):
            out.append("\\")
        out.append(char)
    return "".join(out)


def shell_line(argv: Sequence[str]) -> str:
    """``argv`` as one shell-quoted line, the way the launcher logs commands."""
    return " ".join(_quote(word) for word in argv)
