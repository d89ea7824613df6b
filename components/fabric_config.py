"""Config of the Kubernetes layer: the target cluster and its secondary networks.

(Stub: extended by the fabric work; the fields below are the agreed contract.)
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["FabricConfig", "KubernetesConfig"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class KubernetesConfig(_Frozen):
    """The cluster the training runs on."""

    context: str | None = None
    """kubeconfig context; the kubeconfig itself is the secret ``gpu-cluster:kubeconfig``, or the ambient one."""
    namespace: str = "gpu-training"
    openshift: bool = True


class FabricConfig(_Frozen):
    """How secondary NICs reach the training pods."""

    attachment: Literal["host-device", "macvlan", "sriov-operator"] | None = None
    ip_assignment: Literal["mapping", "dhcp"] = "mapping"
