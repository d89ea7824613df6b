"""The one console the verbs print through."""

from __future__ import annotations

from typing import IO

from rich.console import Console

__all__ = ["plain_console"]


class _Console(Console):
    def on_broken_pipe(self) -> None:
        """The reader went away (``| head``): Rich would exit with status 1 on its own; the CLI answers every
        closed pipe alike, with a shell's 141 and no traceback (``experiments.cli.main``)."""
        self.quiet = True  # nothing more to write, whatever is still printed
        raise BrokenPipeError


def plain_console(*, stderr: bool = False, file: IO[str] | None = None, width: int | None = None) -> Console:
    """A console that prints text as it is: names read from a cluster, a stack or a log are hostile input, so no
    ``[markup]`` in them is interpreted and nothing is highlighted (a print that styles its own text says
    ``markup=True``).  Lines wrap as the terminal does (``soft_wrap``), so a piped table keeps whole names."""
    return _Console(stderr=stderr, file=file, width=width, soft_wrap=True, highlight=False, markup=False)
