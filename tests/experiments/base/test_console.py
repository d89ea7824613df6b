"""The one console: text printed as it is, whoever prints it."""

from __future__ import annotations

import io
from pathlib import Path

from experiments.base.console import plain_console

ROOT = Path(__file__).resolve().parents[3]


def test_markup_in_printed_text_is_shown_not_interpreted() -> None:
    out = io.StringIO()
    plain_console(file=out, width=80).print("pod [bold]x[/] of stack [red]")
    assert out.getvalue() == "pod [bold]x[/] of stack [red]\n"


def test_a_print_that_styles_its_own_text_says_so() -> None:
    out = io.StringIO()
    plain_console(file=out, width=80).print("[bold]styled[/]", markup=True)
    assert out.getvalue() == "styled\n"


def test_the_verbs_leave_markup_and_highlighting_to_the_console() -> None:
    said = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "experiments").rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "markup=False" in line or "highlight=False" in line
    ]
    assert [where.rsplit(":", 1)[0] for where in said] == ["experiments/base/console.py"]  # once, there
