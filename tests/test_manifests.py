"""Strict manifest validation: valid examples pass, targeted mistakes fail by path."""

from __future__ import annotations

import copy
import filecmp
import importlib.util
import json
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import pytest

from . import manifests
from .manifests import (
    DEFAULT_K8S_VERSION,
    known_custom_kinds,
    validate_all,
    validate_cni_config,
    validate_manifest,
)

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SHARED_CRDS = PROJECT_ROOT.parent / "shared" / "crds"

# --------------------------------------------------------------------------
# Valid examples
# --------------------------------------------------------------------------

WHEREABOUTS_HOST_DEVICE = {
    "cniVersion": "0.3.1",
    "name": "h100-rdma-0",
    "type": "host-device",
    "ipam": {
        "type": "whereabouts",
        "range": "10.240.64.0/24",
        "range_start": "10.240.64.10",
        "range_end": "10.240.64.200",
        "exclude": ["10.240.64.0/30"],
    },
}


def nad(config: dict[str, Any] | str = WHEREABOUTS_HOST_DEVICE) -> dict[str, Any]:
    return {
        "apiVersion": "k8s.cni.cncf.io/v1",
        "kind": "NetworkAttachmentDefinition",
        "metadata": {
            "name": "h100-rdma-0",
            "namespace": "training",
            "annotations": {"k8s.v1.cni.cncf.io/resourceName": "nvidia.com/hostdev_rdma0"},
        },
        "spec": {"config": config if isinstance(config, str) else json.dumps(config)},
    }


def sriov_node_policy() -> dict[str, Any]:
    return {
        "apiVersion": "sriovnetwork.openshift.io/v1",
        "kind": "SriovNetworkNodePolicy",
        "metadata": {
            "name": "mlx-rdma",
            "namespace": "openshift-sriov-network-operator",
        },
        "spec": {
            "resourceName": "mlxrdma",
            "nodeSelector": {"feature.node.kubernetes.io/network-sriov.capable": "true"},
            "numVfs": 8,
            "priority": 99,
            "mtu": 9000,
            "nicSelector": {"vendor": "15b3", "pfNames": ["ens1f0np0"]},
            "deviceType": "netdevice",
            "isRdma": True,
            "linkType": "eth",
        },
    }


def sriov_network() -> dict[str, Any]:
    ipam = {"type": "whereabouts", "range": "192.168.100.0/24"}
    return {
        "apiVersion": "sriovnetwork.openshift.io/v1",
        "kind": "SriovNetwork",
        "metadata": {
            "name": "mlx-rdma-net",
            "namespace": "openshift-sriov-network-operator",
        },
        "spec": {
            "resourceName": "mlxrdma",
            "networkNamespace": "training",
            "ipam": json.dumps(ipam),
            "vlan": 0,
            "spoofChk": "off",
            "trust": "on",
            "linkState": "auto",
        },
    }


def nic_cluster_policy() -> dict[str, Any]:
    device_config = {
        "configList": [
            {
                "resourceName": "rdma_shared_device_a",
                "rdmaHcaMax": 63,
                "selectors": {"vendors": ["15b3"], "ifNames": ["ens1f0np0"]},
            }
        ]
    }
    return {
        "apiVersion": "mellanox.com/v1alpha1",
        "kind": "NicClusterPolicy",
        "metadata": {"name": "nic-cluster-policy"},
        "spec": {
            "rdmaSharedDevicePlugin": {
                "image": "k8s-rdma-shared-dev-plugin",
                "repository": "ghcr.io/mellanox",
                "version": "v1.5.3",
                "config": json.dumps(device_config),
            },
            "secondaryNetwork": {
                "multus": {
                    "image": "multus-cni",
                    "repository": "ghcr.io/k8snetworkplumbingwg",
                    "version": "v4.1.0",
                },
            },
        },
    }


def machine_config() -> dict[str, Any]:
    return {
        "apiVersion": "machineconfiguration.openshift.io/v1",
        "kind": "MachineConfig",
        "metadata": {
            "name": "99-worker-iommu",
            "labels": {"machineconfiguration.openshift.io/role": "worker"},
        },
        "spec": {
            "kernelArguments": ["intel_iommu=on", "iommu=pt"],
            # spec.config is preserve-unknown-fields: anything Ignition goes.
            "config": {"ignition": {"version": "3.2.0"}, "storage": {"files": []}},
        },
    }


CLUSTER_POLICY_SECTIONS = (
    "daemonsets",
    "dcgm",
    "dcgmExporter",
    "devicePlugin",
    "driver",
    "gfd",
    "nodeStatusExporter",
    "operator",
    "toolkit",
)


def gpu_cluster_policy() -> dict[str, Any]:
    spec: dict[str, Any] = {section: {} for section in CLUSTER_POLICY_SECTIONS}
    spec["operator"] = {"defaultRuntime": "crio", "use_ocp_driver_toolkit": True}
    spec["driver"] = {"enabled": True, "rdma": {"enabled": True, "useHostMofed": False}}
    spec["dcgmExporter"] = {"enabled": True, "serviceMonitor": {"enabled": True}}
    return {
        "apiVersion": "nvidia.com/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": "gpu-cluster-policy"},
        "spec": spec,
    }


def trainer_pod_template(role: str) -> dict[str, Any]:
    return {
        "metadata": {
            "labels": {"role": role},
            "annotations": {"k8s.v1.cni.cncf.io/networks": "training/h100-rdma-0"},
        },
        "spec": {
            "containers": [
                {
                    "name": "pytorch",
                    "image": "nvcr.io/nvidia/pytorch:24.05-py3",
                    "imagePullPolicy": "IfNotPresent",
                    "command": ["/bin/bash", "/opt/entrypoint/run.sh"],
                    "env": [{"name": "NCCL_IB_HCA", "value": "mlx5"}],
                    "ports": [{"containerPort": 29500, "name": "pytorchjob-port"}],
                    "resources": {
                        # Quantities are int-or-string.
                        "limits": {
                            "nvidia.com/gpu": 8,
                            "nvidia.com/hostdev_rdma0": "1",
                            "memory": "512Gi",
                        },
                    },
                    "securityContext": {"capabilities": {"add": ["IPC_LOCK"]}},
                    "volumeMounts": [{"name": "dshm", "mountPath": "/dev/shm"}],
                }
            ],
            "volumes": [{"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "64Gi"}}],
        },
    }


def pytorch_job() -> dict[str, Any]:
    return {
        "apiVersion": "kubeflow.org/v1",
        "kind": "PyTorchJob",
        "metadata": {"name": "nccl-allreduce", "namespace": "training"},
        "spec": {
            "nprocPerNode": "8",
            "runPolicy": {"cleanPodPolicy": "None", "backoffLimit": 0},
            "pytorchReplicaSpecs": {
                "Master": {
                    "replicas": 1,
                    "restartPolicy": "Never",
                    "template": trainer_pod_template("master"),
                },
                "Worker": {
                    "replicas": 3,
                    "restartPolicy": "Never",
                    "template": trainer_pod_template("worker"),
                },
            },
        },
    }


def leader_worker_set() -> dict[str, Any]:
    return {
        "apiVersion": "leaderworkerset.x-k8s.io/v1",
        "kind": "LeaderWorkerSet",
        "metadata": {"name": "trainer", "namespace": "training"},
        "spec": {
            "replicas": 1,
            "leaderWorkerTemplate": {
                "size": 4,
                "restartPolicy": "RecreateGroupOnPodRestart",
                "workerTemplate": trainer_pod_template("worker"),
            },
        },
    }


def config_map() -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "entrypoint", "namespace": "training"},
        "data": {"run.sh": '#!/bin/bash\nexec torchrun "$@"\n'},
    }


def service_account() -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "ServiceAccount",
        "metadata": {"name": "trainer", "namespace": "training"},
        "automountServiceAccountToken": False,
    }


def scc() -> dict[str, Any]:
    return {
        "apiVersion": "security.openshift.io/v1",
        "kind": "SecurityContextConstraints",
        "metadata": {"name": "trainer-rdma"},
        "allowPrivilegedContainer": False,
        "allowHostDirVolumePlugin": False,
        "allowHostIPC": False,
        "allowHostNetwork": False,
        "allowHostPID": False,
        "allowHostPorts": False,
        "readOnlyRootFilesystem": False,
        "priority": None,
        "allowedCapabilities": ["IPC_LOCK", "SYS_RESOURCE"],
        "defaultAddCapabilities": None,
        "requiredDropCapabilities": ["MKNOD"],
        "runAsUser": {"type": "RunAsAny"},
        "seLinuxContext": {"type": "MustRunAs"},
        "fsGroup": {"type": "RunAsAny"},
        "supplementalGroups": {"type": "RunAsAny"},
        "volumes": [
            "configMap",
            "emptyDir",
            "secret",
            "projected",
            "persistentVolumeClaim",
        ],
        "users": ["system:serviceaccount:training:trainer"],
        "groups": [],
    }


def role_binding() -> dict[str, Any]:
    return {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "RoleBinding",
        "metadata": {"name": "trainer-scc", "namespace": "training"},
        "roleRef": {
            "apiGroup": "rbac.authorization.k8s.io",
            "kind": "ClusterRole",
            "name": "use-scc",
        },
        "subjects": [{"kind": "ServiceAccount", "name": "trainer", "namespace": "training"}],
    }


VALID_EXAMPLES = {
    "nad-host-device-whereabouts": nad,
    "sriov-node-policy": sriov_node_policy,
    "sriov-network": sriov_network,
    "nic-cluster-policy": nic_cluster_policy,
    "machine-config": machine_config,
    "gpu-cluster-policy": gpu_cluster_policy,
    "pytorch-job": pytorch_job,
    "leader-worker-set": leader_worker_set,
    "config-map": config_map,
    "service-account": service_account,
    "scc": scc,
    "role-binding": role_binding,
}


def with_change(obj: dict[str, Any], path: str, value: Any = None, *, delete: bool = False) -> dict[str, Any]:
    """Deep copy of ``obj`` with the dotted ``path`` set (or deleted)."""
    changed = copy.deepcopy(obj)
    *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
    node: Any = changed
    for part in parents:
        node = node[part]
    if delete:
        del node[last]
    else:
        node[last] = value
    return changed


@pytest.mark.parametrize("name", sorted(VALID_EXAMPLES))
def test_valid_examples_pass(name: str) -> None:
    assert validate_manifest(VALID_EXAMPLES[name]()) == []


# --------------------------------------------------------------------------
# Invalid examples: each must fail with an error naming the bad path
# --------------------------------------------------------------------------

WORKER_CONTAINER = "spec.pytorchReplicaSpecs.Worker.template.spec.containers.0"

INVALID_CASES = [
    # Unknown fields at several depths.
    ("root", with_change(sriov_network(), "spex", {}), "spex: unknown field"),
    (
        "metadata",
        with_change(config_map(), "metadata.lables", {"a": "b"}),
        "metadata.lables: unknown field",
    ),
    (
        "crd metadata",
        with_change(machine_config(), "metadata.lables", {}),
        "metadata.lables: unknown field",
    ),
    (
        "spec",
        with_change(sriov_node_policy(), "spec.numVFs", 8),
        "spec.numVFs: unknown field",
    ),
    (
        "nested selector",
        with_change(sriov_node_policy(), "spec.nicSelector.pfName", ["ens1f0"]),
        "spec.nicSelector.pfName: unknown field",
    ),
    (
        "pod template in PyTorchJob",
        with_change(pytorch_job(), f"{WORKER_CONTAINER}.imagePullPolicyy", "Always"),
        "spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].imagePullPolicyy: unknown field",
    ),
    (
        "pod template in LWS",
        with_change(
            leader_worker_set(),
            "spec.leaderWorkerTemplate.workerTemplate.spec.hostNetwrk",
            True,
        ),
        "spec.leaderWorkerTemplate.workerTemplate.spec.hostNetwrk: unknown field",
    ),
    (
        "beside preserve-unknown",
        with_change(machine_config(), "spec.kernelArgs", ["iommu=pt"]),
        "spec.kernelArgs: unknown field",
    ),
    (
        "nic policy",
        with_change(nic_cluster_policy(), "spec.rdmaSharedDevicePlugin.configs", "{}"),
        "spec.rdmaSharedDevicePlugin.configs: unknown field",
    ),
    (
        "scc",
        with_change(scc(), "allowHostNetworking", True),
        "allowHostNetworking: unknown field",
    ),
    (
        "scc nested",
        with_change(scc(), "runAsUser.uidMin", 1000),
        "runAsUser.uidMin: unknown field",
    ),
    (
        "core nested",
        with_change(role_binding(), "subjects.0.namespce", "x"),
        "subjects[0].namespce: unknown field",
    ),
    (
        "service account",
        with_change(service_account(), "automountToken", True),
        "automountToken: unknown field",
    ),
    # Wrong types.
    (
        "int as string",
        with_change(sriov_node_policy(), "spec.numVfs", "8"),
        "spec.numVfs: '8' is not of type 'integer'",
    ),
    (
        "bool as string",
        with_change(sriov_node_policy(), "spec.isRdma", "true"),
        "spec.isRdma: 'true' is not of type",
    ),
    (
        "NAD config object",
        with_change(nad(), "spec.config", WHEREABOUTS_HOST_DEVICE),
        "spec.config: {",
    ),
    (
        "core type",
        with_change(config_map(), "data.replicas", 3),
        "data.replicas: 3 is not of type",
    ),
    (
        "int-or-string rejects list",
        with_change(pytorch_job(), f"{WORKER_CONTAINER}.resources.limits.memory", ["1Gi"]),
        "spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].resources.limits.memory:",
    ),
    ("scc type", with_change(scc(), "priority", "10"), "priority: '10' is not of type"),
    # Bad enums.
    (
        "deviceType",
        with_change(sriov_node_policy(), "spec.deviceType", "netdev"),
        "spec.deviceType: 'netdev' is not one of",
    ),
    (
        "spoofChk",
        with_change(sriov_network(), "spec.spoofChk", "yes"),
        "spec.spoofChk: 'yes' is not one of",
    ),
    (
        "lws restartPolicy",
        with_change(leader_worker_set(), "spec.leaderWorkerTemplate.restartPolicy", "Always"),
        "spec.leaderWorkerTemplate.restartPolicy: 'Always' is not one of",
    ),
    (
        "scc strategy",
        with_change(scc(), "runAsUser.type", "MustRunAsAny"),
        "runAsUser.type: 'MustRunAsAny' is not one of",
    ),
    (
        "scc volume",
        with_change(scc(), "volumes.0", "configmap"),
        "volumes[0]: 'configmap' is not one of",
    ),
    # Missing required fields.
    (
        "policy resourceName",
        with_change(sriov_node_policy(), "spec.resourceName", delete=True),
        "spec.resourceName: required field is missing",
    ),
    (
        "cluster policy section",
        with_change(gpu_cluster_policy(), "spec.toolkit", delete=True),
        "spec.toolkit: required field is missing",
    ),
    (
        "rdma plugin image",
        with_change(nic_cluster_policy(), "spec.rdmaSharedDevicePlugin.image", delete=True),
        "spec.rdmaSharedDevicePlugin.image: required field is missing",
    ),
    (
        "pytorch replica specs",
        with_change(pytorch_job(), "spec.pytorchReplicaSpecs", delete=True),
        "spec.pytorchReplicaSpecs: required field is missing",
    ),
    (
        "scc priority",
        with_change(scc(), "priority", delete=True),
        "priority: required field is missing",
    ),
    (
        "core roleRef name",
        with_change(role_binding(), "roleRef.name", delete=True),
        "roleRef.name: required field is missing",
    ),
    # Metadata typing.
    (
        "namespace format",
        with_change(sriov_network(), "metadata.namespace", "Bad_NS"),
        "metadata.namespace: 'Bad_NS' does not match",
    ),
    (
        "label value type",
        with_change(pytorch_job(), "metadata.labels", {"team": 7}),
        "metadata.labels.team: 7 is not of type",
    ),
    # NAD CNI config.
    ("NAD not JSON", nad("{cniVersion: 0.3.1"), "spec.config: not valid JSON"),
    (
        "NAD bad CIDR",
        nad(
            {
                **WHEREABOUTS_HOST_DEVICE,
                "ipam": {"type": "whereabouts", "range": "10.240.64.0/33"},
            }
        ),
        "spec.config.ipam.range: '10.240.64.0/33' is not a valid CIDR",
    ),
]


@pytest.mark.parametrize(
    ("obj", "expected"),
    [pytest.param(obj, expected, id=case) for case, obj, expected in INVALID_CASES],
)
def test_invalid_examples_fail_naming_the_path(obj: dict[str, Any], expected: str) -> None:
    errors = validate_manifest(obj)
    assert any(error.startswith(expected) for error in errors), errors


def test_unknown_kind_is_an_error_not_a_pass() -> None:
    for obj in (
        {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}},
        # A known group at an unshipped version.
        with_change(pytorch_job(), "apiVersion", "kubeflow.org/v2"),
        # A built-in kind name under a foreign group must not borrow apps/v1.
        {
            "apiVersion": "apps.example.com/v1",
            "kind": "Deployment",
            "metadata": {"name": "d"},
        },
        # A built-in group with a kind it does not serve.
        {"apiVersion": "v1", "kind": "PyTorchJob", "metadata": {"name": "p"}},
    ):
        errors = validate_manifest(obj)
        assert len(errors) == 1 and "no schema for" in errors[0], errors


def test_missing_type_fields_and_non_mappings_are_errors() -> None:
    assert validate_manifest({"metadata": {"name": "x"}}) == ["<root>: apiVersion and kind must both be set to strings"]
    assert validate_manifest(["not", "a", "manifest"]) != []  # type: ignore[arg-type]


def test_all_errors_reported_not_just_the_first() -> None:
    broken = with_change(sriov_node_policy(), "spec.numVfs", "8")
    broken = with_change(broken, "spec.deviceType", "netdev")
    broken = with_change(broken, "spec.extra", 1)
    errors = validate_manifest(broken)
    assert [e.split(":")[0] for e in errors] == [
        "spec.deviceType",
        "spec.extra",
        "spec.numVfs",
    ]


# --------------------------------------------------------------------------
# Kubernetes schema semantics
# --------------------------------------------------------------------------


def test_nullable_and_preserve_unknown_fields_are_honoured() -> None:
    assert validate_manifest(with_change(machine_config(), "spec.kernelArguments", None)) == []
    free_form = with_change(machine_config(), "spec.config.anything", {"goes": ["here"]})
    assert validate_manifest(free_form) == []
    # nullable only where declared:
    assert validate_manifest(with_change(sriov_node_policy(), "spec.numVfs", None)) != []


def test_int_or_string_accepts_both() -> None:
    for quantity, port in ((8, 29500), ("8", "pytorchjob-port")):
        job = pytorch_job()
        container = job["spec"]["pytorchReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]
        container["resources"]["limits"]["nvidia.com/gpu"] = quantity
        container["readinessProbe"] = {"tcpSocket": {"port": port}}
        assert validate_manifest(job) == [], (quantity, port)


def test_strict_transform_leaves_junctors_open_and_knows_embedded_resources() -> None:
    schema = {
        "type": "object",
        "properties": {
            "size": {"x-kubernetes-int-or-string": True},
            "raw": {
                "type": "object",
                "x-kubernetes-embedded-resource": True,
                "properties": {"spec": {"type": "object"}},
            },
            "either": {
                "type": "object",
                "properties": {"a": {}, "b": {}},
                "anyOf": [{"properties": {"a": {}}}],
            },
        },
    }
    strict = manifests._strict_copy(schema)
    assert strict["additionalProperties"] is False
    assert "additionalProperties" not in strict["properties"]["either"]["anyOf"][0]
    validator = jsonschema.Draft7Validator(strict)
    assert validator.is_valid({"size": 3}) and validator.is_valid({"size": "3"})
    assert not validator.is_valid({"size": 3.5})
    assert validator.is_valid({"raw": {"apiVersion": "v1", "kind": "Pod", "metadata": {}, "spec": {}}})
    assert not validator.is_valid({"raw": {"spec": {}, "status": {}}})
    assert validator.is_valid({"either": {"a": 1, "b": 2}})


def test_builtin_kinds_agree_with_kubernetes_validate() -> None:
    for obj, should_pass in (
        (config_map(), True),
        (service_account(), True),
        (role_binding(), True),
        (with_change(config_map(), "datta", {}), False),
        (with_change(role_binding(), "roleRef.name", delete=True), False),
    ):
        try:
            kubernetes_validate.validate(obj, DEFAULT_K8S_VERSION, strict=True)
            reference_passes = True
        except kubernetes_validate.ValidationError:
            reference_passes = False
        assert reference_passes is should_pass
        assert (validate_manifest(obj) == []) is should_pass


def test_kubernetes_version_is_a_parameter() -> None:
    # Pod-level resources appeared in the Kubernetes 1.32 API.
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "p"},
        "spec": {
            "containers": [{"name": "c", "image": "i"}],
            "resources": {"limits": {"cpu": "1"}},
        },
    }
    assert validate_manifest(pod, "1.31") == ["spec.resources: unknown field"]
    assert validate_manifest(pod, "1.32.0") == []
    with pytest.raises(ValueError, match="no schemas for Kubernetes"):
        validate_manifest(config_map(), "1.99")


def test_validate_all_labels_every_object() -> None:
    results = validate_all([config_map(), config_map(), with_change(sriov_network(), "spec.vlan", 5000)])
    assert results == {
        "v1/ConfigMap training/entrypoint": [],
        "v1/ConfigMap training/entrypoint #2": [],
        "sriovnetwork.openshift.io/v1/SriovNetwork openshift-sriov-network-operator/mlx-rdma-net": [
            "spec.vlan: 5000 is greater than the maximum of 4096"
        ],
    }


# --------------------------------------------------------------------------
# CNI config inside NADs
# --------------------------------------------------------------------------


def cni(**overrides: Any) -> str:
    return json.dumps({**WHEREABOUTS_HOST_DEVICE, **overrides})


@pytest.mark.parametrize(
    "config",
    [
        cni(),
        cni(ipam={}),  # L2 only
        cni(
            type="macvlan",
            master="ens3",
            mode="bridge",
            ipam={"type": "whereabouts", "range": "10.1.0.10-10.1.0.20/24"},
        ),
        cni(
            ipam={
                "type": "whereabouts",
                "ipRanges": [{"range": "10.1.0.0/24"}, {"range": "fd00::/64"}],
            }
        ),
        cni(
            type="sriov",
            ipam={
                "type": "static",
                "addresses": [{"address": "10.2.0.5/24", "gateway": "10.2.0.1"}],
            },
        ),
        cni(
            type="ipvlan",
            ipam={
                "type": "host-local",
                "subnet": "10.3.0.0/16",
                "routes": [{"dst": "0.0.0.0/0"}],
            },
        ),
        cni(type="bridge", ipam={"type": "dhcp"}),
        cni(type="sriov", ipam={"type": "nv-ipam", "poolName": "pool1"}),
        json.dumps(
            {
                "cniVersion": "1.0.0",
                "name": "chain",
                "plugins": [
                    {
                        "type": "sriov",
                        "ipam": {"type": "whereabouts", "range": "10.4.0.0/24"},
                    },
                    {
                        "type": "tuning",
                        "sysctl": {"net.ipv4.conf.IFNAME.arp_ignore": "1"},
                    },
                    {"type": "rdma"},
                ],
            }
        ),
    ],
)
def test_valid_cni_configs(config: str) -> None:
    assert validate_cni_config(config) == []


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ("not json", "<root>: not valid JSON"),
        ("[1, 2]", "<root>: expected a JSON object"),
        (
            json.dumps({"name": "x", "type": "macvlan"}),
            "cniVersion: required field is missing",
        ),
        (cni(cniVersion="9.9.9"), "cniVersion: '9.9.9' is not one of"),
        (
            json.dumps({"cniVersion": "0.3.1", "name": "x"}),
            "type: required field is missing",
        ),
        (cni(type="calico"), "type: 'calico' is not one of"),
        (cni(ipam={"type": "magic"}), "ipam.type: 'magic' is not one of"),
        (cni(ipam={"type": "whereabouts"}), "ipam.range: required field is missing"),
        (
            cni(ipam={"type": "whereabouts", "range": "10.0.0.300/24"}),
            "ipam.range: '10.0.0.300/24' is not a valid CIDR",
        ),
        (
            cni(ipam={"type": "whereabouts", "range": "10.0.0.0"}),
            "ipam.range: '10.0.0.0' is not a CIDR",
        ),
        (
            cni(
                ipam={
                    "type": "whereabouts",
                    "range": "10.0.0.0/24",
                    "range_start": "10.0.1.1",
                }
            ),
            "ipam.range_start: 10.0.1.1 is outside range 10.0.0.0/24",
        ),
        (
            cni(
                ipam={
                    "type": "whereabouts",
                    "range": "10.0.0.0/24",
                    "range_end": "nope",
                }
            ),
            "ipam.range_end: 'nope' is not a valid IP address",
        ),
        (
            cni(
                ipam={
                    "type": "whereabouts",
                    "range": "10.0.0.0/24",
                    "exclude": ["10.0.0.0/99"],
                }
            ),
            "ipam.exclude[0]: '10.0.0.0/99' is not a valid CIDR",
        ),
        (
            cni(ipam={"type": "whereabouts", "ipRanges": [{"range": "bad"}]}),
            "ipam.ipRanges[0].range: 'bad' is not a CIDR",
        ),
        (
            cni(ipam={"type": "static", "addresses": [{"address": "10.2.0.5"}]}),
            "ipam.addresses[0].address: '10.2.0.5' is not a CIDR",
        ),
        (
            cni(ipam={"type": "static", "addresses": [{"gateway": "10.2.0.1"}]}),
            "ipam.addresses[0].address: required field",
        ),
        (
            json.dumps({"cniVersion": "1.0.0", "plugins": [{"type": "sriov"}]}),
            "name: required field is missing",
        ),
        (
            json.dumps(
                {
                    "cniVersion": "1.0.0",
                    "name": "c",
                    "plugins": [{"type": "sriov"}, {"type": "flannel"}],
                }
            ),
            "plugins[1].type: 'flannel' is not one of",
        ),
    ],
)
def test_invalid_cni_configs(config: str, expected: str) -> None:
    errors = validate_cni_config(config)
    assert any(error.startswith(expected) for error in errors), errors


# --------------------------------------------------------------------------
# Shipped schemas and the generator
# --------------------------------------------------------------------------

EXPECTED_KINDS = {
    "k8s.cni.cncf.io/v1/NetworkAttachmentDefinition",
    "kubeflow.org/v1/PyTorchJob",
    "kubeflow.org/v1/MPIJob",
    "kubeflow.org/v2beta1/MPIJob",
    "leaderworkerset.x-k8s.io/v1/LeaderWorkerSet",
    "sriovnetwork.openshift.io/v1/SriovNetworkNodePolicy",
    "sriovnetwork.openshift.io/v1/SriovNetwork",
    "sriovnetwork.openshift.io/v1/SriovIBNetwork",
    "sriovnetwork.openshift.io/v1/SriovNetworkPoolConfig",
    "mellanox.com/v1alpha1/NicClusterPolicy",
    "mellanox.com/v1alpha1/HostDeviceNetwork",
    "mellanox.com/v1alpha1/MacvlanNetwork",
    "mellanox.com/v1alpha1/IPoIBNetwork",
    "nvidia.com/v1/ClusterPolicy",
    "machineconfiguration.openshift.io/v1/MachineConfig",
    "kueue.x-k8s.io/v1beta2/ClusterQueue",
    "kueue.x-k8s.io/v1beta2/LocalQueue",
    "kueue.x-k8s.io/v1beta2/ResourceFlavor",
    "whereabouts.cni.cncf.io/v1alpha1/IPPool",
    "trainer.kubeflow.org/v1alpha1/TrainJob",
    "security.openshift.io/v1/SecurityContextConstraints",
}


@pytest.mark.slow
def test_every_shipped_schema_compiles_and_pins_its_kind() -> None:
    kinds = known_custom_kinds()
    assert EXPECTED_KINDS <= set(kinds)
    for key in kinds:
        api_version, _, kind = key.rpartition("/")
        errors = validate_manifest({"apiVersion": api_version, "kind": kind, "metadata": {"name": "x"}})
        # A bare object may miss required fields, but never "no schema" or a type pin.
        assert all("no schema" not in e and not e.startswith(("apiVersion", "kind")) for e in errors), key


def test_schema_files_are_compact_and_description_free() -> None:
    crd_dir = PROJECT_ROOT / "schemas" / "crds"
    files = sorted(crd_dir.glob("*_*.json"))
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert '"description":' not in text, path.name
        assert json.dumps(json.loads(text), sort_keys=True, separators=(",", ":")) + "\n" == text


def load_generator() -> Any:
    spec = importlib.util.spec_from_file_location("gen_crd_schemas", PROJECT_ROOT / "tools" / "gen_crd_schemas.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_strip_descriptions_keeps_a_property_named_description() -> None:
    generator = load_generator()
    schema = {
        "description": "doc",
        "properties": {"description": {"type": "string", "description": "doc"}},
        "items": {"description": "doc", "type": "string"},
        "anyOf": [{"description": "doc"}],
        "enum": [{"description": "data, not a schema"}],
    }
    assert generator.strip_descriptions(schema) == {
        "properties": {"description": {"type": "string"}},
        "items": {"type": "string"},
        "anyOf": [{}],
        "enum": [{"description": "data, not a schema"}],
    }


@pytest.mark.skipif(not SHARED_CRDS.is_dir(), reason="upstream CRDs (../shared/crds) not beside the project")
@pytest.mark.slow
def test_generator_reproduces_committed_schemas(tmp_path: Path) -> None:
    generator = load_generator()
    (tmp_path / "stale_kind_v0.json").write_text("{}\n")  # must be swept away
    generator.generate(SHARED_CRDS, tmp_path)
    committed = PROJECT_ROOT / "schemas" / "crds"
    generated_names = sorted(p.name for p in tmp_path.iterdir())
    assert generated_names == sorted(p.name for p in committed.iterdir())
    match, mismatch, errors = filecmp.cmpfiles(committed, tmp_path, generated_names, shallow=False)
    assert mismatch == [] and errors == []
