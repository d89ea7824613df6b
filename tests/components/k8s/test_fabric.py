"""The Fabric component under mocks: objects per variant, their fields, the wiring it hands the
job, stable names when nodes are added, and strict schema validity of everything it renders."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

import pulumi
import pulumi_kubernetes as k8s
import pytest

from components.checks.validation import ConfigurationError
from components.k8s.fabric import Fabric, FabricArgs
from components.models.config import ClusterConfig
from components.plan.existing import plan_from_existing
from components.plan.fabric_rules import natural_key
from components.plan.inventory import AddressPlan, host_numbers
from components.plan.plan import plan_fabric
from experiments.offline.simulated_cluster import plan_offline

from ...conftest import RecordingMocks, cluster_config, offline_plan
from ...manifests import validate_manifest

H100 = "gx3d-160x1792x8h100"
MANIFEST_KEYS = ("apiVersion", "kind", "metadata", "spec", "data")


@dataclass
class Run:
    fabric: Fabric
    mocks: RecordingMocks

    @property
    def objects(self) -> list[pulumi.runtime.MockResourceArgs]:
        """The Kubernetes objects (not components, not providers), by resource name: registration
        order is not deterministic."""
        objects = [r for r in self.mocks.registered if r.typ.startswith("kubernetes:")]
        return sorted(objects, key=lambda r: natural_key(r.name))

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        return [manifest(r) for r in self.objects if r.typ.rsplit(":", 1)[1] == kind]

    def names(self) -> list[str]:
        return sorted(r.name for r in self.mocks.registered if not r.typ.startswith("pulumi:providers:"))

    def nad_configs(self) -> list[dict[str, Any]]:
        return [json.loads(m["spec"]["config"]) for m in self.of_kind("NetworkAttachmentDefinition")]

    def mapping(self) -> list[str]:
        (configmap,) = self.of_kind("ConfigMap")
        return configmap["data"]["nodename_ip_mapping.yaml"].splitlines()


def manifest(resource: pulumi.runtime.MockResourceArgs) -> dict[str, Any]:
    """The object as applied: pulumi-kubernetes sends a CustomResource's fields as its inputs."""
    return {key: resource.inputs[key] for key in MANIFEST_KEYS if key in resource.inputs}


def is_patch(resource: pulumi.runtime.MockResourceArgs) -> bool:
    return resource.typ.endswith("Patch")


H = {
    f"t-node{i}": 4 + host
    for i, host in enumerate(host_numbers([f"t-node{i}" for i in range(4)], 24)[f"t-node{i}"] for i in range(4))
}
"""Host number of each simulated worker: keyed by its name (``components.plan.inventory.host_numbers``)."""


def config(**changes: Any) -> ClusterConfig:
    return plan_offline(cluster_config(**changes))[0]


def h100(variant: str = "sriov-rdma", nics: int = 2, **changes: Any) -> ClusterConfig:
    return config(**{"nodes.profile": H100, "network.variant": variant, "network.nics_per_node": nics, **changes})


def build(
    mocks: RecordingMocks,
    cfg: ClusterConfig,
    plan: AddressPlan | None = None,
    opts: pulumi.ResourceOptions | None = None,
    with_provider: bool = False,
) -> Run:
    built: dict[str, Fabric] = {}

    @pulumi.runtime.test
    def program() -> None:
        options = opts
        if with_provider:
            provider = k8s.Provider("cluster-a", context="cluster-a")
            options = pulumi.ResourceOptions(providers=[provider])
        fabric_plan = plan_fabric(cfg, plan) if plan is not None else offline_plan(cfg).fabric
        built["fabric"] = Fabric("fab", FabricArgs(plan=fabric_plan, settings=cfg.fabric), opts=options)

    program()
    return Run(built["fabric"], mocks)


# --------------------------------------------------------------------------------------
# pod
# --------------------------------------------------------------------------------------


def test_pod_network_creates_no_kubernetes_objects_and_an_empty_wiring(mocks: RecordingMocks) -> None:
    run = build(mocks, config(**{"network.variant": "pod", "network.nics_per_node": 0}))
    assert run.objects == []
    assert run.names() == ["fab"]
    wiring = run.fabric.wiring
    assert (wiring.variant, wiring.networks, wiring.interfaces, wiring.extended_resources) == ("pod", (), (), {})
    assert wiring.ip_mapping_configmap is None and not wiring.needs_net_admin and not wiring.rdma
    assert run.fabric.manifests == [] and not run.fabric.needs_ip_spoofing


# --------------------------------------------------------------------------------------
# vnic
# --------------------------------------------------------------------------------------


def test_vnic_host_device_has_one_nad_per_vnic_moving_the_guest_interface(mocks: RecordingMocks) -> None:
    run = build(mocks, config())
    nads = run.of_kind("NetworkAttachmentDefinition")
    assert [n["metadata"]["name"] for n in nads] == ["t-training-net1", "t-training-net2"]
    assert {n["metadata"]["namespace"] for n in nads} == {"t-training"}
    configs = run.nad_configs()
    assert [(c["type"], c["device"], c["name"]) for c in configs] == [
        ("host-device", "ens13", "t-training-net1"),
        ("host-device", "ens14", "t-training-net2"),
    ]
    assert [c["ipam"] for c in configs] == [
        {
            "type": "whereabouts",
            "range": "10.241.192.0/24",
            "range_start": "10.241.192.128",
            "range_end": "10.241.192.254",
        },
        {
            "type": "whereabouts",
            "range": "10.241.193.0/24",
            "range_start": "10.241.193.128",
            "range_end": "10.241.193.254",
        },
    ]
    assert run.names() == ["fab", "fab-nads", "fab-nads-net1", "fab-nads-net2", "fab-nic-mapping"]


def test_vnic_mapping_configmap_has_one_line_per_node_and_nic(mocks: RecordingMocks) -> None:
    run = build(mocks, config())
    assert run.mapping() == [
        f"t-node0:ens13:net1:10.241.192.{H['t-node0']}",
        f"t-node0:ens14:net2:10.241.193.{H['t-node0']}",
        f"t-node1:ens13:net1:10.241.192.{H['t-node1']}",
        f"t-node1:ens14:net2:10.241.193.{H['t-node1']}",
    ]
    (configmap,) = run.of_kind("ConfigMap")
    assert configmap["metadata"]["name"] == run.fabric.wiring.ip_mapping_configmap == "t-training-nic-mapping"


def test_vnic_wiring_lists_networks_in_interface_order(mocks: RecordingMocks) -> None:
    wiring = build(mocks, config()).fabric.wiring
    assert wiring.networks == ("t-training-net1", "t-training-net2")
    assert wiring.interfaces == ("net1", "net2")
    assert wiring.extended_resources == {}
    assert wiring.needs_net_admin and not wiring.rdma
    assert wiring.namespace == "t-training"


def test_only_the_nics_the_job_uses_get_a_nad(mocks: RecordingMocks) -> None:
    run = build(mocks, config(**{"network.attached_nics": 4, "network.nics_per_node": 1}))
    assert [c["device"] for c in run.nad_configs()] == ["ens13"]
    assert run.mapping() == [
        f"t-node0:ens13:net1:10.241.192.{H['t-node0']}",
        f"t-node1:ens13:net1:10.241.192.{H['t-node1']}",
    ]


def test_scaling_from_two_to_four_nodes_adds_mapping_lines_and_renames_nothing(mocks: RecordingMocks) -> None:
    two = build(mocks, config())
    two_names, two_nads, two_lines = two.names(), two.nad_configs(), two.mapping()
    scaled = RecordingMocks()
    pulumi.runtime.set_mocks(scaled, project="gpu-cluster", stack="test", preview=False)
    four_run = build(scaled, config(**{"nodes.count": 4}))
    assert four_run.names() == two_names
    assert four_run.nad_configs() == two_nads
    lines = four_run.mapping()
    assert len(lines) == 8 and set(two_lines) <= set(lines)
    assert lines[4:] == [
        f"t-node2:ens13:net1:10.241.192.{H['t-node2']}",
        f"t-node2:ens14:net2:10.241.193.{H['t-node2']}",
        f"t-node3:ens13:net1:10.241.192.{H['t-node3']}",
        f"t-node3:ens14:net2:10.241.193.{H['t-node3']}",
    ]


def test_vnic_macvlan_uses_the_guest_interface_as_master_and_needs_ip_spoofing(mocks: RecordingMocks) -> None:
    run = build(mocks, config(**{"fabric.attachment": "macvlan"}))
    assert [(c["type"], c["master"], c["mode"]) for c in run.nad_configs()] == [
        ("macvlan", "ens13", "bridge"),
        ("macvlan", "ens14", "bridge"),
    ]
    assert all("device" not in c for c in run.nad_configs())
    assert run.fabric.needs_ip_spoofing


def test_host_device_needs_no_ip_spoofing(mocks: RecordingMocks) -> None:
    assert not build(mocks, config()).fabric.needs_ip_spoofing


def test_dhcp_ipam_needs_neither_a_mapping_nor_net_admin(mocks: RecordingMocks) -> None:
    run = build(mocks, config(**{"fabric.ip_assignment": "dhcp"}))
    assert [c["ipam"]["type"] for c in run.nad_configs()] == ["dhcp", "dhcp"]
    assert run.nad_configs()[0]["ipam"]["request"] == [{"skipDefault": True, "option": "subnet-mask"}]
    assert run.of_kind("ConfigMap") == []
    wiring = run.fabric.wiring
    assert wiring.ip_mapping_configmap is None and not wiring.needs_net_admin


def test_configured_guest_interfaces_replace_the_defaults(mocks: RecordingMocks) -> None:
    run = build(mocks, config(**{"fabric.guest_interfaces": ["eth1", "eth2"]}))
    assert [c["device"] for c in run.nad_configs()] == ["eth1", "eth2"]
    assert run.mapping()[0] == f"t-node0:eth1:net1:10.241.192.{H['t-node0']}"


def test_off_openshift_a_nic_cluster_policy_deploys_multus_and_cni_plugins(mocks: RecordingMocks) -> None:
    run = build(mocks, config(**{"kubernetes.openshift": False, "kubernetes.whereabouts_installed": True}))
    (policy,) = run.of_kind("NicClusterPolicy")
    assert set(policy["spec"]) == {"secondaryNetwork"}
    assert set(policy["spec"]["secondaryNetwork"]) == {"multus", "cniPlugins"}


# --------------------------------------------------------------------------------------
# sriov / sriov-rdma with host-device
# --------------------------------------------------------------------------------------


def test_sriov_host_device_moves_the_cluster_nics_guest_interfaces(mocks: RecordingMocks) -> None:
    run = build(mocks, h100("sriov"))
    assert [(c["type"], c["device"]) for c in run.nad_configs()] == [
        ("host-device", "enp163s0"),
        ("host-device", "enp173s0"),
    ]
    assert [c["ipam"]["range"] for c in run.nad_configs()] == ["10.0.0.0/24", "10.0.1.0/24"]
    assert run.of_kind("NicClusterPolicy") == []
    assert run.fabric.wiring.extended_resources == {} and not run.fabric.wiring.rdma
    assert run.mapping() == [
        f"t-node0:enp163s0:net1:10.0.0.{H['t-node0']}",
        f"t-node0:enp173s0:net2:10.0.1.{H['t-node0']}",
        f"t-node1:enp163s0:net1:10.0.0.{H['t-node1']}",
        f"t-node1:enp173s0:net2:10.0.1.{H['t-node1']}",
    ]


def test_sriov_rdma_host_device_exposes_one_rdma_resource_per_used_nic(mocks: RecordingMocks) -> None:
    run = build(mocks, h100())
    (policy,) = run.of_kind("NicClusterPolicy")
    assert policy["metadata"]["name"] == "nic-cluster-policy"
    assert "secondaryNetwork" not in policy["spec"]  # OpenShift ships Multus and the CNI plugins
    plugin = policy["spec"]["rdmaSharedDevicePlugin"]
    assert (plugin["repository"], plugin["image"]) == ("ghcr.io/mellanox", "k8s-rdma-shared-dev-plugin")
    assert json.loads(plugin["config"]) == {
        "configList": [
            {
                "resourceName": "t_training_net1",
                "rdmaHcaMax": 1,
                "selectors": {"vendors": ["15b3"], "ifNames": ["enp163s0"]},
            },
            {
                "resourceName": "t_training_net2",
                "rdmaHcaMax": 1,
                "selectors": {"vendors": ["15b3"], "ifNames": ["enp173s0"]},
            },
        ]
    }
    wiring = run.fabric.wiring
    assert wiring.extended_resources == {"rdma/t_training_net1": 1, "rdma/t_training_net2": 1}
    assert (
        wiring.rdma
        and wiring.networks == ("t-training-net1", "t-training-net2")
        and wiring.interfaces == ("net1", "net2")
    )


def test_patch_mode_applies_the_device_plugin_into_an_existing_policy(mocks: RecordingMocks) -> None:
    run = build(mocks, h100(**{"fabric.rdma.nic_cluster_policy": "patch"}))
    (resource,) = [r for r in run.objects if r.typ == "kubernetes:mellanox.com/v1alpha1:NicClusterPolicyPatch"]
    body = manifest(resource)
    assert body["metadata"] == {"name": "nic-cluster-policy", "annotations": {"pulumi.com/patchForce": "true"}}
    assert "rdmaSharedDevicePlugin" in body["spec"]


# --------------------------------------------------------------------------------------
# sriov-operator
# --------------------------------------------------------------------------------------


def test_sriov_operator_renders_a_policy_and_a_network_per_used_nic(mocks: RecordingMocks) -> None:
    run = build(mocks, h100(**{"fabric.attachment": "sriov-operator"}))
    policies = run.of_kind("SriovNetworkNodePolicy")
    assert [p["metadata"]["name"] for p in policies] == ["t-training-net1", "t-training-net2"]
    assert {p["metadata"]["namespace"] for p in policies} == {"openshift-sriov-network-operator"}
    first = policies[0]["spec"]
    assert first == {
        "resourceName": "t_training_net1",
        "nodeSelector": {"feature.node.kubernetes.io/pci-15b3.present": "true"},
        "numVfs": 1,
        "nicSelector": {"vendor": "15b3", "pfNames": ["enp163s0"]},
        "deviceType": "netdevice",
        "isRdma": True,
        "linkType": "eth",
    }
    assert policies[1]["spec"]["nicSelector"]["pfNames"] == ["enp173s0"]
    networks = run.of_kind("SriovNetwork")
    assert [(n["metadata"]["name"], n["spec"]["resourceName"], n["spec"]["networkNamespace"]) for n in networks] == [
        ("t-training-net1", "t_training_net1", "t-training"),
        ("t-training-net2", "t_training_net2", "t-training"),
    ]
    assert json.loads(networks[0]["spec"]["ipam"])["range"] == "10.0.0.0/24"
    assert run.of_kind("NetworkAttachmentDefinition") == []  # the operator generates them
    assert run.of_kind("NicClusterPolicy") == []  # the SR-IOV device plugin mounts the RDMA devices
    wiring = run.fabric.wiring
    assert wiring.networks == ("t-training-net1", "t-training-net2")
    assert wiring.extended_resources == {"openshift.io/t_training_net1": 1, "openshift.io/t_training_net2": 1}


def test_sriov_operator_without_rdma_does_not_ask_for_rdma(mocks: RecordingMocks) -> None:
    run = build(mocks, h100("sriov", **{"fabric.attachment": "sriov-operator", "fabric.ip_assignment": "dhcp"}))
    assert {p["spec"]["isRdma"] for p in run.of_kind("SriovNetworkNodePolicy")} == {False}
    assert json.loads(run.of_kind("SriovNetwork")[0]["spec"]["ipam"])["type"] == "dhcp"
    assert not run.fabric.wiring.rdma and not run.fabric.wiring.needs_net_admin


def test_sriov_operator_namespace_off_openshift(mocks: RecordingMocks) -> None:
    run = build(
        mocks,
        h100(
            **{
                "fabric.attachment": "sriov-operator",
                "kubernetes.openshift": False,
                "kubernetes.whereabouts_installed": True,
            }
        ),
    )
    assert {p["metadata"]["namespace"] for p in run.of_kind("SriovNetworkNodePolicy")} == {"sriov-network-operator"}


# --------------------------------------------------------------------------------------
# node prep
# --------------------------------------------------------------------------------------


def test_node_prep_objects_are_absent_unless_enabled(mocks: RecordingMocks) -> None:
    run = build(mocks, h100())
    assert run.of_kind("MachineConfig") == [] and run.of_kind("ClusterPolicyPatch") == []
    assert not any(name.startswith("fab-node-prep") for name in run.names())


def test_iommu_passthrough_adds_a_worker_machine_config(mocks: RecordingMocks) -> None:
    run = build(mocks, h100(**{"fabric.node_prep.iommu_passthrough": True}))
    (machine_config,) = run.of_kind("MachineConfig")
    assert machine_config["spec"] == {"kernelArguments": ["iommu=pt"]}
    assert machine_config["metadata"]["labels"]["machineconfiguration.openshift.io/role"] == "worker"
    assert machine_config["metadata"]["name"].startswith("99-worker-")
    assert run.of_kind("ClusterPolicyPatch") == []


OFED = {"repository": "nvcr.io/nvidia/mellanox", "image": "doca-driver", "version": "25.04-0.6.1.0-2"}


@pytest.mark.parametrize(
    ("mode", "extra", "driver"),
    [
        ("dma-buf", {}, {"kernelModuleType": "open"}),
        (
            "peermem",
            {"fabric.rdma.ofed_driver": {"version": OFED["version"]}},
            {"rdma": {"enabled": True, "useHostMofed": False}},
        ),
        ("peermem", {"fabric.node_prep.host_mofed": True}, {"rdma": {"enabled": True, "useHostMofed": True}}),
    ],
)
def test_gpudirect_rdma_patches_the_existing_cluster_policy(
    mocks: RecordingMocks, mode: str, extra: dict[str, Any], driver: dict[str, Any]
) -> None:
    run = build(mocks, h100(**{"fabric.node_prep.gpudirect_rdma": mode, **extra}))
    (patch,) = run.of_kind("ClusterPolicyPatch")
    assert patch["metadata"]["name"] == "gpu-cluster-policy"
    assert patch["spec"] == {"driver": driver}
    assert run.of_kind("MachineConfig") == []
    (policy,) = run.of_kind("NicClusterPolicy")
    assert policy["metadata"]["name"] == "nic-cluster-policy"
    # useHostMofed: false makes the GPU operator wait for the network operator's driver container.
    assert policy["spec"].get("ofedDriver") == (OFED if driver.get("rdma", {}).get("useHostMofed") is False else None)


# --------------------------------------------------------------------------------------
# Structure, providers, validity
# --------------------------------------------------------------------------------------


def test_child_names_are_pinned(mocks: RecordingMocks) -> None:
    prep = {"fabric.node_prep.iommu_passthrough": True, "fabric.node_prep.gpudirect_rdma": "dma-buf"}
    run = build(mocks, h100(**prep))
    assert run.names() == [
        "fab",
        "fab-nads",
        "fab-nads-net1",
        "fab-nads-net2",
        "fab-nic-cluster-policy",
        "fab-nic-mapping",
        "fab-node-prep",
        "fab-node-prep-gpudirect",
        "fab-node-prep-iommu",
    ]
    operator = RecordingMocks()
    pulumi.runtime.set_mocks(operator, project="gpu-cluster", stack="test", preview=False)
    sriov = build(operator, h100(**{"fabric.attachment": "sriov-operator"}))
    assert sriov.names() == [
        "fab",
        "fab-nic-mapping",
        "fab-sriov",
        "fab-sriov-network-net1",
        "fab-sriov-network-net2",
        "fab-sriov-policy-net1",
        "fab-sriov-policy-net2",
    ]


def test_children_inherit_the_provider_passed_through_opts(mocks: RecordingMocks) -> None:
    run = build(mocks, h100(), with_provider=True)
    assert run.objects
    assert all(r.provider and "pulumi:providers:kubernetes::cluster-a" in r.provider for r in run.objects)


def test_the_manifests_attribute_is_exactly_what_was_registered(mocks: RecordingMocks) -> None:
    run = build(
        mocks, h100(**{"fabric.node_prep.gpudirect_rdma": "dma-buf", "fabric.node_prep.iommu_passthrough": True})
    )
    registered = sorted((json.dumps(manifest(r), sort_keys=True) for r in run.objects))
    rendered = sorted(json.dumps(m.body, sort_keys=True) for m in run.fabric.manifests)
    assert registered == rendered
    assert [m.patch for m in run.fabric.manifests].count(True) == 1


SCHEMA_CASES = {
    "vnic": {},
    "vnic-macvlan": {"fabric.attachment": "macvlan"},
    "vnic-dhcp": {"fabric.ip_assignment": "dhcp"},
    "vnic-vanilla": {"kubernetes.openshift": False, "kubernetes.whereabouts_installed": True},
    "sriov": {"nodes.profile": H100, "network.variant": "sriov", "network.nics_per_node": 8},
    "sriov-rdma": {
        "nodes.profile": H100,
        "network.variant": "sriov-rdma",
        "network.nics_per_node": 8,
        "fabric.node_prep.iommu_passthrough": True,
        "fabric.node_prep.gpudirect_rdma": "peermem",
        "fabric.rdma.ofed_driver": {"version": "25.04-0.6.1.0-2"},
    },
    "sriov-rdma-patch": {
        "nodes.profile": H100,
        "network.variant": "sriov-rdma",
        "network.nics_per_node": 1,
        "fabric.rdma.nic_cluster_policy": "patch",
        "fabric.node_prep.gpudirect_rdma": "dma-buf",
    },
    "sriov-operator": {
        "nodes.profile": H100,
        "network.variant": "sriov-rdma",
        "network.nics_per_node": 2,
        "fabric.attachment": "sriov-operator",
        "fabric.sriov.mtu": 9000,
    },
    "sriov-operator-vanilla": {
        "nodes.profile": H100,
        "network.variant": "sriov",
        "network.nics_per_node": 2,
        "fabric.attachment": "sriov-operator",
        "kubernetes.openshift": False,
        "kubernetes.whereabouts_installed": True,
    },
}


@pytest.mark.parametrize("case", sorted(SCHEMA_CASES))
def test_every_rendered_object_validates_strictly(mocks: RecordingMocks, case: str) -> None:
    run = build(mocks, config(**SCHEMA_CASES[case]))
    assert run.objects
    for resource in run.objects:
        errors = validate_manifest(manifest(resource))
        if is_patch(resource):
            # A patch carries only our fields: the object's required sections are the owner's.
            errors = [e for e in errors if not e.endswith("required field is missing")]
        assert errors == [], f"{resource.typ} {resource.name}: {errors}"


def test_validation_would_catch_a_misspelt_field(mocks: RecordingMocks) -> None:
    run = build(mocks, h100(**{"fabric.attachment": "sriov-operator"}))
    policy = run.of_kind("SriovNetworkNodePolicy")[0]
    policy["spec"]["isRDMA"] = True
    assert validate_manifest(policy) == ["spec.isRDMA: unknown field"]


def test_the_fabric_renders_only_what_its_plan_holds(mocks: RecordingMocks) -> None:
    # Components decide nothing: a plan with one NAD and no mapping renders one NAD and nothing else,
    # whatever the settings say about other variants.
    full = offline_plan(config()).fabric
    one_nad = dataclasses.replace(full, nads=full.nads[:1], mapping_configmap=None, mapping_lines=())
    built: dict[str, Fabric] = {}

    @pulumi.runtime.test
    def program() -> None:
        built["fabric"] = Fabric("fab", FabricArgs(plan=one_nad, settings=config().fabric))

    program()
    run = Run(built["fabric"], mocks)
    assert [r["metadata"]["name"] for r in run.of_kind("NetworkAttachmentDefinition")] == [full.nads[0].name]
    assert run.of_kind("ConfigMap") == []


def test_the_config_checks_run_before_any_fabric_exists() -> None:
    with pytest.raises(ConfigurationError, match="sriov-operator attaches cluster-network VFs"):
        plan_offline(cluster_config(**{"fabric.attachment": "sriov-operator"}))


# --------------------------------------------------------------------------------------
# Existing nodes (layers: kubernetes)
# --------------------------------------------------------------------------------------


def existing_h100(**changes: Any) -> ClusterConfig:
    def node(name: str, host: int) -> dict[str, Any]:
        nics = [{"index": 0, "role": "primary", "subnet": "10.241.129.0/24", "ip": f"10.241.129.{host}"}]
        nics += [
            {"index": k, "role": "cluster", "subnet": f"10.{k - 1}.0.0/16", "ip": f"10.{k - 1}.0.{host}"}
            for k in range(1, 9)
        ]
        return {"name": name, "nics": nics}

    return h100(**{"layers": "kubernetes", "kubernetes.nodes": [node("worker-b", 18), node("worker-a", 44)], **changes})


def test_existing_nodes_feed_the_same_components(mocks: RecordingMocks) -> None:
    cfg = existing_h100()
    run = build(mocks, cfg, plan=plan_from_existing(cfg))
    assert run.mapping() == [
        "worker-a:enp163s0:net1:10.0.0.44",
        "worker-a:enp173s0:net2:10.1.0.44",
        "worker-b:enp163s0:net1:10.0.0.18",
        "worker-b:enp173s0:net2:10.1.0.18",
    ]
    assert [c["ipam"]["range_start"] for c in run.nad_configs()] == ["10.0.128.0", "10.1.128.0"]
