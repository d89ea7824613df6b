"""The matrix's own checks, shared by the local sweep and ``--engine argo``: ``teardown:`` parsed into
the spec, and one refusal of a matrix with no valid cell or deployed on the placeholder cluster."""

from __future__ import annotations

import pytest

from experiments.sweep.cells import TEARDOWNS, SweepSpecError
from experiments.sweep.matrix import check_plans, plan_cells

from .test_sweep import spec, sweep_main


def write_matrix(tmp_path, text: str):
    path = tmp_path / "sweep.yaml"
    path.write_text("profile: h100\nvariant: sriov-rdma\nnodes: 2\n" + text)
    return path


@pytest.mark.parametrize("teardown", TEARDOWNS)
def test_the_spec_carries_the_file_s_teardown(tmp_path, teardown: str) -> None:
    assert spec("--matrix", str(write_matrix(tmp_path, f"teardown: {teardown}\n"))).teardown == teardown


def test_without_teardown_in_the_file_the_cells_are_destroyed(tmp_path) -> None:
    assert spec("--matrix", str(write_matrix(tmp_path, ""))).teardown == "destroy"
    assert spec("--profile", "h100", "--variant", "pod", "--nodes", "1").teardown == "destroy"


def test_a_bad_teardown_is_refused_by_the_local_sweep_too(tmp_path) -> None:
    code, out, err = sweep_main(["--offline", "--matrix", str(write_matrix(tmp_path, "teardown: later\n"))])
    assert code == 2 and out == ""
    assert err.strip() == "error: sweep.yaml: teardown: 'later' is not one of destroy, keep-last, keep"


def test_a_matrix_of_invalid_cells_is_refused_whatever_the_engine() -> None:
    matrix = spec("--profile", "l40s", "--variant", "sriov-rdma", "--nodes", "1")
    plans = plan_cells(matrix)
    for deploying in (None, "--up", "--engine argo"):
        with pytest.raises(SweepSpecError, match=r"^command line: every cell of the matrix is invalid:\n  sweep-l40s"):
            check_plans(matrix, plans, deploying)


def test_only_a_preview_may_use_the_placeholder_cluster() -> None:
    matrix = spec("--profile", "h100", "--variant", "pod", "--nodes", "1")
    plans = plan_cells(matrix)
    check_plans(matrix, plans, None)  # a preview: no cluster named, none needed
    with pytest.raises(SweepSpecError) as up:
        check_plans(matrix, plans, "--up")
    assert str(up.value).startswith("--up: name your cluster with --base STACK (a stack that adopts or joins it);")
    with pytest.raises(SweepSpecError) as argo:
        check_plans(matrix, plans, "--engine argo")
    assert str(argo.value).startswith("--engine argo: name your cluster with --base STACK (or base: in the matrix);")


def test_the_shipped_matrix_is_valid_and_its_format_documented() -> None:
    import re

    from components.models.config import NETWORK_VARIANTS as VARIANTS
    from experiments.sweep.cells import MATRIX_KEYS, PROFILE_ALIASES
    from experiments.sweep.matrix import expand, read_matrix

    from ...conftest import PROJECT_ROOT

    shipped = PROJECT_ROOT / "sweep.yaml"
    assert set(read_matrix(shipped)) <= set(MATRIX_KEYS)
    cells = expand(spec("--matrix", str(shipped), "--base", "h100-2n-sriov-rdma-join"))
    assert [c.name for c in cells] == ["sweep-h100-2n-sriov-1nic", "sweep-h100-2n-sriov-rdma-1nic"]
    doc = (PROJECT_ROOT / "docs" / "sweeps.md").read_text()
    table = doc.split("## The matrix file", 1)[1].split("\n\n", 2)[2]
    assert re.findall(r"^\| `([a-z]+)` \|", table, re.M) == list(MATRIX_KEYS)
    assert all(f"`{name}`" in table for name in (*PROFILE_ALIASES, *VARIANTS))
