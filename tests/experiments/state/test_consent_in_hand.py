"""Issue 37: consent is checked for the plan in hand.  ``allow_instance_stop: rollout-<id>`` consents to that
roll-out alone: what hands a stack to an engine elsewhere (``pko``, the Argo sweep) refuses one whose
consent names another roll-out, as ``pulumi up`` itself would; a consent that is not one is a single line
showing the form the preview prints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from experiments.stacks.stackfile import InvalidCluster, load_stack

from ...conftest import PROJECT_ROOT, cluster_config
from ..incluster.test_argo import ADOPTING_BASE, render, spec_file
from ..incluster.test_pko import pko

ANOTHER = "rollout-00000000"
STOPPING = {"nodes.profile": "gx3d-160x1792x8h100", "network.variant": "sriov-rdma", "network.nics_per_node": 1}


def stopping_stack(write_stack: Any, consent: Any) -> Any:
    return load_stack(str(write_stack("consent", cluster_config(**STOPPING, **{"nodes.allow_instance_stop": consent}))))


def test_a_consent_to_another_roll_out_is_a_refusal_naming_both(write_stack) -> None:
    stack = stopping_stack(write_stack, ANOTHER)
    own = stack.plan.rollout
    assert own.startswith("rollout-") and own != ANOTHER
    assert stack.up_refusals == [
        f"gpu-cluster:cluster.nodes.allow_instance_stop: {ANOTHER} names another roll-out; this one is {own} "
        f"(the preview lists the workers it stops): set nodes.allow_instance_stop: {own}"
    ]
    assert stopping_stack(write_stack, own).up_refusals == []
    assert stopping_stack(write_stack, True).up_refusals == []  # the first roll-out: the selection step judges


def shipped_with_consent(tmp_path: Path, consent: Any) -> Path:
    document = yaml.safe_load((PROJECT_ROOT / "Pulumi.h100-2n-sriov-rdma.yaml").read_text())
    document["config"]["gpu-cluster:cluster"]["nodes"]["allow_instance_stop"] = consent
    path = tmp_path / "Pulumi.consented.yaml"
    path.write_text(yaml.safe_dump(document))
    return path


def test_pko_refuses_a_stack_consenting_to_another_roll_out_and_writes_nothing(tmp_path, capsys) -> None:
    code, out = pko(tmp_path, str(shipped_with_consent(tmp_path, ANOTHER)), "--on-delete", "keep")
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "the Stack would fail at every update" in err and f"{ANOTHER} names another roll-out" in err
    assert not out.exists()


def test_pko_writes_a_stack_consenting_to_its_own_roll_out(tmp_path, capsys) -> None:
    own = load_stack(str(shipped_with_consent(tmp_path, True))).plan.rollout
    code, out = pko(tmp_path, str(shipped_with_consent(tmp_path, own)), "--on-delete", "keep")
    assert code == 0, capsys.readouterr().err
    assert (out / "stack.yaml").exists()


def test_the_argo_sweep_refuses_cells_consenting_to_another_roll_out_and_writes_nothing(tmp_path, capsys) -> None:
    base = {**ADOPTING_BASE, "nodes": {**ADOPTING_BASE["nodes"], "allow_instance_stop": ANOTHER}}
    code, out = render(tmp_path, spec_file(tmp_path, profile=["h100"], variant=["sriov"], nodes=[2], base=base))
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "pulumi up would be refused for sweep-h100-2n-sriov-1nic" in err
    assert f"nodes.allow_instance_stop: {ANOTHER} names another roll-out (sweep-h100-2n-sriov-1nic's is rollout-" in err
    assert not out.exists()


@pytest.mark.parametrize(
    "consent",
    ["rollout-DEADBEEF", "rollout-1234567", "rollout-123456789", "ROLLOUT-deadbeef", "rollout-deadbeef\n", "yes", 1],
)
def test_a_consent_that_is_not_one_is_one_line_showing_the_form(write_stack, consent: Any) -> None:
    path = write_stack("consent", cluster_config(**STOPPING, **{"nodes.allow_instance_stop": consent}))
    with pytest.raises(InvalidCluster) as failure:
        load_stack(str(path))
    text = str(failure.value)
    assert text.count("\n") == 0, text
    assert text.endswith(
        f": gpu-cluster:cluster.nodes.allow_instance_stop: {consent!r} is not a consent: set true (the "
        "stack's first roll-out) or the roll-out's id exactly as the preview prints it, rollout- and 8 lowercase "
        "hex digits (e.g. rollout-0a1b2c3d)"
    )
    assert "constrained-str" not in text and ".bool" not in text
