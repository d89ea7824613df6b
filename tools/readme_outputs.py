"""Regenerate (--write) or verify (--check) the command outputs shown in README.md and docs/*.md.

Every fenced block that shows what a command prints is preceded by a marker naming how it is made:

    <!-- output: python -m experiments predict h100-2n-vnic -->
    <!-- output: python -m experiments preview dev; keep 1..4,-2..-1 -->
    <!-- output: $ python -m experiments results add ... && $ python -m experiments results; in results -->

- The commands (separated by `` && ``) run offline, one after the other, in a fresh temporary
  directory (the project importable, the results store inside that directory), stdout and stderr
  together; a ``$ `` before a command also shows the command line in the block.
- ``; keep A..B,C..D`` shows only those lines, with ``...`` where lines were left out; a bound is a
  line number (1-based, inclusive; negative counts from the end), ``/REGEX/`` (the first line
  matching after the previous item) or, as an end, ``+N`` (see ``excerpt``).
- ``; in NAME`` runs in the directory of that name, shared by every block naming it, in document
  order (a run recorded by one block, listed by the next).
- ``; with SETUP`` prepares the directory first (see ``SETUPS``: bad stack files, a matrix file,
  the tests' Kubernetes API stand-in).

Outputs are made deterministic where the code is not: the stand-in's port, clock times, the
temporary directory. A block that cannot be made here (a live cluster, the Pulumi CLI) is marked
``<!-- illustrative: why -->``, a tree of paths ``<!-- layout: ... -->``. ``tests/test_readme.py``
fails on a fenced block that is not a command listing and has no marker, and on every block that
differs from what the code prints now; then: ``.venv/bin/python tools/readme_outputs.py --write``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

DOCUMENTS = ("README.md", "docs/*.md")
MARKER = re.compile(r"^<!-- (output|illustrative|layout): (.*?) -->\n```[^\n]*\n(.*?)^```\n", re.M | re.S)
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```\n", re.M | re.S)
COMMAND_BLOCKS = {"bash", "sh", "python", "yaml", "json"}
"""Fenced blocks in these languages show what to type or write, not what a command prints."""

PYTHON = sys.executable
LINKED = ("tests", "docs", "workloads", "tools")


@dataclass(frozen=True)
class Block:
    document: Path
    start: int
    end: int
    spec: str
    shown: str
    where: str


@dataclass(frozen=True)
class Spec:
    commands: tuple[tuple[bool, str], ...]
    keep: str | None
    workdir: str | None
    setups: tuple[str, ...]


def parse_spec(text: str) -> Spec:
    command, *clauses = [part.strip() for part in text.split("; ")]
    commands = tuple((c.startswith("$ "), c.removeprefix("$ ").strip()) for c in command.split(" && "))
    keep = workdir = None
    setups: list[str] = []
    for clause in clauses:
        word, _, value = clause.partition(" ")
        if word == "keep":
            keep = value
        elif word == "in":
            workdir = value
        elif word == "with":
            setups.append(value)
        else:
            raise SystemExit(f"error: unknown clause {clause!r} in marker {text!r}")
    return Spec(commands, keep, workdir, tuple(setups))


def _line_index(lines: list[str], bound: str, cursor: int, start: int | None) -> int:
    if bound.startswith("/") and bound.endswith("/") and len(bound) > 1:
        pattern = re.compile(bound[1:-1])
        for i in range(cursor, len(lines)):
            if pattern.search(lines[i]):
                return i
        raise BlockError(f"no line matches {bound} (after line {cursor})")
    if bound.startswith("+") and start is not None:
        return start + int(bound)
    number = int(bound)
    return number - 1 if number > 0 else len(lines) + number


class BlockError(Exception):
    """A block that cannot be made as its marker says (a keep rule that no longer fits, a traceback):
    it has to be looked at, never rewritten blindly."""


def excerpt(lines: list[str], keep: str | None) -> list[str]:
    """The lines a ``keep`` rule selects (see the module's doc); a gap shows as ``...``."""
    if keep is None:
        return lines
    chosen: list[int] = []
    for part in keep.split(","):
        first, _, last = part.strip().partition("..")
        cursor = chosen[-1] + 1 if chosen else 0
        a = _line_index(lines, first, cursor, None)
        b = _line_index(lines, last or first, a, a)
        chosen.extend(i for i in range(a, b + 1) if 0 <= i < len(lines) and i not in chosen)
    shown: list[str] = []
    for index, i in enumerate(chosen):
        if (index == 0 and i > 0) or (index > 0 and i != chosen[index - 1] + 1):
            shown.append("...")
        shown.append(lines[i])
    if chosen and chosen[-1] < len(lines) - 1:
        shown.append("...")
    return shown


# ---- setups: what a block's directory holds before its commands run ----------------------------


def _bad_stacks(directory: Path, env: dict[str, str]) -> Iterator[None]:
    base = "config:\n  gpu-cluster:cluster:\n    zone: us-east-3\n    layers: cloud\n"
    (directory / "Pulumi.bad.yaml").write_text(
        base + "    nodes: {profile: gx3-48x240x2l40s, count: 2}\n    network: {variant: sriov, nics_per_node: 1}\n"
    )
    (directory / "Pulumi.dot.yaml").write_text(
        base + "    nodes: {profile: gx3-48x240x2l40s, count: 2}\n    nodes.profile: gx3-48x240x2l40s\n"
        "    network: {variant: pod, nics_per_node: 0}\n"
    )
    (directory / "Pulumi.typo.yaml").write_text(
        base + "    nodes: {profile: gx3-48x240x2l40s, count: 2}\n    network: {variant: vnic, nics_per_nod: 2}\n"
    )
    yield


def _sweep_matrix(directory: Path, env: dict[str, str]) -> Iterator[None]:
    (directory / "sweep.yaml").write_text((ROOT / "sweep.yaml").read_text())  # the shipped example
    yield


def _kube_standin(directory: Path, env: dict[str, str]) -> Iterator[None]:
    # Found by name, so the stand-in can move with the tests; imported as the tests import it.
    (path,) = ROOT.glob("tests/**/kube_standin.py")
    sys.path.insert(0, str(ROOT))
    standin_module = importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
    Cluster, StandIn = standin_module.Cluster, standin_module.StandIn
    fixtures = ROOT / "tests" / "fixtures"
    # The one-GPU proof's log, relabelled to the h100-2n-sriov job's 16 GPUs (as the run tests do).
    proof = (fixtures / "runs" / "h100-1n-main_ds-proof.log").read_text()
    cluster = Cluster(
        master_log=proof.replace("num_gpus=1", "num_gpus=16").replace("nRanks 1 ", "nRanks 16 "),
        worker_log=(fixtures / "nccl-logs" / "2xH200-socket.log").read_text(),
    )
    with StandIn(cluster) as standin:
        (directory / "standin.kubeconfig").write_text(standin.kubeconfig(directory).read_text())
        (directory / "kubeconfig").unlink()
        env["STANDIN_URL"] = standin.url
        yield


SETUPS: dict[str, Callable[[Path, dict[str, str]], Iterator[None]]] = {
    "bad-stacks": _bad_stacks,
    "sweep-matrix": _sweep_matrix,
    "kube-standin": _kube_standin,
}


def normalise(text: str, directory: Path, env: dict[str, str]) -> str:
    text = text.replace(str(directory) + "/", "").replace(str(directory), ".")
    if "STANDIN_URL" in env:
        text = text.replace(env["STANDIN_URL"], "http://127.0.0.1:8001")
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", "2026-11-25T12:00:00+00:00", text)
    text = re.sub(r"\b\d{8}T\d{6}Z\b", "20261125T120000Z", text)
    text = re.sub(r"succeeded after \d+ s", "succeeded after 1 s", text)
    return "\n".join(line.rstrip() for line in text.split("\n"))


def _environment(directory: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GPU_CLUSTER_", "PULUMI_", "KUBECONFIG"))}
    return env | {
        "PYTHONPATH": str(ROOT),
        "GPU_CLUSTER_RESULTS": str(directory / "results.sqlite"),
        "HOME": str(directory),
        "NO_COLOR": "1",
        "TERM": "dumb",
        "TZ": "UTC",
        # Outside a git work tree the results show no commit: the block stays the same on every commit.
        "GIT_DIR": str(directory / "no-git"),
        "GIT_CEILING_DIRECTORIES": str(directory),
    }


def produce(spec: Spec, directory: Path) -> str:
    env = _environment(directory)
    shown: list[str] = []
    with ExitStack() as stack:
        for name in spec.setups:
            if name not in SETUPS:
                raise SystemExit(f"error: unknown setup {name!r} (known: {', '.join(SETUPS)})")
            stack.enter_context(contextmanager(SETUPS[name])(directory, env))
        for prompt, command in spec.commands:
            argv = shlex.split(command)
            if argv[:1] == ["gpu-cluster"]:  # the console command: the same CLI as `python -m experiments`
                argv = ["python", "-m", "experiments", *argv[1:]]
            if argv[:1] != ["python"]:
                raise SystemExit(f"error: only python commands are produced here, not {command!r}")
            done = subprocess.run(
                [PYTHON, *argv[1:]], cwd=directory, env=env, capture_output=True, text=True, timeout=300
            )
            output = normalise(done.stdout + done.stderr, directory, env)
            if "Traceback (most recent call last)" in output:
                raise BlockError(f"`{command}` crashed:\n{output}")
            lines = output.rstrip("\n").split("\n") if output.strip() else []
            shown += ([f"$ {command}"] if prompt else []) + lines
    return "\n".join(excerpt(shown, spec.keep)) + "\n"


def _line(text: str, offset: int, document: Path, root: Path) -> str:
    return f"{document.relative_to(root)}:{text[:offset].count(chr(10)) + 1}"


def blocks(document: Path, root: Path = ROOT) -> list[Block]:
    text = document.read_text()
    return [
        Block(document, m.start(3), m.end(3), m.group(2), m.group(3), _line(text, m.start(3) - 1, document, root))
        for m in MARKER.finditer(text)
        if m.group(1) == "output"
    ]


def unmarked_blocks(document: Path, root: Path = ROOT) -> list[str]:
    """Fenced blocks that neither show a command listing nor carry a marker: where a stale output hides."""
    text = document.read_text()
    marked = {m.start(0) + text[m.start(0) :].index("```") for m in MARKER.finditer(text)}
    return [
        _line(text, m.start(0), document, root)
        for m in FENCE.finditer(text)
        if m.group(1).strip() not in COMMAND_BLOCKS and m.start(0) not in marked
    ]


def documents() -> list[Path]:
    return [path for pattern in DOCUMENTS for path in sorted(ROOT.glob(pattern))]


def generate(selected: list[Block]) -> dict[Block, str | BlockError]:
    """Each block's output; blocks sharing a directory run in document order, the rest side by side."""
    groups: dict[str, list[Block]] = {}
    for index, block in enumerate(selected):
        groups.setdefault(parse_spec(block.spec).workdir or f"block-{index}", []).append(block)
    produced: dict[Block, str | BlockError] = {}
    with tempfile.TemporaryDirectory(prefix="readme-outputs-") as scratch:

        def run_group(name: str, members: list[Block]) -> None:
            directory = Path(scratch, name).resolve()
            directory.mkdir()
            for linked in LINKED:  # fixtures and scripts by their documented relative paths
                (directory / linked).symlink_to(ROOT / linked)
            for block in members:
                try:
                    produced[block] = produce(parse_spec(block.spec), directory)
                except BlockError as error:
                    produced[block] = error

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            for future in [pool.submit(run_group, name, members) for name, members in groups.items()]:
                future.result()
    return produced


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="rewrite every marked block with the command's output")
    mode.add_argument("--check", action="store_true", help="exit 1 listing every block that differs")
    args = parser.parse_args(argv)
    all_blocks = [block for document in documents() for block in blocks(document)]
    produced = generate(all_blocks)
    broken = [block for block in all_blocks if isinstance(produced[block], BlockError)]
    for block in broken:
        print(f"{block.where}: {produced[block]}\n(left as it was: fix the code or the marker)", file=sys.stderr)
    stale = [block for block in all_blocks if produced[block] != block.shown and block not in broken]
    if args.check:
        for block in stale:
            print(f"{block.where}: differs from `{block.spec}`", file=sys.stderr)
        unmarked = [where for document in documents() for where in unmarked_blocks(document)]
        for where in unmarked:
            print(
                f"{where}: fenced output without a marker (<!-- output: ... --> or <!-- illustrative: ... -->)",
                file=sys.stderr,
            )
        if stale or unmarked or broken:
            print("run: .venv/bin/python tools/readme_outputs.py --write", file=sys.stderr)
            return 1
        print(f"{len(all_blocks)} output blocks up to date")
        return 0
    for document in documents():
        text = document.read_text()
        for block in sorted((b for b in stale if b.document == document), key=lambda b: -b.start):
            text = text[: block.start] + str(produced[block]) + text[block.end :]
        document.write_text(text)
    for block in stale:
        print(f"rewrote {block.where}")
    print(f"{len(all_blocks)} output blocks, {len(stale)} rewritten")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
