"""The pods of a training or benchmark job, as pure functions of a ``PodLayout``.

One pod per node, holding all of the node's GPUs (``nproc_per_node`` of them):

* the Multus annotation lists the fabric's NADs with ``interface: netN`` spelled out, in
  the order of ``NCCL_SOCKET_IFNAME``;
* ``bash /mnt/workloads/entrypoint.sh`` starts torchrun; its environment contract is
  documented in ``workloads/launch.py`` (which entrypoint.sh execs) and ``docs/training.md``;
* volumes: in-memory ``/dev/shm``, the workload files, config.json, the storage claim
  (the working directory) and, with the IP-mapping mechanism, the mapping ConfigMap;
* capabilities: ``IPC_LOCK`` with RDMA (memory registration), ``NET_ADMIN`` only when
  the fabric's IP mechanism rewrites pod addresses; every other capability dropped,
  never privileged.  CRI-O gives added capabilities to UID 0 only (no ambient
  capabilities), so pods that need one run as root.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from components.plan.specs import PodLayout
from components.plan.wiring import PodNetworkWiring

MULTUS_ANNOTATION = "k8s.v1.cni.cncf.io/networks"
WORKLOADS_MOUNT = "/mnt/workloads"
CONFIG_MOUNT = "/mnt/config"
MAPPING_MOUNT = "/mnt/nic-mapping"
ENTRYPOINT = ("bash", f"{WORKLOADS_MOUNT}/entrypoint.sh")
CONFIG_FILE = "config.json"
CONTAINER = "pytorch"
"""The Kubeflow training operator only injects its environment into a container of this name."""
PYTORCHJOB_PORT = "pytorchjob-port"
"""The port name the operator reads MASTER_PORT from."""
GPU_RESOURCE = "nvidia.com/gpu"
SCC_VOLUMES = ("configMap", "emptyDir", "persistentVolumeClaim")
"""Exactly the volume types the pods use (no service-account token: pods don't call the API)."""

Role = Literal["master", "worker", "leader"]


def multus_annotation(wiring: PodNetworkWiring) -> str | None:
    """The networks annotation, each NAD pinned to its ``netN`` so the order cannot drift."""
    if not wiring.networks:
        return None
    return json.dumps(
        [
            {"name": network, "namespace": wiring.namespace, "interface": interface}
            for network, interface in zip(wiring.networks, wiring.interfaces, strict=True)
        ]
    )


def job_labels(job_name: str, component: str) -> dict[str, str]:
    return {
        "app.kubernetes.io/part-of": "gpu-cluster",
        "app.kubernetes.io/instance": job_name,
        "app.kubernetes.io/component": component,
        "app.kubernetes.io/managed-by": "pulumi",
    }


def _value(name: str, value: str) -> dict[str, Any]:
    return {"name": name, "value": value}


def _nnodes(layout: PodLayout) -> str:
    return f"{layout.elastic.min_nodes}:{layout.nodes}" if layout.elastic else str(layout.nodes)


def _env(layout: PodLayout, program_env: Mapping[str, str]) -> list[dict[str, Any]]:
    wiring = layout.wiring
    env = [
        {"name": "NODE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "spec.nodeName"}}},
        _value("GPU_CLUSTER_VARIANT", wiring.variant),
        _value("GPU_CLUSTER_WORKLOADS", WORKLOADS_MOUNT),
        _value("CONFIG_JSON_PATH", f"{CONFIG_MOUNT}/{CONFIG_FILE}"),
    ]
    if wiring.ip_mapping_configmap:
        env.append(_value("GPU_CLUSTER_IP_MAPPING", f"{MAPPING_MOUNT}/{wiring.ip_mapping_key}"))
    if wiring.rdma:
        env.append(_value("GPU_CLUSTER_RDMA", "1"))
    env += [_value(name, value) for name, value in program_env.items()]
    # The operator sets PET_NNODES/PET_NPROC_PER_NODE too; these are the fallbacks the
    # entrypoint reads under a LeaderWorkerSet, which sets neither.
    env += [_value("NNODES", _nnodes(layout)), _value("NPROC_PER_NODE", str(layout.nproc_per_node))]
    if layout.kind == "leaderworkerset":
        env.append(_value("MASTER_PORT", str(layout.master_port)))  # the operator sets it for PyTorchJob
    env += [_value(name, value) for name, value in sorted(layout.nccl_env.items())]
    env += [_value(name, value) for name, value in sorted(layout.env.items())]
    return env


def _resources(layout: PodLayout) -> dict[str, Any]:
    # Extended resources (GPUs, RDMA devices, VFs) cannot be overcommitted: request == limit.
    extended = {GPU_RESOURCE: str(layout.nproc_per_node)}
    extended |= {name: str(count) for name, count in sorted(layout.wiring.extended_resources.items())}
    limits = dict(extended)
    if layout.resources.cpu_limit:
        limits["cpu"] = layout.resources.cpu_limit
    if layout.resources.memory_limit:
        limits["memory"] = layout.resources.memory_limit
    requests = {"cpu": layout.resources.cpu, "memory": layout.resources.memory, **extended}
    return {"limits": limits, "requests": requests}


def _volumes(layout: PodLayout, config_map: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    volumes: list[dict[str, Any]] = [
        {"name": "shm", "emptyDir": {"medium": "Memory", "sizeLimit": layout.shm_size}},
        {"name": "workloads", "configMap": {"name": layout.workloads_config_map}},
        {"name": "config", "configMap": {"name": config_map}},
        {"name": "storage", "persistentVolumeClaim": {"claimName": layout.storage_claim}},
    ]
    mounts: list[dict[str, Any]] = [
        {"name": "shm", "mountPath": "/dev/shm"},
        {"name": "workloads", "mountPath": WORKLOADS_MOUNT, "readOnly": True},
        {"name": "config", "mountPath": CONFIG_MOUNT, "readOnly": True},
        {"name": "storage", "mountPath": layout.storage_mount},
    ]
    if layout.wiring.ip_mapping_configmap:
        volumes.append({"name": "nic-mapping", "configMap": {"name": layout.wiring.ip_mapping_configmap}})
        mounts.append({"name": "nic-mapping", "mountPath": MAPPING_MOUNT, "readOnly": True})
    return volumes, mounts


def pod_template(
    layout: PodLayout, *, job_name: str, component: str, role: Role, config_map: str, program_env: Mapping[str, str]
) -> dict[str, Any]:
    """The pod template of every replica of a job (master, workers, LWS leader and workers)."""
    labels = job_labels(job_name, component)
    metadata: dict[str, Any] = {"labels": {**labels, "gpu-cluster.io/role": role}}
    annotation = multus_annotation(layout.wiring)
    if annotation:
        metadata["annotations"] = {MULTUS_ANNOTATION: annotation}
    capabilities = layout.capabilities
    volumes, mounts = _volumes(layout, config_map)
    port_name = PYTORCHJOB_PORT if layout.kind == "pytorchjob" else "rendezvous"
    container: dict[str, Any] = {
        "name": CONTAINER,
        "image": layout.image,
        "imagePullPolicy": layout.image_pull_policy,
        "command": list(ENTRYPOINT),
        "workingDir": layout.storage_mount,
        "env": _env(layout, program_env),
        "ports": [{"name": port_name, "containerPort": layout.master_port, "protocol": "TCP"}],
        "resources": _resources(layout),
        "securityContext": {
            "privileged": False,
            "allowPrivilegeEscalation": False,
            "capabilities": {"drop": ["ALL"], **({"add": list(capabilities)} if capabilities else {})},
        },
        "volumeMounts": mounts,
    }
    pod_security: dict[str, Any] = {"seccompProfile": {"type": "RuntimeDefault"}}
    if capabilities:
        pod_security["runAsUser"] = 0  # added capabilities are only effective for root under CRI-O
    spec: dict[str, Any] = {
        "serviceAccountName": layout.service_account,
        "automountServiceAccountToken": False,
        "securityContext": pod_security,
        "tolerations": [{"key": GPU_RESOURCE, "operator": "Exists", "effect": "NoSchedule"}],
        "affinity": {
            "podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {
                        "labelSelector": {"matchLabels": {"app.kubernetes.io/instance": job_name}},
                        "topologyKey": "kubernetes.io/hostname",
                    }
                ]
            }
        },
        "containers": [container],
        "volumes": volumes,
    }
    return {"metadata": metadata, "spec": spec}


def job_manifest(
    layout: PodLayout, *, name: str, component: str, config_map: str, program_env: Mapping[str, str]
) -> dict[str, Any]:
    """The PyTorchJob, or the LeaderWorkerSet, running ``program_env``'s program on every node."""
    metadata = {"name": name, "namespace": layout.namespace, "labels": job_labels(name, component)}

    def template(role: Role) -> dict[str, Any]:
        return pod_template(
            layout, job_name=name, component=component, role=role, config_map=config_map, program_env=program_env
        )

    if layout.kind == "leaderworkerset":
        return {
            "apiVersion": "leaderworkerset.x-k8s.io/v1",
            "kind": "LeaderWorkerSet",
            "metadata": metadata,
            "spec": {
                "replicas": 1,
                "startupPolicy": "LeaderCreated",
                "leaderWorkerTemplate": {
                    "size": layout.nodes,
                    "restartPolicy": "RecreateGroupOnPodRestart",
                    "leaderTemplate": template("leader"),
                    "workerTemplate": template("worker"),
                },
            },
        }
    replicas: dict[str, Any] = {
        "Master": {"replicas": 1, "restartPolicy": layout.restart_policy, "template": template("master")}
    }
    if layout.nodes > 1:
        replicas["Worker"] = {
            "replicas": layout.nodes - 1,
            "restartPolicy": layout.restart_policy,
            "template": template("worker"),
        }
    spec: dict[str, Any] = {
        "nprocPerNode": str(layout.nproc_per_node),
        # cleanPodPolicy None keeps finished pods, and with them the logs of the run.
        "runPolicy": {"backoffLimit": layout.backoff_limit, "cleanPodPolicy": "None"},
        "pytorchReplicaSpecs": replicas,
    }
    if layout.elastic:
        spec["elasticPolicy"] = {
            "minReplicas": layout.elastic.min_nodes,
            "maxReplicas": layout.nodes,
            "maxRestarts": layout.elastic.max_restarts,
            "rdzvBackend": "c10d",
        }
    return {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": metadata, "spec": spec}


def config_map_manifest(
    name: str, namespace: str, data: Mapping[str, str], labels: Mapping[str, str]
) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name, "namespace": namespace, "labels": dict(labels)},
        "data": dict(data),
    }
