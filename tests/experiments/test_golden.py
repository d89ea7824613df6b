"""Each stack's desired state against its golden digest (logical IDs stay put; see experiments/golden.py)."""

from __future__ import annotations

import json

import pytest

from experiments.golden import digest, golden_path
from experiments.stackfile import known_stacks

from ..conftest import PROJECT_ROOT


@pytest.mark.parametrize("stack", known_stacks(PROJECT_ROOT))
def test_stack_matches_its_golden_digest(stack: str) -> None:
    expected = json.loads(golden_path(stack).read_text())
    actual = digest(stack)
    missing = sorted(set(expected["resources"]) - set(actual["resources"]))
    assert not missing, f"resources renamed or removed (run tools/update_golden.py if intended): {missing}"
    added = sorted(set(actual["resources"]) - set(expected["resources"]))
    assert not added, f"resources added (run tools/update_golden.py if intended): {added}"
    changed = sorted(u for u in expected["resources"] if expected["resources"][u] != actual["resources"][u])
    assert not changed, f"inputs changed (python -m experiments diff explains; then tools/update_golden.py): {changed}"
    assert actual["document"] == expected["document"], (
        "preview.json changed outside the resources' inputs (parent, provider, outputs or formatting): "
        "compare 'python -m experiments preview' before and after; then tools/update_golden.py")
