"""TrainingJob and NcclBenchmark under Pulumi mocks: per-variant pod layout, security and validity."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pulumi
import pytest
from pulumi.runtime import settings as pulumi_settings

from components.k8s.benchmark import NcclBenchmark, NcclBenchmarkArgs, benchmark_manifests
from components.k8s.training import TrainingJob, TrainingJobArgs, WorkloadFiles, training_manifests
from components.manifests.pods import MULTUS_ANNOTATION
from components.models.job_config import JobConfig
from components.plan.nccl import nccl_defaults
from components.plan.plan import job_plan
from components.plan.wiring import PodNetworkWiring
from experiments.offline.simulated_cluster import plan_offline

from ...conftest import RecordingMocks, cluster_config, validation_problems
from ...manifests import validate_manifest

PROJECT_ROOT = Path(__file__).resolve().parents[3]
NAMESPACE = "gpu-training"
FILES = WorkloadFiles(
    files={
        "entrypoint.sh": "#!/usr/bin/env bash\necho entry\n",
        "launch.py": "print('launch')\n",
        "nccl_bench.py": "print('bench')\n",
    }
)

WIRINGS: dict[str, PodNetworkWiring] = {
    "pod": PodNetworkWiring(variant="pod", namespace=NAMESPACE),
    "vnic": PodNetworkWiring(
        variant="vnic",
        namespace=NAMESPACE,
        networks=("t-vnic1", "t-vnic2", "t-vnic3"),
        interfaces=("net1", "net2", "net3"),
        ip_mapping_configmap="t-nic-mapping",
        needs_net_admin=True,
    ),
    "vnic-dhcp": PodNetworkWiring(
        variant="vnic", namespace=NAMESPACE, networks=("t-vnic1", "t-vnic2"), interfaces=("net1", "net2")
    ),
    "sriov": PodNetworkWiring(
        variant="sriov",
        namespace=NAMESPACE,
        networks=("t-cn1",),
        interfaces=("net1",),
        extended_resources={"openshift.io/cnic1": 1},
        ip_mapping_configmap="t-nic-mapping",
        needs_net_admin=True,
    ),
    "sriov-rdma": PodNetworkWiring(
        variant="sriov-rdma",
        namespace=NAMESPACE,
        networks=("t-cn1", "t-cn2"),
        interfaces=("net1", "net2"),
        ip_mapping_configmap="t-nic-mapping",
        ip_mapping_key="mapping.txt",
        needs_net_admin=True,
        rdma=True,
        extended_resources={"rdma/cnic1": 1, "rdma/cnic2": 1},
    ),
    "sriov-rdma-dhcp": PodNetworkWiring(
        variant="sriov-rdma",
        namespace=NAMESPACE,
        networks=("t-cn1",),
        interfaces=("net1",),
        rdma=True,
        extended_resources={"rdma/cnic1": 1},
    ),
}
GPUS = {"pod": 2, "vnic": 2, "vnic-dhcp": 2, "sriov": 8, "sriov-rdma": 8, "sriov-rdma-dhcp": 8}


@dataclass
class Rendered:
    objects: dict[str, dict[str, Any]]
    """Pulumi resource name -> the Kubernetes object as registered."""
    urns: list[str]

    def kind(self, kind: str) -> list[dict[str, Any]]:
        return [obj for obj in self.objects.values() if obj["kind"] == kind]

    def one(self, kind: str) -> dict[str, Any]:
        (found,) = self.kind(kind)
        return found


def training_args(variant: str = "vnic", *, nodes: int = 2, openshift: bool = True, **job: Any) -> TrainingJobArgs:
    config = JobConfig.model_validate(job)
    plan = job_plan(config, WIRINGS[variant], nodes=nodes, gpus_per_node=GPUS[variant])
    return TrainingJobArgs(job=config, layout=plan.layout, scc_name=plan.scc_name, openshift=openshift, files=FILES)


def bench_args(args: TrainingJobArgs, name: str) -> NcclBenchmarkArgs:
    plan = job_plan(args.job, args.layout.wiring, nodes=args.layout.nodes, gpus_per_node=args.layout.nproc_per_node)
    return NcclBenchmarkArgs(
        layout=args.layout, benchmark=args.job.benchmark, name=name, transport=plan.benchmark_transport
    )


def render(mocks: RecordingMocks, args: TrainingJobArgs, *, benchmark: bool = False) -> Rendered:
    @pulumi.runtime.test
    def program() -> None:
        training = TrainingJob("train", args)
        if benchmark:
            NcclBenchmark(
                "bench", bench_args(args, args.job.benchmark_name), opts=pulumi.ResourceOptions(depends_on=[training])
            )

    program()
    objects = {reg.name: dict(reg.inputs) for reg in mocks.registered if reg.typ.startswith("kubernetes:")}
    urns = list(pulumi_settings.get_monitor().get_registered_resources())
    return Rendered(objects=objects, urns=urns)


def workload(rendered: Rendered, name: str = "ilab") -> dict[str, Any]:
    (found,) = [
        obj
        for obj in rendered.objects.values()
        if obj["kind"] in ("PyTorchJob", "LeaderWorkerSet") and obj["metadata"]["name"] == name
    ]
    return found


def templates(job: dict[str, Any]) -> list[dict[str, Any]]:
    if job["kind"] == "PyTorchJob":
        return [spec["template"] for spec in job["spec"]["pytorchReplicaSpecs"].values()]
    lwt = job["spec"]["leaderWorkerTemplate"]
    return [lwt["leaderTemplate"], lwt["workerTemplate"]]


def container(template: dict[str, Any]) -> dict[str, Any]:
    (found,) = template["spec"]["containers"]
    return found


def env_of(template: dict[str, Any]) -> dict[str, Any]:
    return {item["name"]: item.get("value", item.get("valueFrom")) for item in container(template)["env"]}


# --------------------------------------------------------------------------------------
# Validity and structure
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(WIRINGS))
@pytest.mark.parametrize("kind", ["pytorchjob", "leaderworkerset"])
def test_every_object_validates_strictly(mocks: RecordingMocks, variant: str, kind: str) -> None:
    args = training_args(variant, kind=kind, benchmark={"enabled": True}, storage={"storage_class": "ibmc-vpc-file"})
    rendered = render(mocks, args, benchmark=True)
    assert rendered.objects
    for name, obj in rendered.objects.items():
        assert validate_manifest(obj) == [], name


@pytest.mark.parametrize("variant", ["pod", "sriov-rdma"])
def test_registered_objects_are_the_rendered_manifests(mocks: RecordingMocks, variant: str) -> None:
    args = training_args(variant, benchmark={"enabled": True}, enabled=False)
    rendered = render(mocks, args, benchmark=True)
    expected = {f"train-{role}": obj for role, obj in training_manifests(args).items()}
    expected |= {f"bench-{role}": obj for role, obj in benchmark_manifests(bench_args(args, "ilab-nccl-bench")).items()}
    assert rendered.objects == expected


def test_children_have_stable_names_under_their_component(mocks: RecordingMocks) -> None:
    rendered = render(mocks, training_args("sriov-rdma", benchmark={"enabled": True}, enabled=False), benchmark=True)
    assert sorted(rendered.objects) == [
        "bench-config",
        "bench-job",
        "train-config",
        "train-sa",
        "train-scc",
        "train-scc-binding",
        "train-scc-role",
        "train-storage",
        "train-workloads",
    ]
    for urn in rendered.urns:
        name = urn.rsplit("::", 1)[1]
        if name.startswith("train-"):
            assert "gpu-cluster:training:TrainingJob$kubernetes:" in urn
        elif name.startswith("bench-"):
            assert "gpu-cluster:benchmark:NcclBenchmark$kubernetes:" in urn


@pytest.mark.parametrize(("nodes", "workers"), [(1, None), (2, 1), (8, 7)])
def test_pytorchjob_has_one_master_and_a_worker_per_other_node(
    mocks: RecordingMocks, nodes: int, workers: int | None
) -> None:
    job = workload(render(mocks, training_args("vnic", nodes=nodes)))
    replicas = job["spec"]["pytorchReplicaSpecs"]
    assert replicas["Master"]["replicas"] == 1
    assert replicas.get("Worker", {}).get("replicas") == workers
    assert {spec["restartPolicy"] for spec in replicas.values()} == {"Never"}
    assert job["spec"]["runPolicy"] == {"backoffLimit": 0, "cleanPodPolicy": "None"}
    assert "elasticPolicy" not in job["spec"]


@pytest.mark.parametrize(
    ("variant", "nproc", "gpus"), [("vnic", None, "2"), ("sriov-rdma", None, "8"), ("sriov-rdma", 4, "4")]
)
def test_processes_and_gpus_per_node(mocks: RecordingMocks, variant: str, nproc: int | None, gpus: str) -> None:
    job = workload(render(mocks, training_args(variant, nproc_per_node=nproc)))
    assert job["spec"]["nprocPerNode"] == gpus
    for template in templates(job):
        resources = container(template)["resources"]
        assert resources["limits"]["nvidia.com/gpu"] == gpus
        assert resources["requests"]["nvidia.com/gpu"] == gpus
        assert env_of(template)["NPROC_PER_NODE"] == gpus


def test_resources_default_to_the_studys_requests_without_cpu_or_memory_limits(mocks: RecordingMocks) -> None:
    (template, _) = templates(workload(render(mocks, training_args("vnic"))))
    resources = container(template)["resources"]
    assert resources["requests"] == {"cpu": "1", "memory": "10Gi", "nvidia.com/gpu": "2"}
    assert resources["limits"] == {"nvidia.com/gpu": "2"}


def test_configured_limits_are_set(mocks: RecordingMocks) -> None:
    args = training_args("vnic", resources={"cpu": "8", "memory": "64Gi", "cpu_limit": "16", "memory_limit": "200Gi"})
    (template, _) = templates(workload(render(mocks, args)))
    assert container(template)["resources"]["limits"] == {"nvidia.com/gpu": "2", "cpu": "16", "memory": "200Gi"}


@pytest.mark.parametrize("variant", ["sriov", "sriov-rdma"])
def test_device_plugin_resources_are_requested_and_limited(mocks: RecordingMocks, variant: str) -> None:
    wiring = WIRINGS[variant]
    for template in templates(workload(render(mocks, training_args(variant)))):
        resources = container(template)["resources"]
        for name, count in wiring.extended_resources.items():
            assert resources["requests"][name] == resources["limits"][name] == str(count)


# --------------------------------------------------------------------------------------
# Network wiring and NCCL
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["vnic", "vnic-dhcp", "sriov", "sriov-rdma"])
@pytest.mark.parametrize("kind", ["pytorchjob", "leaderworkerset"])
def test_multus_annotation_order_matches_nccl_socket_ifname(mocks: RecordingMocks, variant: str, kind: str) -> None:
    wiring = WIRINGS[variant]
    for template in templates(workload(render(mocks, training_args(variant, kind=kind)))):
        networks = json.loads(template["metadata"]["annotations"][MULTUS_ANNOTATION])
        assert [n["name"] for n in networks] == list(wiring.networks)
        assert {n["namespace"] for n in networks} == {NAMESPACE}
        assert [n["interface"] for n in networks] == env_of(template)["NCCL_SOCKET_IFNAME"].split(",")
        assert [n["interface"] for n in networks] == list(wiring.interfaces)


def test_pod_network_has_no_multus_annotation_and_uses_eth0(mocks: RecordingMocks) -> None:
    for template in templates(workload(render(mocks, training_args("pod")))):
        assert "annotations" not in template["metadata"]
        assert env_of(template)["NCCL_SOCKET_IFNAME"] == "eth0"


@pytest.mark.parametrize("variant", sorted(WIRINGS))
def test_nccl_environment_is_the_variants_table(mocks: RecordingMocks, variant: str) -> None:
    wiring = WIRINGS[variant]
    (template, *_) = templates(workload(render(mocks, training_args(variant))))
    env = env_of(template)
    nccl = {name: value for name, value in env.items() if name.startswith("NCCL_")}
    assert nccl == nccl_defaults(wiring.variant, wiring.interfaces)


def test_nccl_overrides_and_extra_env_reach_the_container(mocks: RecordingMocks) -> None:
    args = training_args(
        "sriov-rdma", nccl_env={"NCCL_IB_GID_INDEX": "5", "NCCL_ALGO": "Ring"}, env={"OMP_NUM_THREADS": "8"}
    )
    env = env_of(templates(workload(render(mocks, args)))[0])
    assert env["NCCL_IB_GID_INDEX"] == "5"
    assert env["NCCL_ALGO"] == "Ring"
    assert env["NCCL_CROSS_NIC"] == "2"
    assert env["OMP_NUM_THREADS"] == "8"


def test_raw_data_is_processed_by_instructlabs_data_step_in_the_pod(mocks: RecordingMocks) -> None:
    plain = env_of(templates(workload(render(mocks, training_args("pod"))))[0])
    assert "GPU_CLUSTER_DATA_MESSAGES" not in plain  # pre-processed data: no data step
    args = training_args("pod", data_process={"messages_path": "raw/messages.jsonl", "max_seq_len": 8192})
    env = env_of(templates(workload(render(mocks, args)))[0])
    assert env["GPU_CLUSTER_DATA_MESSAGES"] == "raw/messages.jsonl"
    assert env["GPU_CLUSTER_DATA_MAX_SEQ_LEN"] == "8192"


def test_environment_contract_of_the_entrypoint(mocks: RecordingMocks) -> None:
    env = env_of(templates(workload(render(mocks, training_args("sriov-rdma"))))[0])
    assert env["NODE_NAME"] == {"fieldRef": {"apiVersion": "v1", "fieldPath": "spec.nodeName"}}
    assert env["GPU_CLUSTER_VARIANT"] == "sriov-rdma"
    assert env["GPU_CLUSTER_RDMA"] == "1"
    assert env["GPU_CLUSTER_IP_MAPPING"] == "/mnt/nic-mapping/mapping.txt"
    assert env["GPU_CLUSTER_WORKLOADS"] == "/mnt/workloads"
    assert env["CONFIG_JSON_PATH"] == "/mnt/config/config.json"
    assert env["TRAINING_MODULE"] == "instructlab.training.main_ds"
    assert env["NNODES"] == "2"
    assert "TRAINING_SCRIPT" not in env and "GPU_CLUSTER_EXPECT_TRANSPORT" not in env
    assert "MASTER_PORT" not in env  # the training operator sets it from the pytorchjob-port


def test_socket_variants_neither_claim_rdma_nor_map_without_a_mapping(mocks: RecordingMocks) -> None:
    env = env_of(templates(workload(render(mocks, training_args("vnic-dhcp"))))[0])
    assert "GPU_CLUSTER_RDMA" not in env and "GPU_CLUSTER_IP_MAPPING" not in env
    assert env["GPU_CLUSTER_VARIANT"] == "vnic"


@pytest.mark.parametrize(("kind", "job_name"), [("leaderworkerset", "ilab"), ("pytorchjob", "ilab-nccl-bench")])
def test_every_variable_the_pod_sets_is_in_the_entrypoints_contract(
    mocks: RecordingMocks, kind: str, job_name: str
) -> None:
    # The LeaderWorkerSet sets MASTER_PORT itself; the benchmark (PyTorchJob only) adds the transport check.
    launcher = "".join(path.read_text(encoding="utf-8") for path in (PROJECT_ROOT / "workloads").glob("launch*.py"))
    bench = job_name.endswith("-nccl-bench")
    args = training_args("sriov-rdma", kind=kind, benchmark={"enabled": bench}, enabled=not bench)
    rendered = render(mocks, args, benchmark=bench)
    names = set(env_of(templates(workload(rendered, job_name))[0]))
    for name in sorted(names):
        if not name.startswith("NCCL_"):
            assert re.search(rf"\b{name}\b", launcher), f"{name} is not read by workloads/launch*.py"


def test_training_script_replaces_the_module(mocks: RecordingMocks) -> None:
    env = env_of(templates(workload(render(mocks, training_args("pod", training_script="/mnt/storage/t.py"))))[0])
    assert env["TRAINING_SCRIPT"] == "/mnt/storage/t.py"
    assert "TRAINING_MODULE" not in env


# --------------------------------------------------------------------------------------
# Volumes, placement, security
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["pytorchjob", "leaderworkerset"])
def test_volumes_and_mounts(mocks: RecordingMocks, kind: str) -> None:
    for template in templates(workload(render(mocks, training_args("vnic", kind=kind)))):
        volumes = {v["name"]: v for v in template["spec"]["volumes"]}
        mounts = {m["name"]: m["mountPath"] for m in container(template)["volumeMounts"]}
        assert volumes["shm"] == {"name": "shm", "emptyDir": {"medium": "Memory", "sizeLimit": "20Gi"}}
        assert mounts["shm"] == "/dev/shm"
        assert volumes["storage"]["persistentVolumeClaim"] == {"claimName": "fine-tuning-storage"}
        assert mounts["storage"] == container(template)["workingDir"] == "/mnt/storage"
        assert volumes["workloads"]["configMap"] == {"name": "ilab-workloads"}
        assert mounts["workloads"] == "/mnt/workloads"
        assert volumes["config"]["configMap"] == {"name": "ilab-config"}
        assert volumes["nic-mapping"]["configMap"] == {"name": "t-nic-mapping"}
        assert mounts["nic-mapping"] == "/mnt/nic-mapping"
        assert container(template)["command"] == ["bash", "/mnt/workloads/entrypoint.sh"]


def test_shm_size_is_configurable(mocks: RecordingMocks) -> None:
    (template, _) = templates(workload(render(mocks, training_args("pod", shm_size="64Gi"))))
    (shm,) = [v for v in template["spec"]["volumes"] if v["name"] == "shm"]
    assert shm["emptyDir"]["sizeLimit"] == "64Gi"


def test_one_pod_per_node_and_gpu_tolerations(mocks: RecordingMocks) -> None:
    for template in templates(workload(render(mocks, training_args("sriov")))):
        spec = template["spec"]
        (term,) = spec["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
        assert term["topologyKey"] == "kubernetes.io/hostname"
        assert term["labelSelector"]["matchLabels"].items() <= template["metadata"]["labels"].items()
        assert {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"} in spec["tolerations"]


@pytest.mark.parametrize(
    ("variant", "capabilities"),
    [
        ("pod", []),
        ("vnic-dhcp", []),
        ("vnic", ["NET_ADMIN"]),
        ("sriov", ["NET_ADMIN"]),
        ("sriov-rdma", ["IPC_LOCK", "NET_ADMIN"]),
        ("sriov-rdma-dhcp", ["IPC_LOCK"]),
    ],
)
def test_capabilities_are_exactly_what_the_wiring_needs(
    mocks: RecordingMocks, variant: str, capabilities: list[str]
) -> None:
    rendered = render(mocks, training_args(variant))
    for template in templates(workload(rendered)):
        security = container(template)["securityContext"]
        assert security["privileged"] is False
        assert security["allowPrivilegeEscalation"] is False
        assert security["capabilities"]["drop"] == ["ALL"]
        assert security["capabilities"].get("add", []) == capabilities
        assert (template["spec"]["securityContext"].get("runAsUser") == 0) == bool(capabilities)
        assert template["spec"]["automountServiceAccountToken"] is False
    sccs = rendered.kind("SecurityContextConstraints")
    if not capabilities:
        assert sccs == []  # restricted-v2 admits these pods
        return
    (scc,) = sccs
    assert scc["allowedCapabilities"] == capabilities
    assert scc["allowPrivilegedContainer"] is False
    assert scc["defaultAddCapabilities"] == []
    assert scc["requiredDropCapabilities"] == ["ALL"]
    assert not any(
        scc[key]
        for key in (
            "allowHostDirVolumePlugin",
            "allowHostIPC",
            "allowHostNetwork",
            "allowHostPID",
            "allowHostPorts",
            "allowPrivilegeEscalation",
        )
    )
    used = {key for v in templates(workload(rendered))[0]["spec"]["volumes"] for key in v if key != "name"}
    assert set(scc["volumes"]) == used


def test_scc_is_granted_to_the_jobs_service_account_only(mocks: RecordingMocks) -> None:
    rendered = render(mocks, training_args("sriov-rdma"))
    scc, role, binding = (rendered.one(k) for k in ("SecurityContextConstraints", "Role", "RoleBinding"))
    account = rendered.one("ServiceAccount")
    assert scc["metadata"]["name"] == f"{NAMESPACE}-ilab"
    assert scc["users"] == [] and scc["groups"] == []
    assert role["rules"] == [
        {
            "apiGroups": ["security.openshift.io"],
            "resources": ["securitycontextconstraints"],
            "resourceNames": [scc["metadata"]["name"]],
            "verbs": ["use"],
        }
    ]
    assert binding["roleRef"] == {
        "apiGroup": "rbac.authorization.k8s.io",
        "kind": "Role",
        "name": role["metadata"]["name"],
    }
    assert binding["subjects"] == [
        {"kind": "ServiceAccount", "name": account["metadata"]["name"], "namespace": NAMESPACE}
    ]
    for template in templates(workload(rendered)):
        assert template["spec"]["serviceAccountName"] == account["metadata"]["name"]


def test_no_scc_outside_openshift(mocks: RecordingMocks) -> None:
    rendered = render(mocks, training_args("sriov-rdma", openshift=False))
    assert not rendered.kind("SecurityContextConstraints") and not rendered.kind("Role")
    assert rendered.one("ServiceAccount")


# --------------------------------------------------------------------------------------
# ConfigMaps, storage, options
# --------------------------------------------------------------------------------------


def test_config_maps_carry_config_json_and_the_workload_files(mocks: RecordingMocks) -> None:
    args = training_args(
        "vnic", training={"max_batch_len": 20000, "effective_batch_size": 128, "extra": {"lr_scheduler": "constant"}}
    )
    rendered = render(mocks, args)
    maps = {cm["metadata"]["name"]: cm["data"] for cm in rendered.kind("ConfigMap")}
    assert maps["ilab-workloads"] == FILES.files
    config = json.loads(maps["ilab-config"]["config.json"])
    assert config == args.job.training.config_json()
    assert config["max_batch_len"] == 20000 and config["effective_batch_size"] == 128
    assert config["lr_scheduler"] == "constant"


def test_storage_claim_is_created_or_reused(mocks: RecordingMocks) -> None:
    claim = render(mocks, training_args("vnic", storage={"size": "500Gi", "storage_class": "ibmc-vpc-file"}))
    pvc = claim.one("PersistentVolumeClaim")
    assert pvc["metadata"]["name"] == "fine-tuning-storage"
    assert pvc["spec"] == {
        "accessModes": ["ReadWriteMany"],
        "resources": {"requests": {"storage": "500Gi"}},
        "storageClassName": "ibmc-vpc-file",
    }


def test_an_existing_claim_is_only_mounted(mocks: RecordingMocks) -> None:
    rendered = render(mocks, training_args("vnic", storage={"create": False, "claim_name": "shared-data"}))
    assert rendered.kind("PersistentVolumeClaim") == []
    (template, _) = templates(workload(rendered))
    (volume,) = [v for v in template["spec"]["volumes"] if v["name"] == "storage"]
    assert volume["persistentVolumeClaim"] == {"claimName": "shared-data"}


def test_disabled_training_keeps_what_the_benchmark_needs(mocks: RecordingMocks) -> None:
    rendered = render(mocks, training_args("vnic", enabled=False))
    assert rendered.kind("PyTorchJob") == []
    assert {obj["kind"] for obj in rendered.objects.values()} >= {
        "ConfigMap",
        "ServiceAccount",
        "PersistentVolumeClaim",
    }


def test_elastic_policy_and_backoff(mocks: RecordingMocks) -> None:
    args = training_args(
        "vnic", nodes=4, elastic={"min_nodes": 2, "max_restarts": 5}, backoff_limit=3, restart_policy="OnFailure"
    )
    job = workload(render(mocks, args))
    assert job["spec"]["elasticPolicy"] == {"minReplicas": 2, "maxReplicas": 4, "maxRestarts": 5, "rdzvBackend": "c10d"}
    assert job["spec"]["runPolicy"]["backoffLimit"] == 3
    assert {s["restartPolicy"] for s in job["spec"]["pytorchReplicaSpecs"].values()} == {"OnFailure"}
    assert env_of(templates(job)[0])["NNODES"] == "2:4"


def test_elastic_job_needs_a_worker_beside_the_master() -> None:
    # One node renders only a Master; the training operator rejects an elasticPolicy without a Worker.
    problems = validation_problems(
        cluster_config(**{"nodes.count": 1, "network.nics_per_node": 1, "job.elastic": {"min_nodes": 1}})
    )
    assert [field for field, _ in problems] == ["job.elastic"], problems
    job = training_manifests(training_args("vnic", nodes=2, elastic={"min_nodes": 1}))["job"]
    assert set(job["spec"]["pytorchReplicaSpecs"]) == {"Master", "Worker"}
    assert job["spec"]["elasticPolicy"]["maxReplicas"] == 2


def test_master_port_is_the_operators_named_port(mocks: RecordingMocks) -> None:
    (template, _) = templates(workload(render(mocks, training_args("pod", master_port=23456))))
    assert container(template)["ports"] == [{"name": "pytorchjob-port", "containerPort": 23456, "protocol": "TCP"}]
    assert container(template)["name"] == "pytorch"


# --------------------------------------------------------------------------------------
# LeaderWorkerSet
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("nodes", [1, 4])
def test_leaderworkerset_is_one_group_of_the_same_pods(mocks: RecordingMocks, nodes: int) -> None:
    rendered = render(mocks, training_args("sriov-rdma", kind="leaderworkerset", nodes=nodes))
    assert rendered.kind("PyTorchJob") == []
    lws = workload(rendered)
    assert lws["apiVersion"] == "leaderworkerset.x-k8s.io/v1"
    assert lws["spec"]["replicas"] == 1
    group = lws["spec"]["leaderWorkerTemplate"]
    assert group["size"] == nodes
    assert group["restartPolicy"] == "RecreateGroupOnPodRestart"
    leader, worker = group["leaderTemplate"], group["workerTemplate"]
    assert leader["metadata"]["labels"].pop("gpu-cluster.io/role") == "leader"
    assert worker["metadata"]["labels"].pop("gpu-cluster.io/role") == "worker"
    assert leader == worker
    env = env_of(leader)
    assert (env["NNODES"], env["NPROC_PER_NODE"], env["MASTER_PORT"]) == (str(nodes), "8", "29500")
    assert container(leader)["ports"][0]["name"] == "rendezvous"


# --------------------------------------------------------------------------------------
# NCCL benchmark
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "nodes", "expect", "transport"),
    [
        ("sriov-rdma", 2, "auto", "ib"),
        ("sriov", 2, "auto", "socket"),
        ("vnic", 2, "auto", "socket"),
        ("pod", 2, "auto", "socket"),
        ("sriov-rdma", 1, "auto", None),
        ("pod", 1, "p2p", "p2p"),
        ("vnic", 2, "none", None),
    ],
)
def test_benchmark_asserts_the_variants_transport(
    mocks: RecordingMocks, variant: str, nodes: int, expect: str, transport: str | None
) -> None:
    args = training_args(variant, nodes=nodes, enabled=False, benchmark={"enabled": True, "expect_transport": expect})
    rendered = render(mocks, args, benchmark=True)
    env = env_of(templates(workload(rendered, "ilab-nccl-bench"))[0])
    assert env.get("GPU_CLUSTER_EXPECT_TRANSPORT") == transport
    assert env["TRAINING_SCRIPT"] == "/mnt/workloads/nccl_bench.py"
    assert "TRAINING_MODULE" not in env


def test_benchmark_options_reach_nccl_bench(mocks: RecordingMocks) -> None:
    args = training_args("vnic", enabled=False, benchmark={"enabled": True, "max_bytes": "4G", "time_budget_s": 5})
    rendered = render(mocks, args, benchmark=True)
    maps = {cm["metadata"]["name"]: cm["data"] for cm in rendered.kind("ConfigMap")}
    assert json.loads(maps["ilab-nccl-bench-config"]["config.json"]) == {
        "ops": "all_reduce,all_gather",
        "min-bytes": "8",
        "max-bytes": "4G",
        "iters": 20,
        "warmup": 5,
        "time-budget": 5.0,
        "json": "ilab-nccl-bench.json",
    }


@pytest.mark.parametrize("kind", ["pytorchjob", "leaderworkerset"])
def test_benchmark_pods_are_the_training_pods_with_another_program(mocks: RecordingMocks, kind: str) -> None:
    args = training_args("sriov-rdma", kind=kind, benchmark={"enabled": True})
    rendered = render(mocks, args, benchmark=True)
    training, bench = workload(rendered, "ilab"), workload(rendered, "ilab-nccl-bench")
    assert training["kind"] == bench["kind"]
    for train_template, bench_template in zip(templates(training), templates(bench), strict=True):
        train_env, bench_env = env_of(train_template), env_of(bench_template)
        # main_ds's own settings (the module, the stall watchdog's limit) are the training pods' only.
        assert train_env["GPU_CLUSTER_STALL_SECONDS"] == "1800"
        assert {k: v for k, v in train_env.items() if k not in ("TRAINING_MODULE", "GPU_CLUSTER_STALL_SECONDS")} == {
            k: v for k, v in bench_env.items() if k not in ("TRAINING_SCRIPT", "GPU_CLUSTER_EXPECT_TRANSPORT")
        }
        for template in (train_template, bench_template):
            spec = template["spec"]
            container(template).pop("env")
            (config,) = [v for v in spec["volumes"] if v["name"] == "config"]
            config["configMap"]["name"] = "<config>"
            labels = spec["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]
            labels["labelSelector"] = "<own job>"
            template["metadata"]["labels"] = "<labels>"
        assert train_template == bench_template


def test_a_checkpoint_save_limit_of_its_own_reaches_the_launcher_only_when_set(mocks: RecordingMocks) -> None:
    """``job.save_timeout_s`` is the watchdog's limit for a save (workloads/main_ds_guard.py); unset, the
    launcher derives it from the stall limit, so nothing is rendered."""
    (template, *_) = templates(workload(render(mocks, training_args("vnic", save_timeout_s=14400))))
    env = env_of(template)
    assert (env["GPU_CLUSTER_STALL_SECONDS"], env["GPU_CLUSTER_SAVE_SECONDS"]) == ("1800", "14400")
    mocks.registered.clear()
    (template, *_) = templates(workload(render(mocks, training_args("vnic"))))
    assert "GPU_CLUSTER_SAVE_SECONDS" not in env_of(template)
    for bad in (59, 1799, 4 * 7 * 24 * 3600 + 1, 1e23):  # 1799: below the stall limit, 1800
        with pytest.raises(ValueError, match="save_timeout_s"):
            training_args("vnic", save_timeout_s=bad)


# --------------------------------------------------------------------------------------
# Args validation
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["pod", "vnic", "sriov", "sriov-rdma"])
def test_the_plan_wires_every_variant_consistently(variant: str) -> None:
    # What TrainingJobArgs once re-checked is now true by construction of the plan.
    changes = {"network.variant": variant, "network.nics_per_node": 0 if variant == "pod" else 1}
    if variant.startswith("sriov"):
        changes["nodes.profile"] = "gx3d-160x1792x8h100"
    wiring = plan_offline(cluster_config(**changes))[1].fabric.wiring
    assert len(wiring.networks) == len(wiring.interfaces)
    assert wiring.rdma == (variant == "sriov-rdma")
    assert (variant == "pod") == (not wiring.interfaces)


def test_more_processes_than_gpus_is_rejected() -> None:
    problems = validation_problems(cluster_config(**{"job.nproc_per_node": 4}))
    assert [field for field, _ in problems] == ["job.nproc_per_node"]
    assert "has 2 GPU(s)" in problems[0][1]


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"launch.py": "x"}, "entrypoint.sh; it is missing"),
        ({"entrypoint.sh": "x", "launch/env.py": "x"}, "'launch/env.py': a ConfigMap key"),
        ({"entrypoint.sh": "x", "launch.py": ""}, "'launch.py': a ConfigMap key"),
    ],
)
def test_workload_files_must_be_shippable_in_a_config_map(files: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        WorkloadFiles(files=files)
