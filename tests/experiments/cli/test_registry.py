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

from experiments.cli.main import main
from experiments.cli.parser import Verb, build_parser
from experiments.results.store import ResultsStore

from ...conftest import PROJECT_ROOT


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]  # noqa: SLF001
    return {name: sub for action in actions for name, sub in action.choices.items()}


def _leaves(parser: argparse.ArgumentParser, path: str = "") -> dict[str, argparse.ArgumentParser]:
    """Every command line a user can end at: each verb, and each subcommand below it."""
    found = {path: parser} if path else {}
    for name, sub in _subparsers(parser).items():
        found |= _leaves(sub, f"{path} {name}".strip())
    return found


def test_every_command_runs_a_verb_module_with_run() -> None:
    leaves = _leaves(build_parser())
    assert {"preview", "results", "results add", "stack up", "stack workers", "pull-results"} <= set(leaves)
    for path, parser in leaves.items():
        verb = parser.get_default("verb")
        if verb is None:  # a subcommand inherits its command's verb (``stack up``: ``stack``)
            verb = leaves[path.split()[0]].get_default("verb")
        assert isinstance(verb, Verb), path
        assert callable(import_module(f"experiments.cli.{verb.module}").run), path


def test_the_subcommand_runs_its_own_verb_and_a_store_given_before_it_stays() -> None:
    parser = build_parser()
    assert parser.parse_args(["results"]).verb == Verb("results")
    added = parser.parse_args(["results", "--store", "a.sqlite", "add", "h100-1n", "--log", "x"])
    assert added.verb == Verb("results_add") and added.store == Path("a.sqlite")
    assert parser.parse_args(["results", "add", "h100-1n", "--log", "x", "--store", "b.sqlite"]).store == Path(
        "b.sqlite"
    )
    assert "--store" in parser_help(parser, "results", "add")


def parser_help(parser: argparse.ArgumentParser, *path: str) -> str:
    for name in path:
        parser = _subparsers(parser)[name]
    return parser.format_help()


def test_main_runs_the_verb_the_parser_chose(capsys) -> None:
    assert main(["predict", "l40s-2n-pod", "--json"]) == 0
    assert '"samples_per_s"' in capsys.readouterr().out


def test_help_imports_no_verb_and_no_pulumi() -> None:
    probe = (
        "import sys, contextlib, io\n"
        "from experiments.cli.main import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--help'])\n"
        "loaded = sorted(m for m in sys.modules if m == 'pulumi' or m.startswith('pulumi.')\n"
        "                or m.startswith('experiments.cli.') and m.rsplit('.', 1)[1] not in\n"
        "                ('main', 'parser', 'arguments'))\n"
        "print(loaded)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=PROJECT_ROOT, check=True)
    assert done.stdout.strip() == "[]", done.stdout


_PULUMI_PROBE = (
    "import sys, contextlib, io, json\n"
    "from experiments.cli.main import main\n"
    "for argv in json.loads(sys.argv[1]):\n"
    "    out = io.StringIO()\n"
    "    with contextlib.redirect_stdout(out):\n"
    "        code = main(argv)\n"
    "    loaded = sorted({m.split('.')[0] for m in sys.modules if m.startswith('pulumi')})\n"
    "    print(json.dumps([code, loaded, out.getvalue()]))\n"
)
"""Runs each verb in turn in one interpreter and prints, after each, its exit code, the Pulumi packages loaded
so far and what it printed: an empty list after the last verb means none of them loaded any."""


@pytest.mark.slow
def test_calibrate_report_and_results_plan_offline_without_pulumi(tmp_path: Path) -> None:
    """They read stack files, which are planned against a simulated cluster through
    ``components.checks.discovery``: that must not drag the Pulumi SDK or a provider in (only
    ``results add``, which renders the stack for its fingerprint, does)."""
    ResultsStore(tmp_path / "none.sqlite")  # an empty store: one the user names must exist (issue 37)
    verbs = {
        "calibrate": ["calibrate", "--json"],
        "report": ["report", "--out", str(tmp_path / "report"), "--store", str(tmp_path / "none.sqlite")],
        "results": ["results", "--json", "--store", str(tmp_path / "none.sqlite")],
    }
    done = subprocess.run(
        [sys.executable, "-c", _PULUMI_PROBE, json.dumps(list(verbs.values()))],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        check=True,
    )
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
