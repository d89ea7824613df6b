"""The SDK's cycle check walks what each new dependency already waits for (``components.compat.unwalked``): the
program's waits must keep that walk proportional to the stack, whatever the shape of its rolling lanes."""

from __future__ import annotations

from typing import Any

import pytest
from pulumi.runtime import resource_cycle_breaker

from experiments.stacks.stackfile import load_stack
from experiments.state.dependencies import comes_after
from experiments.state.preview import run_preview

from ...conftest import cluster_config


def _stack(write_stack: Any, workers: int, lanes: int) -> Any:
    cluster = cluster_config(
        **{
            "nodes.profile": "gx3d-160x1792x8h100",
            "nodes.count": workers,
            "nodes.max_unavailable": lanes,
            "network.variant": "sriov-rdma",
            "network.nics_per_node": 8,
        }
    )
    return load_stack(str(write_stack(f"walk{workers}x{lanes}", cluster)))


def _walk(monkeypatch: pytest.MonkeyPatch, stack: Any) -> tuple[int, Any]:
    """Resources the SDK's cycle check visits (each walk counts what it reached), and the preview."""
    visits = [0]
    walk = resource_cycle_breaker._with_transitive_deps  # noqa: SLF001 - the walk being measured

    def reachable(from_resource: Any, to_resource: Any) -> bool:
        visited: set[Any] = set()
        found = any(x == to_resource for x in walk(from_resource, visited))
        visits[0] += len(visited)
        return found

    monkeypatch.setattr(resource_cycle_breaker, "_reachable", reachable)
    preview = run_preview(stack)
    return visits[0], preview


@pytest.mark.slow  # four fresh previews, some 3 s
@pytest.mark.parametrize("lanes", [1, 4])
def test_the_cycle_check_grows_with_the_stack_in_one_lane_or_several(write_stack, monkeypatch, lanes) -> None:
    small, _ = _walk(monkeypatch, _stack(write_stack, 4, lanes))
    large, large_preview = _walk(monkeypatch, _stack(write_stack, 16, lanes))
    # Four times the workers, four times the walk (with room for the stack's fixed part); a lane walked edge by
    # edge grows with its square (one lane of 16 workers: 16 times the walk of 4) or, deep as a lane is, its
    # cube, and every resource waiting on the claims gate walked every claim.
    assert large <= 5 * small, (small, large)
    # ...and the order is the one planned: in a lane, each worker leaves service once the one before is back.
    document = large_preview.document()
    urn = {r["name"]: r["urn"] for r in document["resources"]}
    stops = large_preview.stack.plan.stops
    assert len(stops) == 16 and sum(stop.after is None for stop in stops) == lanes
    for stop in stops:
        if stop.after is not None:
            out, back = urn[f"gpu-{stop.worker}-out-of-service"], urn[f"gpu-{stop.after}-in-service"]
            assert back in next(r for r in document["resources"] if r["urn"] == out)["dependencies"]
            assert comes_after(document, out, back) and not comes_after(document, back, out)


def test_unwalked_takes_only_a_custom_resource(mocks) -> None:
    import pulumi

    from components.compat import unwalked

    component = pulumi.ComponentResource("test:index:Group", "group")
    with pytest.raises(TypeError, match="^unwalked\\(\\) takes a custom resource, not ComponentResource$"):
        unwalked(component)
