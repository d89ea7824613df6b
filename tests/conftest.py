"""Shared fixtures: stack files written on the fly, a clean Pulumi runtime per test, and one render per
distinct stack per test run (``_shared_renders``)."""

from __future__ import annotations

import copy
import fcntl
import gc
import hashlib
import json
import os
import pickle
from collections.abc import Callable, Generator, Iterator, Mapping
from pathlib import Path
from typing import Any

import pulumi
import pytest
import yaml
from pulumi.runtime import settings as pulumi_settings

from components.checks.validation import parse_cluster
from experiments.offline.simulated_cluster import SimulatedCluster, simulated_cluster_for

PROJECT_ROOT = Path(__file__).resolve().parents[1]

BASE_CLUSTER: dict[str, Any] = {
    "name_prefix": "t",
    "zone": "us-east-3",
    "openshift": {"infra_id": "t-x7k2p"},
    # Adopted workers t-node0, t-node1...: ``cluster_config`` lists nodes.count of them unless the test
    # selects otherwise; the simulated cluster (experiments.offline.simulated_cluster) has exactly those.
    "nodes": {"source": "adopt", "allow_instance_stop": True, "profile": "gx3-48x240x2l40s", "count": 2},
    "network": {"variant": "vnic", "nics_per_node": 2, "vpc_cidr": "10.241.192.0/20"},
}
STANDALONE_CLUSTER: dict[str, Any] = {
    "name_prefix": "t",
    "zone": "us-east-3",
    "layers": "cloud",
    "nodes": {"profile": "gx3-48x240x2l40s", "count": 2},
    "network": {"variant": "vnic", "nics_per_node": 2},
}


def standalone_config(**changes: Any) -> dict[str, Any]:
    """STANDALONE_CLUSTER (``layers: cloud``, a VPC and instances of its own) with dotted-path changes."""
    return _changed(STANDALONE_CLUSTER, changes)


def cluster_config(**changes: Any) -> dict[str, Any]:
    """BASE_CLUSTER with dotted-path changes: ``cluster_config(**{"network.variant": "pod"})``."""
    return _changed(BASE_CLUSTER, changes)


def _changed(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    cfg = copy.deepcopy(base)
    if changes.get("layers") == "kubernetes":
        # A Kubernetes-only stack lists its nodes in kubernetes.nodes: no source, no cluster lookup.
        cfg.pop("openshift", None)
        cfg["nodes"] = {k: v for k, v in cfg["nodes"].items() if k in ("profile", "count")}
    for dotted, value in changes.items():
        *parents, leaf = dotted.split(".")
        node = cfg
        for part in parents:
            node = node.setdefault(part, {})
        if value is ...:
            node.pop(leaf, None)
        else:
            node[leaf] = value
    nodes = cfg.get("nodes")
    if (
        isinstance(nodes, dict)
        and nodes.get("source") == "adopt"
        and "names" not in nodes
        and "machineset" not in nodes
        and type(nodes.get("count")) is int
        and 1 <= nodes["count"] <= 1024
    ):
        nodes["names"] = [f"t-node{i}" for i in range(nodes["count"])]
    return cfg


@pytest.fixture
def write_stack(tmp_path: Path) -> Callable[..., Path]:
    """Write ``Pulumi.<name>.yaml`` with the given cluster object (or raw text) and return its path."""

    def _write(
        name: str = "test",
        cluster: dict[str, Any] | None = None,
        *,
        text: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> Path:
        path = tmp_path / f"Pulumi.{name}.yaml"
        if text is None:
            config: dict[str, Any] = {"gpu-cluster:cluster": cluster if cluster is not None else cluster_config()}
            config.update(extra or {})
            text = yaml.safe_dump({"config": config}, sort_keys=False)
        path.write_text(text)
        return path

    return _write


class RecordingMocks(pulumi.runtime.Mocks):
    """Echoes inputs as outputs and keeps every registration, for components tested alone."""

    def __init__(self) -> None:
        self.registered: list[pulumi.runtime.MockResourceArgs] = []

    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict[str, Any]]:
        self.registered.append(args)
        return f"{args.name}-id", dict(args.inputs)

    def call(self, args: pulumi.runtime.MockCallArgs) -> dict[str, Any]:
        return {}


_RENDERS: dict[tuple[Any, ...], bytes] = {}
"""The session's renders: the engine's key (see ``_render_key``) -> the pickled ``EngineResult``."""


@pytest.fixture(scope="session")
def _renders_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where this test run's processes (pytest-xdist's workers) leave their renders for each other: the run's
    own temporary directory, new for every run."""
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared-renders"
    shared.mkdir(exist_ok=True)
    return shared


def _render_key(kwargs: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """What decides a stack's render in ``experiments.state.preview.run_preview``: the stack's name, its engine
    config (secret values included), its secret keys, the simulated cluster it is planned against, whether
    it is a dry run, and whether providers' answers are unknown. The program is always ``pulumi_program`` of the
    stack file's plan, made from these."""
    try:
        return (
            kwargs["project"],
            kwargs["stack"],
            tuple(sorted(kwargs["config"].items())),
            tuple(sorted(kwargs.get("secret_keys") or ())),
            repr(kwargs.get("cluster")),
            kwargs.get("dry_run", True),
            kwargs.get("unknowns", False),
        )
    except (KeyError, TypeError, AttributeError):
        return None


@pytest.fixture(autouse=True)
def _shared_renders(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, _renders_dir: Path
) -> Iterator[None]:
    """Every in-process preview of a stack already rendered in this test run (by this process or another
    worker of the run) is a copy of that render: the engine is deterministic (two runs of one stack give one
    document), so the copy is what it would give.
    A test that patches anything else with ``monkeypatch.setattr`` (the program, a planner) renders afresh; so
    does one marked ``fresh_render``."""
    from experiments.offline import engine
    from experiments.state import preview as preview_module

    render = engine.run_offline
    fresh = request.node.get_closest_marker("fresh_render") is not None

    def shared(program: Any, **kwargs: Any) -> Any:
        patched = [(obj, name) for obj, name, _ in monkeypatch._setattr]  # noqa: SLF001 - what the test patched
        # Wrapping the engine itself (to count its runs) changes no render; anything else may.
        key = (
            None if fresh or any(entry != (preview_module, "run_offline") for entry in patched) else _render_key(kwargs)
        )
        if key is None:
            return render(program, **kwargs)
        if key not in _RENDERS:
            shared_file = _renders_dir / f"{hashlib.sha256(repr(key).encode()).hexdigest()}.pickle"
            # One worker renders a stack while any other that needs it at the same moment waits for that render
            # (tests of one stack often start together on several workers): the lock is held only while rendering.
            with shared_file.with_suffix(".lock").open("w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                try:
                    _RENDERS[key] = shared_file.read_bytes()
                except OSError:
                    _RENDERS[key] = pickle.dumps(render(program, **kwargs))
                    written = shared_file.with_suffix(f".{os.getpid()}.tmp")
                    written.write_bytes(_RENDERS[key])
                    os.replace(written, shared_file)  # whole or not at all, for the other workers
        return pickle.loads(_RENDERS[key])  # a copy: a test may change what it was given

    monkeypatch.setattr(preview_module, "run_offline", shared)
    yield


_STATE_DIRS = iter(range(1 << 62))


@pytest.fixture(autouse=True)
def _own_state_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """``preview`` and ``diff`` keep their renders in a state directory of the test's own (made when first
    written), never in the project's ``.pulumi-state/``."""
    from experiments.cli import parser

    with pytest.MonkeyPatch.context() as patch:  # not the test's monkeypatch: renders stay shared
        patch.setattr(parser, "DEFAULT_STATE_DIR", tmp_path_factory.getbasetemp() / f"state-{next(_STATE_DIRS)}")
        yield


@pytest.fixture(autouse=True)
def _clean_pulumi_runtime() -> Iterator[None]:
    yield
    pulumi.runtime.set_all_config({}, [])
    pulumi_settings.reset_options()


def validation_problems(raw: dict[str, Any]) -> list[tuple[str, str]]:
    """``(dotted field, message)`` per problem ``validate_cluster`` reports; [] when it passes."""
    from components.checks.validation import ConfigurationError
    from experiments.offline.simulated_cluster import plan_offline

    try:
        plan_offline(raw, key="")
    except ConfigurationError as error:
        return [tuple(line.lstrip(".").split(": ", 1)) for line in error.lines]  # type: ignore[misc]
    return []


def offline_plan(cfg: Any) -> Any:
    """The plan of a validated ``ClusterConfig`` as the offline tools make it (an adopting stack's
    against the simulated cluster)."""
    from experiments.offline.simulated_cluster import plan_offline

    return plan_offline(cfg.model_dump(mode="json", exclude_unset=True))[1]


def offline_inventory(cfg: Any) -> Any:
    """The simulated cluster's inventory for an adopting or joining ``ClusterConfig`` (else None)."""
    from components.checks.discovery import discover
    from experiments.offline.simulated_cluster import simulated_cluster_for

    return discover(cfg, simulated_cluster_for(cfg)) if cfg.uses_existing_cluster else None


def offline_addresses(cfg: Any) -> Any:
    return offline_plan(cfg).addresses


@pytest.fixture
def mocks() -> Iterator[RecordingMocks]:
    """The one mock engine of component tests: records every registration, reset afterwards."""
    recording = RecordingMocks()
    pulumi.runtime.set_mocks(recording, project="gpu-cluster", stack="test", preview=False)
    yield recording
    pulumi.runtime.settings.reset_options()


def simulated_cluster_of_config(config: Mapping[str, str]) -> SimulatedCluster | None:
    """The simulated cluster of an engine config (``gpu-cluster:cluster`` as JSON), if it names one: for
    a caller that runs the program on a bare engine config, to look up (a stack file carries its own)."""
    text = config.get("gpu-cluster:cluster")
    try:
        cfg = parse_cluster(json.loads(text)) if text else None
    except Exception:  # noqa: BLE001 - an invalid config fails in the program, with its own message
        return None
    return simulated_cluster_for(cfg) if cfg is not None and cfg.uses_existing_cluster else None


LONGEST_FIRST = ("tests/test_install.py", "tests/test_readme.py", "tests/test_benchmarks.py")
"""The files of the longest tests (by ``pytest --durations``: a wheel and a venv built, the README's commands
run, the bench at a small size), started before any other."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first, then the other slow ones, then the rest, each group in its own order: pytest-xdist
    hands tests out in this order, so a long test starts while the others still have work to share, instead of
    running alone at the end (the same order on every worker: it depends on the collection only)."""

    def rank(item: pytest.Item) -> int:
        if not item.get_closest_marker("slow"):
            return len(LONGEST_FIRST) + 1
        path = item.nodeid.split("::", 1)[0]
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection left alive (the test modules, what they import, the test items) lives until the run ends:
    frozen out of the garbage collector's reach, it is not walked again by every full collection (about 220,000
    objects in a worker: 0.1 s a walk)."""
    gc.collect()
    gc.freeze()


_TESTS_RUN = iter(range(1 << 62))
REFREEZE_EVERY = 5
"""Tests between two freezes: every 5, a subset of render-heavy files took 17.3 s CPU against 18.9 with none
after collection's (the collection before each freeze costs what is new since the last)."""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    """Every few tests, what lives on after them (modules imported late, module-scoped fixtures, caches) is
    frozen in turn, after a collection that frees their garbage; a frozen object is still freed once nothing
    refers to it, only never walked (peak memory unchanged)."""
    ran = yield
    if next(_TESTS_RUN) % REFREEZE_EVERY == REFREEZE_EVERY - 1:
        gc.collect()
        gc.freeze()
    return ran
