"""The timing rule of the test suite (issue 38), kept by reading every ``tests/**/*.py``: a wall-clock assertion
has a bound of at least ``FLOOR_S`` seconds, ``FACTOR`` times the deadline it checks and ``FLOOR_S`` more than
it, unless a named exception says why.  A check tight to the time it expects fails on a loaded machine, and
a flaky CI run costs a landing.

What counts as a wall-clock assertion (the patterns this suite uses):

* an ``assert`` whose comparison has a clock reading on its lower side: ``time.monotonic() - start < 6``,
  ``elapsed < 8`` (``elapsed`` assigned from a clock reading), ``1.0 <= clock() - t0 < 4`` (the upper side);
* the same inside a helper whose bound is one of its parameters (``bounded(seconds)``'s timer): then every
  call of the helper in the module is held to the rule with the value it passes (``bounded(3)``);
* ``assert event.wait(N)`` / ``thread.join(N)``-style waits inside an assert, and a subprocess ``timeout=N``
  (``subprocess.run``, ``.communicate``, ``.wait``): both fail the test when the time runs out.

A bound is accepted when it is ``tests.timing.hang_bound(deadline)`` (its guarantee is tested below), or a
number at least ``FLOOR_S``, and, where the test names a deadline (``--timeout N``, ``timeout=N``,
``*deadline*=N``, ``deadline_alarm(N)``), at least ``FACTOR`` times and ``FLOOR_S`` more than the largest.
Anything else (a bound read from a variable, from the clock itself) is refused: it cannot be read.

Named exceptions: an entry of ``EXCEPTIONS`` (``"tests/path.py::function": "reason"``), or the comment
``# hang-bound-exception: <reason>`` on the assertion's line.  Neither is used today."""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.timing import HANG_FACTOR, HANG_FLOOR_S, hang_bound

from .conftest import PROJECT_ROOT

FLOOR_S = 10.0
FACTOR = 5
CLOCKS = frozenset({"monotonic", "monotonic_ns", "time", "time_ns", "perf_counter", "perf_counter_ns"})
DEADLINE_FLAGS = frozenset({"--timeout"})
MARKER = "hang-bound-exception:"
WAITS = frozenset({"wait", "join", "wait_for"})
SUBPROCESS_CALLS = frozenset({"run", "call", "check_call", "check_output"})
SUBPROCESS_METHODS = frozenset({"communicate", "wait"})

ARITHMETIC: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}

EXCEPTIONS: dict[str, str] = {}
"""``"tests/path.py::function"`` -> why its wall-clock assertion may stay under the rule's bound."""


@dataclass(frozen=True)
class Refusal:
    path: str
    line: int
    why: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.why}"


def _number(node: ast.AST) -> float | None:
    """The value of a constant arithmetic expression (``3``, ``3 + 10``, ``"3"``), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return float(node.value)
        except ValueError:
            return None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _number(node.operand)
        return None if value is None else -value
    if isinstance(node, ast.BinOp) and type(node.op) in ARITHMETIC:
        left, right = _number(node.left), _number(node.right)
        if left is None or right is None or (isinstance(node.op, ast.Div) and right == 0):
            return None
        return ARITHMETIC[type(node.op)](left, right)
    return None


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _key(node: ast.AST) -> str | None:
    """``start`` or ``self.start``: what an assignment names and an expression reads."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


class _Module:
    """One test module: its clock readings, its helpers whose bound is a parameter, its refusals."""

    def __init__(self, source: str, path: str) -> None:
        self.path, self.lines = path, source.splitlines()
        self.tree = ast.parse(source)
        self.nodes = list(ast.walk(self.tree))
        self.parents: dict[ast.AST, ast.AST] = {}
        for parent in self.nodes:
            for child in ast.iter_child_nodes(parent):
                self.parents[child] = parent
        self.clock_aliases = {"time." + name for name in CLOCKS}
        self.hang_bound_names = {"hang_bound"} if path == "tests/timing.py" else set()
        for node in self.nodes:
            if isinstance(node, ast.ImportFrom) and node.module == "time":
                self.clock_aliases |= {a.asname or a.name for a in node.names if a.name in CLOCKS}
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("timing"):
                self.hang_bound_names |= {a.asname or a.name for a in node.names if a.name == "hang_bound"}
        self.clocked = self._clocked_names()
        self.refusals: list[Refusal] = []

    # -- reading the source -------------------------------------------------------------------------------

    def _is_clock(self, node: ast.AST) -> bool:
        if not isinstance(node, ast.Call):
            return False
        func = node.func
        if isinstance(func, ast.Name):
            return func.id in self.clock_aliases
        return (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and f"{func.value.id}.{func.attr}" in self.clock_aliases
        )

    def _reads_clock(self, node: ast.AST, clocked: set[str] | None = None) -> bool:
        names = self.clocked if clocked is None else clocked
        return any(self._is_clock(n) or _key(n) in names for n in ast.walk(node))

    def _clocked_names(self) -> set[str]:
        """Names (and ``self.x`` attributes) assigned from a clock reading, directly or through another."""
        clocked: set[str] = set()
        assignments = [
            (target, node.value)
            for node in self.nodes
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        ]
        for _ in range(3):  # start -> elapsed -> a name built from elapsed
            for target, value in assignments:
                key = _key(target)
                if key is not None and self._reads_clock(value, clocked):
                    clocked.add(key)
        return clocked

    def _functions_around(self, node: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
        """The functions that enclose ``node``, innermost first."""
        around = []
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                around.append(node)
        return around

    def _deadlines(self, node: ast.AST) -> list[float]:
        """The deadlines the test around ``node`` names: ``--timeout N``, ``timeout=N``, ``deadline_alarm(N)``."""
        around = self._functions_around(node)
        scope: ast.AST = around[-1] if around else self.tree
        found: list[float] = []
        for n in ast.walk(scope):
            if isinstance(n, ast.Call) and not self._is_test_bound(n):
                for keyword in n.keywords:
                    if keyword.arg and re.search("timeout|deadline", keyword.arg):
                        found += [v for v in [_number(keyword.value)] if v is not None]
                if re.search("timeout|deadline", _call_name(n)):
                    found += [v for v in map(_number, n.args) if v is not None]
            elements = n.args if isinstance(n, ast.Call) else n.elts if isinstance(n, ast.List | ast.Tuple) else []
            for flag, value in zip(elements, elements[1:], strict=False):
                if isinstance(flag, ast.Constant) and flag.value in DEADLINE_FLAGS:
                    found += [v for v in [_number(value)] if v is not None]
        return found

    def _excepted(self, node: ast.AST) -> str | None:
        """Why ``node`` may break the rule (its marker's or ``EXCEPTIONS``' reason); "" for a marker with none."""
        for line in self.lines[node.lineno - 1 : (node.end_lineno or node.lineno)]:
            if MARKER in line:
                return line.split(MARKER, 1)[1].strip()
        around = self._functions_around(node)
        if around:
            return EXCEPTIONS.get(f"{self.path}::{around[-1].name}")
        return None

    # -- the rule -------------------------------------------------------------------------------------------

    def _refuse(self, node: ast.AST, why: str) -> None:
        reason = self._excepted(node)
        if reason == "":
            self.refusals.append(Refusal(self.path, node.lineno, f"{MARKER} gives no reason"))
        elif reason is None:
            self.refusals.append(Refusal(self.path, node.lineno, why))

    def _hold_number(self, node: ast.AST, bound: float, where: ast.AST) -> None:
        deadline = max(self._deadlines(where), default=0.0)
        need = max(FLOOR_S, FACTOR * deadline, deadline + FLOOR_S)
        if bound < need:
            of = f" for a deadline of {deadline:g} s" if deadline else ""
            self._refuse(node, f"wall-clock bound {bound:g} s{of}: at least {need:g} s, or tests.timing.hang_bound")

    def _hold(self, bound: ast.AST, at: ast.AST, helpers: frozenset[str] = frozenset()) -> None:
        """Hold the bound expression ``bound`` of the assertion (or helper call) ``at`` to the rule."""
        if isinstance(bound, ast.Call) and _call_name(bound) in self.hang_bound_names:
            return
        value = _number(bound)
        if value is not None:
            self._hold_number(at, value, at)
            return
        if isinstance(bound, ast.Name):
            for function in self._functions_around(at):
                params = [a.arg for a in function.args.posonlyargs + function.args.args + function.args.kwonlyargs]
                if bound.id in params and function.name not in helpers:
                    self._hold_calls(function.name, params.index(bound.id), bound.id, helpers | {function.name})
                    return
        shown = ast.unparse(bound)
        self._refuse(at, f"wall-clock bound {shown!r} cannot be read: a number, or tests.timing.hang_bound")

    def _hold_calls(self, helper: str, index: int, param: str, helpers: frozenset[str]) -> None:
        """Every call of ``helper``, whose bound is its parameter ``param``, with the value it passes (a helper
        passing its own parameter on is followed to its callers in turn)."""
        for call in self.nodes:
            if isinstance(call, ast.Call) and _call_name(call) == helper:
                passed = [k.value for k in call.keywords if k.arg == param] or call.args[index : index + 1]
                for value in passed:
                    self._hold(value, call, helpers)

    def _is_test_bound(self, call: ast.Call) -> bool:
        """A call whose timeout is the test's own bound (a subprocess's, a wait's), not a deadline it checks."""
        func = call.func
        if not isinstance(func, ast.Attribute):
            return False
        if isinstance(func.value, ast.Name) and func.value.id == "subprocess":
            return func.attr in SUBPROCESS_CALLS
        return func.attr in SUBPROCESS_METHODS | WAITS

    def check(self) -> list[Refusal]:
        for node in self.nodes:
            if isinstance(node, ast.Assert):
                self._check_assert(node)
            elif isinstance(node, ast.Call):
                self._check_subprocess(node)
        return sorted(set(self.refusals), key=lambda r: (r.line, r.why))

    def _check_assert(self, node: ast.Assert) -> None:
        for compare in (n for n in ast.walk(node.test) if isinstance(n, ast.Compare)):
            sides = [compare.left, *compare.comparators]
            for left, op, right in zip(sides, compare.ops, sides[1:], strict=False):
                if isinstance(op, ast.Lt | ast.LtE) and self._reads_clock(left):
                    bound = right
                elif isinstance(op, ast.Gt | ast.GtE) and self._reads_clock(right):
                    bound = left
                else:
                    continue
                if self._reads_clock(bound):
                    self._refuse(node, f"wall-clock bound {ast.unparse(bound)!r} is read from the clock")
                else:
                    self._hold(bound, node)
        for call in (n for n in ast.walk(node.test) if isinstance(n, ast.Call) and _call_name(n) in WAITS):
            waited = [k.value for k in call.keywords if k.arg == "timeout"] + call.args[:1]
            for value in waited:
                seconds = _number(value)
                if seconds is not None and seconds < FLOOR_S:  # the wait is the hang check: the floor holds it
                    self._refuse(node, f"wall-clock bound {seconds:g} s: at least {FLOOR_S:g} s")

    def _check_subprocess(self, call: ast.Call) -> None:
        if not self._is_test_bound(call) or _call_name(call) in WAITS - SUBPROCESS_METHODS:
            return
        for keyword in call.keywords:
            seconds = _number(keyword.value) if keyword.arg == "timeout" else None
            if seconds is not None and seconds < FLOOR_S:
                self._refuse(call, f"subprocess timeout {seconds:g} s: at least {FLOOR_S:g} s")


TRIGGERS = re.compile(r"monotonic|perf_counter|time\(|time_ns|timeout|\.wait|\.join\(")
"""Every refusal needs one of these words in the source: a module with none is not parsed."""


def refusals(source: str, path: str = "snippet.py") -> list[Refusal]:
    return _Module(source, path).check() if TRIGGERS.search(source) else []


def _test_files() -> list[Path]:
    return sorted(p for p in (PROJECT_ROOT / "tests").rglob("*.py") if "fixtures" not in p.parts)


def test_no_wall_clock_assertion_in_the_suite_sits_near_the_time_it_expects() -> None:
    found = [str(r) for path in _test_files() for r in refusals(path.read_text(), str(path.relative_to(PROJECT_ROOT)))]
    assert found == []


def test_every_named_exception_still_names_a_test_and_a_reason() -> None:
    for where, reason in EXCEPTIONS.items():
        path, function = where.split("::")
        assert reason.strip(), where
        assert f"def {function}(" in (PROJECT_ROOT / path).read_text(), where


@pytest.mark.parametrize("deadline", [0.05, 1, 1.5, 2, 3, 8, 60, 600])
def test_hang_bound_is_far_above_its_deadline(deadline: float) -> None:
    bound = hang_bound(deadline)
    assert bound >= FLOOR_S and bound >= FACTOR * deadline and bound >= deadline + FLOOR_S
    assert bound >= HANG_FACTOR * deadline and bound >= deadline + HANG_FLOOR_S  # the 10x, 10 s more


# -- the rule, fed snippets -------------------------------------------------------------------------------------

TODAYS_BOUNDED = """
import time
from typing import Any

import pytest


def bounded(seconds: float) -> Any:
    class Timer:
        def __enter__(self) -> None:
            self.start = time.monotonic()

        def __exit__(self, *exc: object) -> None:
            assert time.monotonic() - self.start < seconds

    return Timer()


def test_kube_refuses_what_is_not_a_node(serve, answer, says) -> None:
    server = serve(**{"/api/v1/nodes": [answer]})
    with bounded(3), pytest.raises(OperationFailed, match=says):
        server.kube(ONE_TRY).node("w-1")
"""


def _whys(source: str) -> list[tuple[int, str]]:
    return [(r.line, r.why) for r in refusals(source)]


def test_the_rule_refuses_todays_bounded_3() -> None:
    assert _whys(TODAYS_BOUNDED) == [(21, "wall-clock bound 3 s: at least 10 s, or tests.timing.hang_bound")]
    assert _whys(TODAYS_BOUNDED.replace("bounded(3)", "bounded(seconds=12)")) == []
    assert _whys(TODAYS_BOUNDED.replace("bounded(3)", "bounded(ONE_TRY.call_deadline_s)")) == [
        (21, "wall-clock bound 'ONE_TRY.call_deadline_s' cannot be read: a number, or tests.timing.hang_bound")
    ]
    passed_on = TODAYS_BOUNDED + "\n\ndef ends(seconds):\n    return bounded(seconds)\n\n\nends(4)\n"
    assert _whys(passed_on) == [
        (21, "wall-clock bound 3 s: at least 10 s, or tests.timing.hang_bound"),
        (29, "wall-clock bound 4 s: at least 10 s, or tests.timing.hang_bound"),
    ]


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("t0 = time.monotonic()\nwork()\nassert time.monotonic() - t0 < 3", "wall-clock bound 3 s"),
        (
            'start = time.monotonic()\ncode = run("--timeout", "3")\nelapsed = time.monotonic() - start\n'
            "assert code == 2 and elapsed < 8, (elapsed, err)",
            "wall-clock bound 8 s for a deadline of 3 s: at least 15 s",
        ),
        ("start = time.perf_counter()\nwait()\nassert 1.0 <= time.perf_counter() - start < 4", "wall-clock bound 4 s"),
        ("s = time.time()\nwait()\nassert 8 > time.time() - s", "wall-clock bound 8 s"),
        (
            'started = time.monotonic()\nmain(["x", "--timeout", "5"])\nassert time.monotonic() - started < 20',
            "wall-clock bound 20 s for a deadline of 5 s: at least 25 s",
        ),
        (
            "start = time.monotonic()\nwith deadline_alarm(2.0):\n    connect(timeout=2.0)\n"
            "assert time.monotonic() - start < 3 + 8",
            "wall-clock bound 11 s for a deadline of 2 s: at least 12 s",
        ),
        ("start = clock()\nwork()\nassert clock() - start < 2", "wall-clock bound 2 s"),
        ("limit = time.monotonic() + 30\nwork()\nassert time.monotonic() < limit", "is read from the clock"),
        ("start = time.monotonic()\nwork()\nassert time.monotonic() - start < LIMIT", "'LIMIT' cannot be read"),
        ("assert done.wait(2)", "wall-clock bound 2 s"),
        ("assert thread.join(timeout=5) is None", "wall-clock bound 5 s"),
        ('subprocess.run(["make"], timeout=5, check=False)', "subprocess timeout 5 s"),
        ("proc.communicate(timeout=3)", "subprocess timeout 3 s"),
        ("start = time.monotonic()\nwork()\nassert time.monotonic() - start < 3  # hang-bound-exception:", "no reason"),
        ("start = time.monotonic()\nwork()\nassert time.monotonic() - start < hang_bound(3)", "cannot be read"),
    ],
)
def test_the_rule_refuses(body: str, why: str) -> None:
    source = "import subprocess\nimport time\nfrom time import perf_counter as clock\n\n\ndef test_x():\n"
    source += "\n".join("    " + line for line in body.splitlines()) + "\n"
    (refusal,) = refusals(source)
    assert why in refusal.why, refusal


@pytest.mark.parametrize(
    "body",
    [
        'start = time.monotonic()\nmain(["--timeout", "3"])\nassert time.monotonic() - start < hang_bound(3)',
        "start = time.monotonic()\nwork()\nelapsed = time.monotonic() - start\nassert 1.0 <= elapsed",  # a floor
        "start = time.monotonic()\nwork()\nassert time.monotonic() - start < 10",
        'start = time.monotonic()\nmain(["--timeout", "2"])\nassert time.monotonic() - start < 12 + 8',
        "start = time.monotonic()\nwork()\nassert time.monotonic() - start < 3  # hang-bound-exception: a benchmark",
        "deadline = time.monotonic() + 30\nwhile time.monotonic() < deadline:\n    time.sleep(0.01)",  # no assert
        "assert done.wait(30)",
        "s = time.time()\nwait()\nassert 12 > time.time() - s",  # no deadline named: the floor holds it
        'subprocess.run(["make"], timeout=60, check=False)',
        "assert len(rows) < 3 and time.monotonic() > 0",  # a clock read, no bound: the clock is the larger side
    ],
)
def test_the_rule_allows(body: str) -> None:
    source = "import subprocess\nimport time\n\nfrom tests.timing import hang_bound\n\n\ndef test_x():\n"
    source += "\n".join("    " + line for line in body.splitlines()) + "\n"
    assert refusals(source) == []


def test_a_named_exception_lets_a_test_keep_its_bound(monkeypatch) -> None:
    source = "import time\n\n\ndef test_x():\n    s = time.monotonic()\n    assert time.monotonic() - s < 1\n"
    assert len(refusals(source, "tests/t.py")) == 1
    monkeypatch.setitem(EXCEPTIONS, "tests/t.py::test_x", "measures a cached path, not a deadline")
    assert refusals(source, "tests/t.py") == []
