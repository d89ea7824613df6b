"""Each stack's desired state against its golden file (logical IDs stay put; see experiments/state/golden.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from experiments.stacks.stackfile import known_stacks
from experiments.state.golden import JSON, LINES, expected, golden_text, readable

from ...conftest import PROJECT_ROOT

REGENERATE = "if intended, run: .venv/bin/python tools/update_golden.py (then review git diff tests/golden)"


def _changed_paths(before: Any, after: Any, path: str = "") -> list[str]:
    """Where two inputs differ, as dotted paths with both values: the failure says what, not only where."""
    if isinstance(before, dict) and isinstance(after, dict):
        return [
            p
            for key in sorted(set(before) | set(after), key=str)
            for p in _changed_paths(before.get(key), after.get(key), f"{path}.{key}".lstrip("."))
        ]
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        return [
            p for i, (b, a) in enumerate(zip(before, after, strict=True)) for p in _changed_paths(b, a, f"{path}[{i}]")
        ]
    return [] if before == after else [f"{path}: {json.dumps(before)[:80]} -> {json.dumps(after)[:80]}"]


@pytest.mark.slow
@pytest.mark.parametrize("stack", known_stacks(PROJECT_ROOT))
def test_stack_matches_its_golden_file(stack: str) -> None:
    golden, actual = expected(stack), json.loads(golden_text(stack))
    missing = sorted(set(golden["resources"]) - set(actual["resources"]))
    assert not missing, f"resources renamed or removed ({REGENERATE}): {missing}"
    added = sorted(set(actual["resources"]) - set(golden["resources"]))
    assert not added, f"resources added ({REGENERATE}): {added}"
    changed = [
        f"{urn.rsplit('::', 1)[-1]} {change}"
        for urn in sorted(golden["resources"])
        for change in _changed_paths(golden["resources"][urn], actual["resources"][urn])
    ]
    explain = f"inputs or dependencies changed ({REGENERATE}; python -m experiments diff explains):\n"
    assert not changed, explain + "\n".join(changed[:40])
    rest = _changed_paths(
        {k: v for k, v in golden.items() if k != "resources"}, {k: v for k, v in actual.items() if k != "resources"}
    )
    assert not rest, f"the document changed outside the resources ({REGENERATE}):\n" + "\n".join(rest[:40])


def test_golden_files_are_text_without_hashes() -> None:
    for path in sorted((PROJECT_ROOT / "tests" / "golden").glob("*.json")):
        assert "sha256" not in path.read_text(), path.name
        assert set(json.loads(path.read_text())) >= {"stack", "resources", "outputs"}, path.name


def test_golden_files_store_scripts_by_name_and_text_by_line() -> None:
    entrypoint = (PROJECT_ROOT / "workloads" / "entrypoint.sh").read_text()
    stored = readable(
        {
            "data": {
                "entrypoint.sh": entrypoint,
                "mapping": "a 1\nb 2",
                "name": "x",
                "config": '{"type": "host-device", "ipam": {}}',
                "brace": "{not json",
            }
        }
    )["data"]
    assert stored["entrypoint.sh"] == "<file workloads/entrypoint.sh>"
    assert stored["mapping"] == {LINES: ["a 1", "b 2"]} and stored["name"] == "x"
    assert stored["config"] == {JSON: {"type": "host-device", "ipam": {}}} and stored["brace"] == "{not json"
    assert readable(entrypoint + " ") != stored["entrypoint.sh"]  # an edited copy is stored, not named


def test_the_golden_failure_names_the_field_and_both_values() -> None:
    before = {"spec": {"env": [{"name": "NCCL_NET", "value": "Socket"}], "replicas": 1}}
    after = {"spec": {"env": [{"name": "NCCL_NET", "value": "IB"}], "replicas": 1}}
    assert _changed_paths(before, after) == ['spec.env[0].value: "Socket" -> "IB"']
