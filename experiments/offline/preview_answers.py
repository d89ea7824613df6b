"""What ``pulumi preview`` gives a program for a resource it would create: the offline engine's ``unknowns`` mode
(``experiments.offline.engine.run_offline``) answers new resources with it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pulumi.runtime import rpc

from components.compat import SECRET_SIG, SECRET_SIG_KEY

__all__ = ["KUBERNETES_SERVER_FIELDS", "UNKNOWN_MASK", "preview_answer"]

UNKNOWN_MASK = "[known after pulumi up]"
"""An input that comes from another resource's output the dry run does not know (as pulumi preview shows it)."""

KUBERNETES_SERVER_FIELDS = ("uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "selfLink")
"""``metadata`` fields the API server assigns: unknown until the object exists."""


def preview_answer(token: str, inputs: Mapping[str, Any], known: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """What ``pulumi preview`` gives the program for a resource it would create: no ID (an empty one, which the
    SDK resolves as unknown, as the bridge sends it), the inputs as they are, and every output the provider
    computes unknown.  ``known`` is what the provider answers after ``up``; anything in it that the inputs do
    not hold, at any depth (an IBM attribute the provider fills in, a nested block's computed field), is
    unknown.  A Kubernetes object's server-assigned ``metadata`` fields and ``status`` are unknown: pulumi-kubernetes'
    ``Create`` in a preview answers no ID and drops ``status``, and echoes the inputs where it cannot dry-run
    (cluster unreachable, a computed input, a CRD not yet installed; ``provider/pkg/provider/provider.go``), so a
    program never has them before ``up`` (unknown is the stricter of the two for the program).  A dynamic
    resource's outputs are its checked inputs (the Python provider host does not preview, so the engine uses
    them) and the rest unknown."""
    if token.startswith(("pulumi-python:dynamic:", "pulumi:providers:")):
        return "", dict(inputs)
    if token.startswith("kubernetes:"):
        state = dict(inputs)
        metadata = dict(state.get("metadata") or {})
        metadata.update(dict.fromkeys(KUBERNETES_SERVER_FIELDS, rpc.UNKNOWN))
        state.update(metadata=metadata, status=rpc.UNKNOWN)
        return "", state
    return "", _unknown_where_computed(inputs, known)


def _unknown_where_computed(given: Any, computed: Any) -> Any:
    """``computed`` where ``given`` says the same, the engine's unknown where the provider added or changed it."""
    if isinstance(given, Mapping) and isinstance(computed, Mapping):
        if given.get(SECRET_SIG_KEY) == SECRET_SIG:
            return given
        return {key: _unknown_where_computed(given.get(key, _ABSENT), value) for key, value in computed.items()}
    if isinstance(given, (list, tuple)) and isinstance(computed, (list, tuple)) and len(given) == len(computed):
        return [_unknown_where_computed(g, c) for g, c in zip(given, computed, strict=True)]
    return given if given is not _ABSENT and given == computed else rpc.UNKNOWN


_ABSENT = object()
