"""An offline run leaves the pickler as it found it: pulumi.dynamic wraps ``pickle._Pickler._batch_setitems``
at every provider it serializes and never unwraps it, so a process that previews many stacks (a sweep of many
cells, ``sweep --engine argo``, the test suite) would nest one wrapper per dynamic resource into a
RecursionError."""

from __future__ import annotations

import pickle

from experiments.state.preview import run_preview


def test_previews_do_not_stack_pickler_wrappers() -> None:
    before = pickle._Pickler._batch_setitems  # type: ignore[attr-defined]
    resources = run_preview("h100-2n-sriov").result.resources
    assert any(r.type.startswith("pulumi-python:dynamic") for r in resources)  # the rolling steps serialize
    assert pickle._Pickler._batch_setitems is before  # type: ignore[attr-defined]
