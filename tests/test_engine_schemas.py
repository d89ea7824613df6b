"""The engine CRDs' schemas (Argo Workflow, PKO Stack) shipped in schemas/engines: generated reproducibly from
../shared/crds-engines, and strict enough to catch what those engines' releases removed or never had."""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest

from .conftest import PROJECT_ROOT
from .manifests import validate_manifest
from .test_manifests import load_generator

SHARED_ENGINE_CRDS = PROJECT_ROOT.parent / "shared" / "crds-engines"
ENGINE_SCHEMAS = PROJECT_ROOT / "schemas" / "engines"


@pytest.mark.skipif(not SHARED_ENGINE_CRDS.is_dir(), reason="../shared/crds-engines not beside the project")
@pytest.mark.slow
def test_the_generator_reproduces_the_engine_schemas(tmp_path: Path) -> None:
    generator = load_generator()
    generator.generate(SHARED_ENGINE_CRDS, tmp_path, generator.ENGINE_CRDS)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(p.name for p in ENGINE_SCHEMAS.glob("*.json"))
    _, mismatch, errors = filecmp.cmpfiles(ENGINE_SCHEMAS, tmp_path, names, shallow=False)
    assert mismatch == [] and errors == []


def workflow(**spec: object) -> dict[str, object]:
    return {
        "apiVersion": "argoproj.io/v1alpha1",
        "kind": "Workflow",
        "metadata": {"generateName": "w-"},
        "spec": {"entrypoint": "a", "templates": [{"name": "a", "container": {"image": "x/y:1"}}], **spec},
    }


def test_argo_v4_refuses_the_singular_mutex_it_removed() -> None:
    assert validate_manifest(workflow(synchronization={"mutexes": [{"name": "pool"}]})) == []
    assert validate_manifest(workflow(synchronization={"mutex": {"name": "pool"}})) == [
        "spec.synchronization.mutex: unknown field"
    ]


def test_the_stack_has_no_pulumi_log_level_of_its_own() -> None:
    stack = {"apiVersion": "pulumi.com/v1", "kind": "Stack", "metadata": {"name": "s"}, "spec": {"stack": "s"}}
    assert validate_manifest(stack) == []
    assert validate_manifest({**stack, "spec": {"stack": "s", "pulumiLogLevel": 3}}) == [
        "spec.pulumiLogLevel: unknown field"
    ]
    assert validate_manifest({**stack, "spec": {}}) == ["spec.stack: required field is missing"]
