"""The roll-out the stack last applied, read back from the stack's own outputs.

A stack that stops workers exports ``appliedRollout`` (``APPLIED_ROLLOUT``): the roll-out id
(``components.plan.stops.rollout_id``) of its last ``pulumi up`` in which every worker came back into
service.  The next run reads it through a ``pulumi.StackReference`` of the stack itself, so the program
warns, and lists the workers ``pulumi up`` stops, only when the planned roll-out differs from the applied
one: the same workers with the same cluster NICs are not stopped again (their rolling steps see no change).

Why a self-reference works on the real CLI path (read against pulumi 3.272.0):

- the SDK's ``StackReference`` (``sdk/python/lib/pulumi/stack_reference.py``) is a read of
  ``pulumi:pulumi:StackReference`` with the stack's name as its id; the engine's built-in provider answers
  it (``pkg/resource/deploy/builtins.go``, ``readStackReference``) with the backend's
  ``GetStackOutputs`` of that stack: its checkpoint.  Reads run in ``pulumi preview`` too.
- the stack's root resource is registered before the reference is read and its step is a ``SameStep``,
  which keeps the old outputs (``pkg/resource/deploy/step.go``); the program registers the new outputs
  only once it has finished.  So the reference sees the previous run's outputs, never this run's.
- the export resolves only when every worker's ``WorkerInService`` step has finished: an ``up`` that fails
  midway registers no outputs, and the stack keeps the previous ``appliedRollout``.  The next preview then
  still lists the workers (those already done are not stopped again: their steps' generation matches).

The value is read as hostile input: anything but a roll-out id counts as no record.  The offline engine has
no state: its mock answers with no outputs unless a test gives it some, and the offline preview says so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pulumi

from components.models.config import ClusterConfig
from components.plan.stops import WorkerStop, describe_stops, stops_again

__all__ = ["APPLIED_ROLLOUT", "DIY_ORGANIZATION", "announce_stops", "applied_rollout", "recorded_rollout", "this_stack"]

APPLIED_ROLLOUT = "appliedRollout"
"""The stack output that records the last roll-out applied in full."""
_ROLLOUT = re.compile(r"rollout-[0-9a-f]{8}")


DIY_ORGANIZATION = "organization"
"""What the file backend calls every stack's organization, in either layout (``pkg/backend/diy/state.go``:
``Organization: "organization"``), and so what ``pulumi.get_organization()`` returns there."""


def this_stack() -> str:
    """The name of the stack being updated, in the form every backend's stack-reference parser resolves to it
    (read in pulumi/pulumi at 1b59498, ``ParseStackReference`` of each backend):

    - Pulumi Cloud (``pkg/backend/httpstate/backend.go``, ``parseStackName``): ``stack`` takes the *default*
      organization (or the user), ``a/b`` is ``owner/stack`` (never ``project/stack``); only
      ``<organization>/<project>/<stack>`` names a stack of another organization than the default one;
    - the file backend's project layout (``pkg/backend/diy/store.go``, ``projectReferenceStore``): ``stack``,
      ``organization/stack`` or ``organization/<project>/<stack>``, the project the current one when left out;
    - its legacy layout (a ``~/.pulumi`` made before project-scoped stacks, or ``PULUMI_DIY_BACKEND_LEGACY_LAYOUT``;
      ``legacyReferenceStore``): the bare stack name only (``tokens.ParseStackName`` refuses ``/``).

    So: fully qualified where the organization is a real one (Pulumi Cloud), bare on the file backend, where
    both layouts take it as this project's stack.  (A Pulumi Cloud organization named ``organization`` would get
    the bare name, right whenever it is the user's default organization.)"""
    organization = pulumi.get_organization()
    if organization == DIY_ORGANIZATION:
        return pulumi.get_stack()
    return f"{organization}/{pulumi.get_project()}/{pulumi.get_stack()}"


def recorded_rollout(outputs: object) -> str | None:
    """The roll-out id a stack's outputs record, None if they record none (or anything but an id)."""
    value = outputs.get(APPLIED_ROLLOUT) if isinstance(outputs, dict) else None
    return value if isinstance(value, str) and _ROLLOUT.fullmatch(value) else None


def applied_rollout(parent: pulumi.Resource | None = None) -> pulumi.Output[str | None]:
    """The last roll-out this stack applied in full, read from its own state (None: it records none)."""
    reference = pulumi.StackReference("applied-rollout", this_stack(), opts=pulumi.ResourceOptions(parent=parent))
    return reference.outputs.apply(recorded_rollout)


def announce_stops(
    cfg: ClusterConfig, stops: Sequence[WorkerStop], rollout: str, parent: pulumi.Resource | None = None
) -> pulumi.Output[str | None]:
    """What ``pulumi preview`` and ``pulumi up`` tell the user (their Diagnostics) once the applied roll-out is
    read: the workers ``up`` stops, as a warning, when the roll-out is new; one line saying none stops when it
    is the one applied.  Returns the applied roll-out."""

    def announce(applied: str | None) -> str | None:
        text = "\n".join(describe_stops(cfg, stops, rollout, applied))
        (pulumi.log.warn if stops_again(rollout, applied) else pulumi.log.info)(text)
        return applied

    return applied_rollout(parent).apply(announce)
