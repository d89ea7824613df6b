"""Waits the engine records and the SDK does not walk: ``after(resource)``.

The Python SDK checks every dependency it is given for a cycle before it sends it
(``pulumi/runtime/rpc.py``, ``_add_dependency`` -> ``runtime/resource_cycle_breaker.py``,
``declare_dependency``): it walks everything the dependency already waits for, by nested generators,
so one edge costs the size (and the depth) of the target's past.  A lane of the rolling sequence is
one chain (worker k+1 leaves service once worker k is back), so every edge into it walks the whole
lane so far, and a stack of one lane costs the cube of its workers; every resource waiting for the
claims gate walks every claim.

``after(resource)`` is the dependency the engine gets for ``depends_on=[resource]`` (the same URN in
the registration's ``dependencies``, awaited the same way: the SDK sends nothing before the resource is
registered, which under ``pulumi up`` is once it exists), handed over as the SDK's own
``DependencyResource`` (``pulumi/resource.py``: a resource known only by its URN, which it makes for
remote components), which has no past to walk.  What it gives up is the SDK's cycle check on that
edge: use it only where the order is a plan's (the rolling order, the claims gate, the cloud layer
before the Kubernetes one), which cannot form a cycle.
"""

from __future__ import annotations

import asyncio

import pulumi
from pulumi.resource import DependencyResource

__all__ = ["after"]


def after(resource: pulumi.Resource) -> pulumi.Output[pulumi.Resource]:
    """For ``depends_on``: wait for ``resource`` (a custom resource) without the SDK's walk of its past."""
    if not isinstance(resource, pulumi.CustomResource):
        # A component stands for its children (the SDK expands it); by its URN alone it would stand for nothing.
        raise TypeError(f"after() takes a custom resource, not {type(resource).__name__}")

    async def dependency() -> pulumi.Resource:
        urn = await resource.urn.future()
        if urn is None:  # never: a URN is known from the registration on, in a preview too
            raise RuntimeError(f"{resource} has no URN to wait for")
        return DependencyResource(urn)

    known: asyncio.Future[bool] = asyncio.get_event_loop().create_future()
    known.set_result(True)
    # No resources of its own: the SDK would walk those (``Output.resources``, ``_resolve_depends_on``).
    return pulumi.Output(set(), asyncio.ensure_future(dependency()), known)
