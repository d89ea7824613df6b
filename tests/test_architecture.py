"""The architecture the code claims: one-way imports and small modules."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .conftest import PROJECT_ROOT

PACKAGES = ("components", "experiments")


def _modules(packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    found = {}
    for package in packages:
        for path in sorted((PROJECT_ROOT / package).rglob("*.py")):
            parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Project modules ``name`` imports anywhere in its body (lazy imports inside functions too:
    they are how a cycle hides)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets.add(base)
            targets.update(f"{base}.{alias.name}" for alias in node.names)
    return {t for t in targets if t in known and t != name}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, set(modules)) for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            # A package's __init__ re-exporting its own modules is not a cycle through them.
            if nxt.startswith(node + ".") or node.startswith(nxt + "."):
                continue
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_cycle() -> None:
    assert _cycle(_graph()) is None


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


LAYERS = (
    "components.compat",
    "components.models",
    "components.plan",
    "components.checks",
    "components.manifests",
    "components.ops",
    "components.ibm",
    "components.k8s",
    "components.config_source",
    "components.program",
    "components.package",
    "experiments.base",
    "experiments.throughput",
    "experiments.offline",
    "experiments.stacks",
    "experiments.state",
    "experiments.results",
    "experiments.live",
    "experiments.sweep",
    "experiments.incluster",
    "experiments.cli",
)
"""The one-way flow: a module imports only from its own layer or the layers before it. ``experiments``
reads as a stack travels: shared basics, the throughput model, the offline engine, stack files, the
desired state they render, measured results, the live cluster, sweeps, in-cluster runs, the verbs."""


def _layer(module: str) -> int | None:
    return next((i for i, layer in enumerate(LAYERS) if module == layer or module.startswith(layer + ".")), None)


def test_experiments_top_level_holds_only_the_entry_modules() -> None:
    top = sorted(
        p.name
        for p in (PROJECT_ROOT / "experiments").iterdir()
        if p.is_file() or (p.is_dir() and not p.name.startswith("__"))
    )
    packages = sorted(layer.split(".", 1)[1] for layer in LAYERS if layer.startswith("experiments."))
    assert top == sorted(["__init__.py", "__main__.py", *packages])


def test_every_experiments_module_has_a_layer() -> None:
    unlayered = [name for name in _modules(("experiments",)) if name.count(".") > 1 and _layer(name) is None]
    assert unlayered == []


def test_the_flow_points_one_way() -> None:
    upward = []
    for name, targets in _graph().items():
        assert not (name.startswith("components") and any(t.startswith("experiments") for t in targets)), name
        mine = _layer(name)
        for target in targets:
            theirs = _layer(target)
            if mine is not None and theirs is not None and theirs > mine:
                upward.append(f"{name} -> {target}")
    assert upward == []


MODULE_BUDGET = {"components": 300, "experiments": 300, "workloads": 300, "policies": 300, "tools": 350}
"""Lines a module of each folder may have once ``ruff format``ted (line length 120): a module past it holds
more than one concept.  Tools are scripts read top to bottom, hence a little more."""
OVER_BUDGET = {
    "components/program.py": (
        350,
        "the one program function (load, then build) that __main__, the tests, the "
        "offline preview and the Automation API share",
    ),
    "components/compat.py": (
        340,
        "every workaround the Pulumi SDK forces on us, each with its upstream reference: one place, by house rule",
    ),
    "components/checks/crosscheck.py": (350, "the rules that read two config sections at once: one checklist"),
    "experiments/live/csr_rules.py": (320, "what makes a node's certificate request approvable: one security review"),
    "experiments/cli/parser.py": (460, "every verb's arguments in one parser, read top to bottom as --help reads"),
    "experiments/results/store.py": (
        380,
        "the results store: its file's schema and header checks, and the one way rows go in and out",
    ),
}
"""Modules allowed past their folder's budget, up to a ceiling, and why."""


def formatted_line_counts(root: Path, folders: tuple[str, ...]) -> dict[str, int]:
    """Lines of every module under ``folders`` as ``ruff format`` (with the project's settings) writes it: the
    rule holds on the text the formatter leaves, not on packed lines.  One formatter run over a copy."""
    sources = sorted(p for folder in folders for p in (root / folder).rglob("*.py"))
    copy = Path(tmp := tempfile.mkdtemp(prefix="sizes-"))
    try:
        shutil.copy(root / "pyproject.toml", copy / "pyproject.toml")
        for path in sources:
            target = copy / path.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target)
        ruff = Path(sys.executable).with_name("ruff")
        subprocess.run([str(ruff), "format", "--quiet", "."], cwd=copy, check=True)
        return {
            path.relative_to(root).as_posix(): len((copy / path.relative_to(root)).read_text().splitlines())
            for path in sources
        }
    finally:
        shutil.rmtree(tmp)


def size_problems(counts: dict[str, int]) -> list[str]:
    problems = []
    for path, lines in sorted(counts.items()):
        budget = MODULE_BUDGET[path.split("/", 1)[0]]
        ceiling, _ = OVER_BUDGET.get(path, (budget, ""))
        if lines > ceiling:
            problems.append(f"{path}: {lines} lines formatted, over {ceiling}: split it by concept")
        elif path in OVER_BUDGET and lines <= budget:
            problems.append(f"{path}: {lines} lines formatted, within {budget}: drop its OVER_BUDGET entry")
    problems += [f"{path}: in OVER_BUDGET but not a module" for path in sorted(set(OVER_BUDGET) - set(counts))]
    return problems


def test_modules_stay_within_their_folders_budget() -> None:
    assert size_problems(formatted_line_counts(PROJECT_ROOT, tuple(MODULE_BUDGET))) == []


def test_the_size_rule_sees_an_oversized_module_and_a_stale_exception() -> None:
    counts = {"components/a.py": 301, "components/program.py": 300, "tools/b.py": 340, "experiments/gone.py": 1}
    found = size_problems({**counts, **{p: 1 for p in OVER_BUDGET if p != "components/program.py"}})
    assert found == [
        "components/a.py: 301 lines formatted, over 300: split it by concept",
        "components/checks/crosscheck.py: 1 lines formatted, within 300: drop its OVER_BUDGET entry",
        "components/compat.py: 1 lines formatted, within 300: drop its OVER_BUDGET entry",
        "components/program.py: 300 lines formatted, within 300: drop its OVER_BUDGET entry",
        "experiments/cli/parser.py: 1 lines formatted, within 300: drop its OVER_BUDGET entry",
        "experiments/live/csr_rules.py: 1 lines formatted, within 300: drop its OVER_BUDGET entry",
        "experiments/results/store.py: 1 lines formatted, within 300: drop its OVER_BUDGET entry",
    ]


def test_the_line_count_is_of_formatted_text(tmp_path: Path) -> None:
    (tmp_path / "components").mkdir()
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nline-length = 120\n")
    (tmp_path / "components" / "packed.py").write_text("x = {'a': 1, 'b': 2}; y = 3\n")
    assert formatted_line_counts(tmp_path, ("components",)) == {"components/packed.py": 2}


MIRRORED = PACKAGES
"""Test folders laid out as the code: ``tests/<package>/<name>/test_*.py`` tests ``<package>/<name>/`` (a
subpackage) or ``<package>/<name>.py`` (a top-level module such as ``components/program.py``)."""


def _mirror_problems(root: Path) -> list[str]:
    """Test modules under ``root/tests/<package>/`` that name no part of ``root/<package>/``, or sit flat
    in ``tests/<package>/`` itself (only helpers, ``conftest.py`` and ``__init__.py`` may)."""
    problems = []
    for package in MIRRORED:
        tests = root / "tests" / package
        for path in sorted(tests.rglob("test_*.py")):
            parts = path.relative_to(tests).parts
            shown = path.relative_to(root).as_posix()
            if len(parts) == 1:
                problems.append(f"{shown}: flat in tests/{package}/, move it to tests/{package}/<subpackage>/")
            elif not (
                (root / package / parts[0] / "__init__.py").is_file() or (root / package / f"{parts[0]}.py").is_file()
            ):
                problems.append(f"{shown}: {package}/{parts[0]} is neither a subpackage nor a module")
    return problems


def test_the_tests_mirror_the_code() -> None:
    assert _mirror_problems(PROJECT_ROOT) == []


def test_the_mirror_check_sees_a_flat_test_and_a_folder_without_code(tmp_path: Path) -> None:
    for path in (
        "components/plan/__init__.py",
        "components/program.py",
        "tests/components/conftest.py",
        "tests/components/plan/test_a.py",
        "tests/components/program/test_b.py",
        "tests/components/test_flat.py",
        "tests/components/gone/test_c.py",
    ):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).touch()
    (tmp_path / "experiments").mkdir()
    assert _mirror_problems(tmp_path) == [
        "tests/components/gone/test_c.py: components/gone is neither a subpackage nor a module",
        "tests/components/test_flat.py: flat in tests/components/, move it to tests/components/<subpackage>/",
    ]


def test_every_test_folder_is_a_package() -> None:
    """Tests import their helpers relatively (``from ...conftest import``): a folder without
    ``__init__.py`` would make those imports, and same-named modules in two folders, fail."""
    folders = {p.parent for p in (PROJECT_ROOT / "tests").rglob("*.py") if "fixtures" not in p.parts}
    assert sorted(f.relative_to(PROJECT_ROOT).as_posix() for f in folders if not (f / "__init__.py").is_file()) == []
