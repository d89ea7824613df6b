"""The command line's one parser and lazy registry: every verb has a module with ``run``, and asking
for help loads none of them (nor Pulumi)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

from experiments.cli.main import COMMANDS
from experiments.cli.parser import build_parser

from ...conftest import PROJECT_ROOT


def _verbs(parser: argparse.ArgumentParser) -> set[str]:
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]  # noqa: SLF001
    return set(commands.choices)


def test_every_verb_of_the_parser_has_a_module_with_run() -> None:
    assert _verbs(build_parser()) == {key.split()[0] for key in COMMANDS}
    for module in set(COMMANDS.values()):
        assert callable(import_module(f"experiments.cli.{module}").run), module


def test_help_imports_no_verb_and_no_pulumi() -> None:
    probe = ("import sys, contextlib, io\n"
             "from experiments.cli.main import main\n"
             "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
             "    main(['--help'])\n"
             "loaded = sorted(m for m in sys.modules if m == 'pulumi' or m.startswith('pulumi.')\n"
             "                or m.startswith('experiments.cli.') and m.rsplit('.', 1)[1] not in\n"
             "                ('main', 'parser', 'parser_sweep', 'arguments'))\n"
             "print(loaded)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=PROJECT_ROOT, check=True)
    assert done.stdout.strip() == "[]", done.stdout


_PULUMI_PROBE = ("import sys, contextlib, io, json\n"
                 "from experiments.cli.main import main\n"
                 "for argv in json.loads(sys.argv[1]):\n"
                 "    out = io.StringIO()\n"
                 "    with contextlib.redirect_stdout(out):\n"
                 "        code = main(argv)\n"
                 "    loaded = sorted({m.split('.')[0] for m in sys.modules if m.startswith('pulumi')})\n"
                 "    print(json.dumps([code, loaded, out.getvalue()]))\n")
"""Runs each verb in turn in one interpreter and prints, after each, its exit code, the Pulumi packages loaded
so far and what it printed: an empty list after the last verb means none of them loaded any."""


@pytest.mark.slow
def test_calibrate_report_and_results_plan_offline_without_pulumi(tmp_path: Path) -> None:
    """They read stack files, which are planned against a simulated cluster through
    ``components.checks.discovery``: that must not drag the Pulumi SDK or a provider in (only
    ``results add``, which renders the stack for its fingerprint, does)."""
    verbs = {"calibrate": ["calibrate", "--json"],
             "report": ["report", "--out", str(tmp_path / "report"), "--store", str(tmp_path / "none.sqlite")],
             "results": ["results", "--json", "--store", str(tmp_path / "none.sqlite")]}
    done = subprocess.run([sys.executable, "-c", _PULUMI_PROBE, json.dumps(list(verbs.values()))],
                          capture_output=True, text=True, cwd=PROJECT_ROOT, check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(verbs), done.stdout
    for verb, (code, loaded, printed) in zip(verbs, answers, strict=True):
        assert (code, loaded) == (0, []), (verb, code, loaded)
        if verb == "calibrate":
            assert '"rows"' in printed
        elif verb == "report":
            assert (tmp_path / "report" / "report.md").is_file()
        else:
            assert printed.strip() == "[]"
