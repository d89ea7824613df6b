"""The README (and docs/*.md) cannot go stale: shown outputs are what the code prints, named paths
exist, documented flags are in their command's parser, and every fenced block says what it is."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest

from experiments.cli.parser import build_parser

from .conftest import PROJECT_ROOT

DOCUMENTS = [PROJECT_ROOT / "README.md", *sorted((PROJECT_ROOT / "docs").glob("*.md"))]
TOOL = PROJECT_ROOT / "tools" / "readme_outputs.py"

PATH_PREFIXES = (
    "components/",
    "docs/",
    "examples/",
    "experiments/",
    "policies/",
    "provider/",
    "schemas/",
    "sdks/",
    "tests/",
    "tools/",
    "workloads/",
)
ROOT_FILES = re.compile(
    r"^(Pulumi\.[^/]*\.yaml|Pulumi\.yaml|Containerfile|Makefile|__main__\.py|pyproject\.toml"
    r"|requirements(-dev)?\.txt|README\.md|sweep\.yaml)$"
)
USER_CREATED = ("out/", ".pulumi-state/", ".gpu-cluster/", "policies/venv", "../")
"""Paths a command or the user creates, never in the repository."""


def _named_paths(text: str) -> set[str]:
    """Repository paths in backticks (each word of a command in backticks too) and in the layout block."""
    words = [w for span in re.findall(r"`([^`\n]+)`", text) for w in span.split()]
    layout = re.search(r"<!-- layout: .*? -->\n```\n(.*?)```", text, re.S)
    if layout:
        words += [
            w
            for line in layout.group(1).splitlines()
            if line[:1].strip()
            for w in re.split(r",\s*", re.split(r"\s{2,}", line)[0])
        ]
    paths = set()
    for word in words:
        word = word.strip("'\"(),;:").removesuffix(".")
        if word.startswith(USER_CREATED) or not (word.startswith(PATH_PREFIXES) or ROOT_FILES.match(word)):
            continue
        paths.add(word)
    return paths


def _exists(path: str) -> bool:
    pattern = re.sub(r"<[^>]*>|\{[^}]*\}|…", "*", path).rstrip("/")
    if pattern.endswith(".*"):  # `experiments/ibm_rules.*`-style families of files
        pattern = pattern[:-2] + "*"
    return any(PROJECT_ROOT.glob(pattern)) if "*" in pattern else (PROJECT_ROOT / pattern).exists()


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_path_a_document_names_exists(document: Path) -> None:
    missing = sorted(p for p in _named_paths(document.read_text()) if not _exists(p))
    assert not missing, f"{document.name} names paths that do not exist: {missing}"


def test_the_path_check_sees_a_stale_path() -> None:
    text = "the model (`experiments/throughput.py`) and `tests/test_policies.py`; run `python tools/update_golden.py`"
    assert _named_paths(text) == {"experiments/throughput.py", "tests/test_policies.py", "tools/update_golden.py"}
    assert [_exists(p) for p in sorted(_named_paths(text))] == [False, False, True]


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps its sub-parsers only here
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _documented_invocations(text: str) -> list[str]:
    """Every `python -m experiments ...` / `gpu-cluster ...` command line, continuation lines joined."""
    text = text.replace("\\\n", " ")
    found = re.findall(r"(python -m experiments|\bgpu-cluster(?= [a-z]))((?: [^`\n]*)?)", text)
    commands = _subcommands(build_parser())
    return [
        re.split(r" # |; | -->", rest)[0]
        for program, rest in found
        if program != "gpu-cluster" or rest.split()[0] in commands
    ]  # not `kubectl -n gpu-cluster ...`


def _flag_problems(invocation: str) -> list[str]:
    """Flags of ``invocation`` its command lacks; ``stack up|destroy`` stands for each of the commands."""
    words = re.sub(r"[\[\]]", " ", invocation).split()
    flags = [w for w in (w.split("=")[0].strip(".,;:)") for w in words) if re.match(r"--[a-z]", w)]
    parsers = [build_parser()]
    for word in words:
        if word.startswith("-"):
            break
        choices = [_subcommands(parser) for parser in parsers]
        deeper = [c[name] for c in choices for name in word.split("|") if name in c]
        if not deeper:
            break
        parsers = deeper
    return [
        f"{parser.prog}: {flag}"
        for parser in parsers
        for flag in flags
        if flag not in {s for action in parser._actions for s in action.option_strings}
    ]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_documented_flag_is_in_its_commands_parser(document: Path) -> None:
    problems = sorted({p for i in _documented_invocations(document.read_text()) for p in _flag_problems(i)})
    assert not problems, f"{document.name} documents flags its commands lack: {problems}"


def test_the_flag_check_sees_a_flag_the_command_lacks() -> None:
    text = (
        "`python -m experiments preview STACK [--json]`, "
        "`python -m experiments stack up|destroy STACK --state-dir D` and "
        "`python -m experiments diff|report --json`"
    )
    assert [p for i in _documented_invocations(text) for p in _flag_problems(i)] == [
        "gpu-cluster preview: --json",
        "gpu-cluster report: --json",
    ]


@pytest.mark.slow
def test_every_shown_output_is_what_the_code_prints() -> None:
    done = subprocess.run([sys.executable, str(TOOL), "--check"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr + done.stdout


def test_the_output_check_fails_on_a_changed_block(tmp_path: Path) -> None:
    sys.path.insert(0, str(TOOL.parent))
    import readme_outputs

    document = tmp_path / "README.md"
    document.write_text("<!-- output: python -c \"print('hello')\" -->\n```\ngoodbye\n```\n\n```\nloose\n```\n")
    (block,) = readme_outputs.blocks(document, root=tmp_path)
    assert readme_outputs.generate([block])[block] == "hello\n" != block.shown
    assert readme_outputs.unmarked_blocks(document, root=tmp_path) == ["README.md:6"]


def test_keep_rules_excerpt_by_line_and_pattern_and_refuse_what_no_longer_fits() -> None:
    sys.path.insert(0, str(TOOL.parent))
    import readme_outputs

    lines = ["head", "a", "b", "table", "row1", "row2", "row3", "tail"]
    assert readme_outputs.excerpt(lines, "1..1,/table/..+1,-1..-1") == ["head", "...", "table", "row1", "...", "tail"]
    assert readme_outputs.excerpt(lines, "/row2/..-2") == ["...", "row2", "row3", "..."]
    with pytest.raises(readme_outputs.BlockError, match="no line matches /gone/"):
        readme_outputs.excerpt(lines, "1..2,/gone/..+1")


def test_a_command_that_crashes_is_never_written_into_a_block(tmp_path: Path) -> None:
    sys.path.insert(0, str(TOOL.parent))
    import readme_outputs

    document = tmp_path / "README.md"
    document.write_text('<!-- output: python -c "1/0" -->\n```\nfine\n```\n')
    (block,) = readme_outputs.blocks(document, root=tmp_path)
    produced = readme_outputs.generate([block])[block]
    assert isinstance(produced, readme_outputs.BlockError) and "ZeroDivisionError" in str(produced)
