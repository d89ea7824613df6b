"""Where the GPU nodes come from: ``nodes.source`` and the existing cluster it refers to.

``standalone`` creates a VPC and instances that belong to no cluster (``layers: cloud`` only).
``adopt`` attaches NICs to the GPU workers an OpenShift IPI cluster already has; ``join``
creates instances in that cluster's VPC that join it.  Both name the cluster by the
``openshift`` section: the infra ID, from which the installer's names follow (VPC
``<infraID>-vpc``, worker subnet ``<infraID>-subnet-compute-<zone>``, security groups
``<infraID>-sg-cluster-wide`` and ``<infraID>-sg-openshift-net``, image ``<infraID>-rhcos``),
each overridable for a cluster installed into an existing VPC.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field
from pydantic_core import PydanticCustomError

from components.models.model import ConfigModel

__all__ = [
    "IBM_NAME",
    "INFRA_ID_MAX",
    "JoinConfig",
    "NodeSource",
    "OpenShiftConfig",
    "RolloutConsent",
    "StopConsent",
    "ibm_name_rule",
    "ibm_resource_name",
]

NodeSource = Literal["standalone", "adopt", "join"]

INFRA_ID_MAX = 27
"""``Infrastructure.status.infrastructureName`` is at most 27 characters (openshift/api)."""

# IBM's validator for instance, subnet, VPC, security group and child NIC names (provider v2.5.0),
# and the project's own names (``name_prefix``): the one IBM name rule of the project.
IBM_NAME = re.compile(r"^([a-z]|[a-z][-a-z0-9]*[a-z0-9])$")


def ibm_name_rule(value: str) -> str:
    """IBM's resource name rule, as a pydantic validator."""
    if not IBM_NAME.fullmatch(value):
        raise ValueError(
            "must be lowercase letters, digits and hyphens, starting with a letter and not "
            "ending with a hyphen (IBM's name rule)"
        )
    return value


def ibm_resource_name(value: str) -> bool:
    """Whether ``value`` passes IBM's name validator for instances, subnets and NICs (1-63)."""
    return len(value) <= 63 and bool(IBM_NAME.fullmatch(value))


IbmResourceName = Annotated[str, Field(min_length=1, max_length=63), AfterValidator(ibm_name_rule)]
InfraId = Annotated[str, Field(min_length=1, max_length=INFRA_ID_MAX), AfterValidator(ibm_name_rule)]


class OpenShiftConfig(ConfigModel):
    """The existing cluster the nodes belong to (``nodes.source: adopt`` or ``join``).

    Find the infra ID with ``oc get infrastructure cluster -o jsonpath='{.status.infrastructureName}'``.
    """

    infra_id: InfraId | None = None
    vpc: IbmResourceName | None = None
    """The cluster's VPC; default ``<infra_id>-vpc`` (set it when the cluster went into an existing VPC)."""
    compute_subnet: IbmResourceName | None = None
    """The workers' subnet in the node zone; default ``<infra_id>-subnet-compute-<zone>``."""
    security_groups: list[IbmResourceName] | None = Field(default=None, min_length=1, max_length=5)
    """The workers' security groups; default ``<infra_id>-sg-cluster-wide``, ``<infra_id>-sg-openshift-net``."""
    image: IbmResourceName | None = None
    """The cluster's RHCOS image (``join``); default ``<infra_id>-rhcos``."""

    def vpc_name(self) -> str | None:
        return self.vpc or (f"{self.infra_id}-vpc" if self.infra_id else None)

    def compute_subnet_name(self, zone: str) -> str | None:
        return self.compute_subnet or (f"{self.infra_id}-subnet-compute-{zone}" if self.infra_id else None)

    def security_group_names(self) -> tuple[str, ...] | None:
        if self.security_groups is not None:
            return tuple(self.security_groups)
        if self.infra_id is None:
            return None
        return (f"{self.infra_id}-sg-cluster-wide", f"{self.infra_id}-sg-openshift-net")

    def image_name(self) -> str | None:
        return self.image or (f"{self.infra_id}-rhcos" if self.infra_id else None)


class JoinConfig(ConfigModel):
    """How created nodes join the cluster (``nodes.source: join``)."""

    ignition: Literal["cluster", "secret"] = "cluster"
    """OpenShift: the worker ignition is read from the cluster's ``openshift-machine-api/worker-user-data``
    secret (``cluster``), or taken from the ``gpu-cluster:workerIgnition`` secret (``secret``)."""
    kubeadm_endpoint: Annotated[str, Field(pattern=r"^[A-Za-z0-9.-]+:[0-9]{1,5}$")] | None = None
    """``kubernetes.openshift: false``: the API server ``host:port`` that ``kubeadm join`` contacts; the
    token and CA hash are the secrets ``gpu-cluster:kubeadmToken`` and ``gpu-cluster:kubeadmCaCertHash``."""
    approve_csrs: bool = False
    """Let ``gpu-cluster approve-csrs STACK`` approve the pending CSRs of exactly these nodes."""


RolloutConsent = Annotated[str, Field(pattern=r"^rollout-[0-9a-f]{8}$")]
"""Consent to one roll-out: its id, as the preview prints it (``components.plan.stops.rollout_id``)."""


def _consent(value: Any) -> Any:
    """``allow_instance_stop`` as one line when it is not a consent: the union alone would say one line per
    member (``.bool: ...``, ``.constrained-str: ...``), neither showing the form the preview prints."""
    if isinstance(value, bool) or (isinstance(value, str) and re.fullmatch(r"rollout-[0-9a-f]{8}", value)):
        return value
    raise PydanticCustomError(
        "gpu_cluster",
        "{shown} is not a consent: set true (the stack's first roll-out) or the roll-out's id exactly as the "
        "preview prints it, rollout- and 8 lowercase hex digits (e.g. rollout-0a1b2c3d)",
        {"shown": repr(value)[:80]},
    )


StopConsent = Annotated[bool | RolloutConsent, BeforeValidator(_consent)]
"""``nodes.allow_instance_stop``: ``true`` (the stack's first roll-out) or one roll-out's id."""
