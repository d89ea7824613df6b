"""One claim per worker the stack uses, so that two stacks never take the same worker.

A claim is a ``coordination.k8s.io/v1`` Lease named after the node (``gpu-cluster-claim.<node>``)
in ``default``, a namespace every cluster has and no stack owns, held by the stack's training
namespace.  The name is the lock: pulumi-kubernetes creates new objects client-side (since v4.29;
``upsertExistingObjects`` off, which the program's provider pins), so a second stack's claim on
the same node fails with ``AlreadyExists`` — and everything that stops, attaches or schedules on
the workers waits for the claims (``after_claims``), so nothing of the second stack touches them.
Deleting the stack deletes its claims last, releasing the workers.
"""

from __future__ import annotations

from collections.abc import Sequence

import pulumi
import pulumi_kubernetes as k8s

from components.args import ComponentArgs
from components.compat import after, unwalked
from components.manifests.k8s_objects import part_of_labels

__all__ = ["CLAIMS_NAMESPACE", "WorkerClaims", "WorkerClaimsArgs", "claim_name"]

CLAIMS_NAMESPACE = "default"
"""Where the claims live: it exists on every cluster and belongs to no stack (a stack's own
namespace would not do: two stacks must see each other's claims)."""


def claim_name(node: str) -> str:
    return f"gpu-cluster-claim.{node}"


class WorkerClaimsArgs(ComponentArgs):
    nodes: Sequence[str]
    """The workers the stack uses (adopted, joined or listed), as Kubernetes node names."""
    holder: str
    """Who holds them: the stack's training namespace (derived from the stack, unique per cluster)."""


class WorkerClaims(pulumi.ComponentResource):
    """A Lease per worker; ``after_claims`` makes a subtree of resources wait for all of them."""

    claims: list[k8s.coordination.v1.Lease]
    gate: k8s.core.v1.ConfigMap
    """The stack's list of its claims, made once all of them are held: what ``after_claims`` waits for (one
    dependency per resource, not one per claim, which would make a stack of n workers carry n² of them)."""

    def __init__(self, name: str, args: WorkerClaimsArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("gpu-cluster:claims:WorkerClaims", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        self.claims = [
            k8s.coordination.v1.Lease(
                f"{name}-{node}",
                metadata=k8s.meta.v1.ObjectMetaArgs(
                    name=claim_name(node), namespace=CLAIMS_NAMESPACE, labels=part_of_labels(args.holder)
                ),
                spec=k8s.coordination.v1.LeaseSpecArgs(holder_identity=f"gpu-cluster/{args.holder}"),
                opts=child,
            )
            for node in args.nodes
        ]
        self.gate = k8s.core.v1.ConfigMap(
            f"{name}-held",
            metadata=k8s.meta.v1.ObjectMetaArgs(
                name=f"gpu-cluster-claims.{args.holder}", namespace=CLAIMS_NAMESPACE, labels=part_of_labels(args.holder)
            ),
            data={"nodes": "\n".join(args.nodes)},
            opts=pulumi.ResourceOptions(parent=self, depends_on=list(self.claims)),
        )
        self.register_outputs({"claims": [claim_name(node) for node in args.nodes]})

    @classmethod
    def on(
        cls, provider: pulumi.ProviderResource, args: WorkerClaimsArgs, parent: pulumi.Resource | None = None
    ) -> WorkerClaims:
        """The stack's claims (``gpu-claims``) through ``provider``, the cluster's (``parent``: the component
        the stack's resources belong to, if any)."""
        return cls("gpu-claims", args, opts=pulumi.ResourceOptions(providers=[provider], parent=parent))

    def after_claims(self) -> pulumi.ResourceOptions:
        """Options that make every resource they reach (a component's whole subtree: children inherit them)
        depend on the claims, so a refused claim stops the stack before it touches a worker."""
        # The gate by its URN alone (one for all): each of thousands of resources would otherwise walk every claim.
        return after([unwalked(self.gate)])
