"""How a rolling step's provider reaches the HTTP stand-ins (``http_standins.HttpStandIn``) from inside the SDK's
dynamic-provider host, a process of its own: the real REST clients, pointed at the stand-in's URL (the host's
environment names it), on a clock that does not sleep.  Pickled by reference into ``__provider`` in place of
``components.ops.providers.connect_from_props``, which reaches the real IBM Cloud."""

from __future__ import annotations

import os
from typing import Any

from components.ops.ibm_client import IbmInstanceClient
from components.ops.kube_client import KubeClusterClient
from components.ops.rolling import NodeOps
from components.ops.steps import StepProps

from .standins import FakeClock

__all__ = ["STANDIN_URL", "connect_to_standins"]

STANDIN_URL = "GPU_CLUSTER_TEST_STANDIN_URL"


def connect_to_standins(props: dict[str, Any]) -> NodeOps:
    step = StepProps.of(props)
    url = os.environ[STANDIN_URL]
    instances = IbmInstanceClient(step.region, step.ibm_api_key or "", endpoint=url, iam_url=f"{url}/identity/token")
    return NodeOps(instances, KubeClusterClient.connect(step.kubeconfig, step.kube_context), FakeClock(), step.timeouts)
