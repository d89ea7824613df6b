"""A credential-free Pulumi engine: runs the real program under mocks and records it.

The mocks answer like IBM Cloud would, deterministically: IDs and CRNs are derived
from the resource's type and name (two runs of the same stack give the same
document), composite IDs follow the provider's ``<parent>/<child>`` conventions, and
addresses are the planned ones the program requests.  Every registration is recorded
with its URN, parent and the inputs as sent to the engine, secrets masked.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pulumi
from pulumi.output import Unknown
from pulumi.runtime import settings as pulumi_settings

from components.compat import SECRET_SIG, SECRET_SIG_KEY, on_a_shallow_stack, own_event_loop, young_generation_gc
from experiments.offline.ibm_mocks import IbmCloudMocks
from experiments.offline.mock_monitor import PlainAnswerMonitor
from experiments.offline.preview_answers import UNKNOWN_MASK
from experiments.offline.simulated_cluster import SimulatedCluster
from experiments.offline.stack_names import ORGANIZATION

__all__ = [
    "EngineResult",
    "IbmCloudMocks",
    "RecordedResource",
    "RecordingMonitor",
    "SECRET_MASK",
    "UNKNOWN_MASK",
    "run_offline",
]

SECRET_MASK = "[secret]"


@dataclass(frozen=True)
class RecordedResource:
    urn: str
    type: str
    name: str
    parent: str | None
    custom: bool
    inputs: dict[str, Any]
    provider: str | None = None
    """The provider reference (``<provider urn>::<id>``), inherited or explicit."""
    dependencies: tuple[str, ...] = ()
    """URNs this resource waits for (``depends_on`` and the resources its inputs come from)."""
    id: str | None = None
    """The ID the mock engine gave it (deterministic: type, name and replace-on-change inputs)."""
    delete_before_replace: bool | None = None
    """The ``delete_before_replace`` option as sent (None when left unset)."""
    property_dependencies: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Per input: the URNs its value came from (what a policy pack sees as property dependencies)."""
    retain_on_delete: bool = False
    """Left in place by ``pulumi destroy``."""

    def as_json(self) -> dict[str, Any]:
        return {
            "urn": self.urn,
            "type": self.type,
            "name": self.name,
            "parent": self.parent,
            "custom": self.custom,
            "provider": self.provider,
            "inputs": self.inputs,
            # What it waits for: a tool reads the order of disruptive steps from these.
            "dependencies": list(self.dependencies),
            "property_dependencies": {k: list(v) for k, v in sorted(self.property_dependencies.items())},
        }


@dataclass
class EngineResult:
    resources: list[RecordedResource] = field(default_factory=list)
    outputs: dict[str, Any] = field(default_factory=dict)
    diagnostics: list[str] = field(default_factory=list)
    """What the program logged (``pulumi.log``), as ``pulumi preview`` would show it under Diagnostics."""


class _Diagnostics(logging.Handler):
    """Keeps the program's log messages with the result, instead of Python's last-resort stderr."""

    def __init__(self, sink: list[str]) -> None:
        super().__init__(logging.INFO)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(f"{record.levelname.lower()}: {record.getMessage()}")


def mask_secrets(value: Any) -> Any:
    """Replace every secret-wrapped value (the engine's wire form) with ``[secret]``."""
    if isinstance(value, dict):
        if value.get(SECRET_SIG_KEY) == SECRET_SIG:
            return SECRET_MASK
        return {k: mask_secrets(v) for k, v in value.items()}
    if isinstance(value, list):
        return [mask_secrets(v) for v in value]
    return value


class RecordingMonitor(PlainAnswerMonitor):
    """The mock monitor that also keeps the parent and the wire inputs of each registration."""

    def __init__(self, mocks: IbmCloudMocks, sink: list[RecordedResource]) -> None:
        super().__init__(mocks)
        self._sink = sink

    def registered(self, request: Any, urn: str, resource_id: str, inputs: dict[str, Any]) -> None:
        self._sink.append(
            RecordedResource(
                urn=urn,
                type=request.type,
                name=request.name,
                parent=request.parent or None,
                custom=bool(request.custom),
                inputs=mask_secrets(_plain(inputs)),
                provider=request.provider or None,
                dependencies=tuple(sorted(request.dependencies)),
                id=resource_id or None,
                delete_before_replace=request.deleteBeforeReplace if request.deleteBeforeReplaceDefined else None,
                retain_on_delete=bool(request.retainOnDelete),
                property_dependencies={
                    key: tuple(sorted(deps.urns)) for key, deps in request.propertyDependencies.items()
                },
            )
        )


def _plain(value: Any) -> Any:
    """Deserialized properties as JSON-ready data: tuples become lists, and whole numbers
    ints again (the wire carries every number as a double; ``replicas: 1.0`` is not YAML
    anyone would apply)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Unknown):
        return UNKNOWN_MASK
    return value


def _is_plain(value: Any) -> bool:
    """No Output or awaitable anywhere inside: the value is final as it is."""
    if isinstance(value, dict):
        return all(_is_plain(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return all(_is_plain(v) for v in value)
    return isinstance(value, (str, int, float, bool, type(None)))


async def _resolve_outputs(outputs: Mapping[str, Any], sink: dict[str, Any]) -> None:
    for key, value in outputs.items():
        if _is_plain(value):
            # Wrapping a 2,000-NIC inventory in Outputs would cost one Output per leaf.
            sink[key] = _plain(value)
            continue
        output = pulumi.Output.from_input(value)
        resolved = await output.future(with_unknowns=True)
        if resolved is None and not await output.is_known():
            resolved = Unknown()  # type: ignore[no-untyped-call]  # the SDK leaves it untyped; as pulumi preview shows an output it does not know yet
        sink[key] = SECRET_MASK if await output.is_secret() else _plain(resolved)


def run_offline(
    program: Callable[[], Mapping[str, Any]],
    *,
    project: str,
    stack: str,
    config: Mapping[str, str],
    secret_keys: list[str] | None = None,
    cluster: SimulatedCluster | None = None,
    dry_run: bool = True,
    stack_outputs: Mapping[str, Any] | None = None,
    unknowns: bool = False,
) -> EngineResult:
    """Run ``program`` (which returns its stack outputs) against the mock engine; the lookups of an
    existing cluster are answered by ``cluster`` (the stack file's ``simulated``; None: the program
    looks nothing up).  A preview
    (``dry_run``) is what the program sees under ``pulumi preview``; ``dry_run=False`` is ``pulumi up``.
    ``stack_outputs``: what a previous run left, as a reference to the stack reads it (None: no state).
    ``unknowns`` (a preview only): what providers compute is unknown, as in a real ``pulumi preview`` (IDs,
    provider-filled attributes, server-assigned fields, dynamic resources' outputs); reads and invokes stay known.
    The run has a thread of its own (``components.compat.on_a_shallow_stack`` says why)."""
    return on_a_shallow_stack(
        lambda: _run_offline(
            program, project, stack, config, secret_keys, cluster, dry_run, stack_outputs, unknowns and dry_run
        )
    )


def _run_offline(
    program: Callable[[], Mapping[str, Any]],
    project: str,
    stack: str,
    config: Mapping[str, str],
    secret_keys: list[str] | None,
    cluster: SimulatedCluster | None,
    dry_run: bool,
    stack_outputs: Mapping[str, Any] | None,
    unknowns: bool,
) -> EngineResult:
    result = EngineResult()
    pulumi_settings.reset_options(project=project, stack=stack)
    pulumi.runtime.set_all_config(dict(config), secret_keys or [])
    mocks = IbmCloudMocks(cluster, stack_outputs, f"{ORGANIZATION}/{project}/{stack}", unknowns)
    logger = logging.Logger("gpu-cluster.offline-engine", logging.INFO)  # unregistered: this run's alone
    logger.addHandler(_Diagnostics(result.diagnostics))
    with own_event_loop():  # from the stack resource set_mocks makes on
        pulumi.runtime.set_mocks(
            mocks,
            project=project,
            stack=stack,
            preview=dry_run,
            organization=ORGANIZATION,
            logger=logger,
            monitor=RecordingMonitor(mocks, result.resources),
        )
        try:
            with young_generation_gc():

                @pulumi.runtime.test  # type: ignore[misc] # an untyped decorator of the SDK
                def _run() -> Any:
                    outputs = program()
                    return pulumi.Output.from_input(asyncio.ensure_future(_resolve_outputs(outputs, result.outputs)))

                _run()
                # Registration order depends on when Outputs resolve; the document must not.
                result.resources.sort(key=lambda r: r.urn)
        finally:
            pulumi.runtime.set_all_config({}, [])
    return result
