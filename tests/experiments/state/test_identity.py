"""One identity per variant (experiments/state/identity.py): the logical URN, the neutral prefix and the
fingerprint that sweeps, recorded results and the report all file a variant under."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from experiments.stacks.stackfile import StackFile, load_stack, stack_from_config
from experiments.state.identity import (
    FINGERPRINT_LENGTH,
    NEUTRAL_PREFIX,
    logical_urn,
    preview_fingerprint,
    stack_fingerprint,
    with_neutral_prefix,
)
from experiments.state.preview import run_preview
from experiments.sweep.runners import render_offline

from ...conftest import PROJECT_ROOT, cluster_config


def stack(name: str, **changes: Any) -> StackFile:
    return stack_from_config(name, {"gpu-cluster:cluster": cluster_config(**changes)}, Path(f"Pulumi.{name}.yaml"))


def test_logical_urn_drops_the_stack_only() -> None:
    urn = "urn:pulumi:dev::gpu-cluster::gpu-cluster:fabric:Fabric$kubernetes:core/v1:ConfigMap::gpu-fabric-map"
    assert logical_urn(urn) == "gpu-cluster::gpu-cluster:fabric:Fabric$kubernetes:core/v1:ConfigMap::gpu-fabric-map"
    assert logical_urn("not-a-urn::x") == "not-a-urn::x"


def test_the_sweep_and_the_results_give_a_default_prefix_stack_one_fingerprint() -> None:
    """The ``l40s-2n-vnic`` experiment under the default prefix ``gpu`` (which also starts constants
    such as the ``gpu-cluster`` tag): the sweep's rendering and ``record_run``'s fingerprint agree."""
    path = PROJECT_ROOT / "Pulumi.l40s-2n-vnic.yaml"
    config = yaml.safe_load(path.read_text(encoding="utf-8"))["config"]
    del config["gpu-cluster:cluster"]["name_prefix"]
    default = stack_from_config("l40s-2n-vnic", config, path)
    assert default.cluster.name_prefix == "gpu"
    rendering = render_offline(default)
    assert rendering.fingerprint == stack_fingerprint(default) == stack_fingerprint(load_stack("l40s-2n-vnic"))
    assert rendering.resources == len(run_preview(default).result.resources)


@pytest.mark.slow
def test_same_experiment_under_two_names_and_prefixes_has_one_fingerprint() -> None:
    one, two = stack("one", name_prefix=...), stack("two", name_prefix="lab")
    assert run_preview(one).document()["resources"] != run_preview(two).document()["resources"]
    assert stack_fingerprint(one) == stack_fingerprint(two)
    assert re.fullmatch(rf"[0-9a-f]{{{FINGERPRINT_LENGTH}}}", stack_fingerprint(one))


def test_every_profile_gets_its_own_fingerprint() -> None:
    """Adopted H100 and H200 workers get the same NICs, so the resources alone cannot tell them apart."""
    h100 = stack("h100", **{"nodes.profile": "gx3d-160x1792x8h100", "network.variant": "sriov-rdma"})
    h200 = stack("h200", **{"nodes.profile": "gx3d-160x1792x8h200", "network.variant": "sriov-rdma"})

    def rendered(s: StackFile) -> list[dict[str, Any]]:
        resources = run_preview(with_neutral_prefix(s)).document()["resources"]
        return [
            {"urn": logical_urn(r["urn"]), "type": r["type"], "name": r["name"], "inputs": r["inputs"]}
            for r in resources
        ]

    assert rendered(h100) == rendered(h200)
    assert stack_fingerprint(h100) != stack_fingerprint(h200)


def test_a_changed_nic_count_or_tag_changes_the_fingerprint() -> None:
    base = stack_fingerprint(stack("x"))
    assert stack_fingerprint(stack("x", **{"network.nics_per_node": 1})) != base
    assert stack_fingerprint(stack("x", tags=["study"])) != base


def test_only_a_neutral_rendering_is_fingerprinted() -> None:
    preview = run_preview(stack("x", name_prefix="lab"))
    try:
        preview_fingerprint(preview)
    except ValueError as error:
        assert "neutral prefix" in str(error) and "'lab'" in str(error)
    else:
        raise AssertionError("a rendering under the stack's own prefix was fingerprinted")
    assert with_neutral_prefix(preview.stack).cluster.name_prefix == NEUTRAL_PREFIX


def _definitions(package: str, name: str) -> list[str]:
    """Modules of ``package`` that bind ``name`` at their top level (an assignment or a def)."""
    found = []
    for path in sorted((PROJECT_ROOT / package).rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = [t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)]
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                targets.append(node.target.id)
            if isinstance(node, ast.FunctionDef):
                targets.append(node.name)
            if name in targets:
                found.append(str(path.relative_to(PROJECT_ROOT)))
    return found


def test_each_identity_is_defined_once() -> None:
    assert _definitions("experiments", "PROJECT_ROOT") == ["experiments/base/paths.py"]
    assert _definitions("experiments", "logical_urn") == ["experiments/state/identity.py"]
    assert _definitions("experiments", "NEUTRAL_PREFIX") == ["experiments/state/identity.py"]
    assert _definitions("experiments", "stack_fingerprint") == ["experiments/state/identity.py"]
    # One IBM name rule (Kubernetes' DNS-1035 label, the same language, is another rule and stays apart).
    ibm_patterns = [
        f"{p.name}:{t.id}"
        for p in sorted((PROJECT_ROOT / "components").rglob("*.py"))
        for node in ast.parse(p.read_text(encoding="utf-8")).body
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name) and "IBM" in t.id and "re.compile" in ast.unparse(node.value)
    ]
    assert ibm_patterns == ["source.py:IBM_NAME"]
