"""``tools.lab.render`` against the study's stacks: the lab's job facts are the rendered stack's, and the
fixtures the plan tests read are exactly what it writes today."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools.lab.render import lab_facts

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lab"


@pytest.mark.slow
@pytest.mark.parametrize("stack", ["h100-1n", "h100-2n-pod", "h100-2n-vnic", "h100-2n-sriov", "h100-2n-sriov-rdma"])
def test_the_fixtures_are_what_render_writes(stack: str) -> None:
    assert lab_facts(stack) == json.loads((FIXTURES / f"{stack}.json").read_text())


def test_the_vnic_facts_come_from_the_stacks_own_manifests() -> None:
    facts = json.loads((FIXTURES / "h100-2n-vnic.json").read_text())
    assert [r["pod"] for r in facts["replicas"]] == ["ilab-master-0", "ilab-worker-0"]
    assert facts["mapping"]["text"].splitlines() == [
        "h100-study-q8wzt-gpu-3-l6gzb:ens13:net1:10.241.192.71",
        "h100-study-q8wzt-gpu-3-pds7f:ens13:net1:10.241.192.66",
    ]
    assert facts["networks"] == [{"ifname": "net1", "range": "10.241.192.0/24", "range_start": "10.241.192.128"}]
    assert facts["links"]["8"]["gbps"] == pytest.approx(32 * facts["links"]["8"]["efficiency"])
