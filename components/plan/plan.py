"""The plan: every decision about an experiment, computed once from validated config.

``address_plan(cfg, inventory)`` decides the addresses and NIC inventory (``AddressPlan``: planned
by ``inventory`` for the cloud layer, or read from ``kubernetes.nodes`` by ``existing``);
``make_plan(cfg, addresses)`` turns a ``ClusterConfig`` and that address plan into a frozen
``Plan``: the addresses, the fabric's decisions (``FabricPlan``: attachment, guest
interfaces, one spec per NAD / SR-IOV network / RDMA resource with its IPAM, the mapping lines,
the pods' wiring) and the job's (``JobPlan``: pod layout with its NCCL environment, SCC name,
benchmark transport).  Components receive the parts they render and decide nothing.
``components.checks.validation`` calls both, once each, with its checks between them.
"""

from __future__ import annotations

from dataclasses import dataclass

from components.models.config import ClusterConfig
from components.models.fabric_config import Attachment
from components.models.job_config import JobConfig
from components.models.workers import ClusterInventory
from components.plan.existing import plan_from_existing
from components.plan.fabric_rules import (
    IP_MAPPING_KEY,
    RDMA_RESOURCE_PREFIX,
    attachment_of,
    ipam_config,
    mapping_configmap_name,
    mapping_lines,
    mapping_nics,
    needs_ip_spoofing,
    network_name,
    nic_resource_name,
    resolved_names,
    sriov_operator_namespace,
    used_indices,
)
from components.plan.inventory import AddressPlan, plan_addresses
from components.plan.nccl import RDMA_VARIANTS, Transport, benchmark_transport, nccl_environment
from components.plan.specs import NadSpec, PodLayout, RdmaResourceSpec, SriovNicSpec
from components.plan.stops import WorkerStop, plan_stops, rollout_id
from components.plan.wiring import PodNetworkWiring

__all__ = ["FabricPlan", "JobPlan", "Plan", "address_plan", "job_plan", "make_plan", "plan_fabric"]


@dataclass(frozen=True)
class FabricPlan:
    """What the Kubernetes fabric renders, and what the cloud layer must know of it."""

    instance: str
    """Base of the fabric's object names: the training namespace (``fabric_rules`` says why)."""
    namespace: str
    attachment: Attachment | None
    nads: tuple[NadSpec, ...]
    """host-device / macvlan networks, one per NIC the job uses."""
    sriov_nics: tuple[SriovNicSpec, ...]
    """SR-IOV operator networks, one per NIC the job uses."""
    sriov_operator_namespace: str
    rdma_resources: tuple[RdmaResourceSpec, ...]
    """RDMA shared device plugin resources (sriov-rdma with host-device)."""
    multus_and_cni_plugins: bool
    """Off OpenShift the network operator deploys Multus and the CNI plugins."""
    nic_cluster_policy: bool
    """Whether the stack renders (or patches) the network operator's NicClusterPolicy."""
    mapping_configmap: str | None
    mapping_lines: tuple[str, ...]
    """``node:hostif:netN:ip`` lines of the mapping mechanism, in node order."""
    mapping_nics: tuple[tuple[str, int], ...]
    """(node, NIC index) of each mapping line: where the cloud layer's address for it comes from."""
    wiring: PodNetworkWiring
    needs_ip_spoofing: bool
    """The cloud layer sets ``allow_ip_spoofing`` on the secondary VNIs (macvlan)."""


@dataclass(frozen=True)
class JobPlan:
    layout: PodLayout
    scc_name: str
    """Cluster-scoped, so prefixed with the namespace: two stacks' jobs stay apart."""
    benchmark_transport: Transport | None
    """What the NCCL benchmark's transport assertion requires, or None."""


@dataclass(frozen=True)
class Plan:
    addresses: AddressPlan
    fabric: FabricPlan
    job: JobPlan
    stops: tuple[WorkerStop, ...] = ()
    """The adopted workers ``pulumi up`` stops to attach cluster NICs, in rolling order."""
    rollout: str = ""
    """The roll-out's id (``rollout_id``): what a consent names; empty when nothing stops."""


def address_plan(cfg: ClusterConfig, inventory: ClusterInventory | None = None) -> AddressPlan:
    """Every node's NICs and addresses: read from ``kubernetes.nodes`` (``layers: kubernetes``), else
    planned for the cloud layer, with the existing cluster's ``inventory`` when the stack adopts or
    joins one.  ``validation`` makes it once, checks it, and hands it to ``make_plan``."""
    return plan_from_existing(cfg) if cfg.layers == "kubernetes" else plan_addresses(cfg, inventory)


def make_plan(cfg: ClusterConfig, addresses: AddressPlan) -> Plan:
    """The plan of a validated config around its checked ``addresses`` (``validation`` calls this
    last, after the fabric checks that the guest interface names and IPAM ranges need)."""
    fabric = plan_fabric(cfg, addresses)
    stops = plan_stops(cfg, addresses.nodes)
    nics = [
        (node, ",".join(f"{n.index}:{n.subnet_cidr}:{n.ip}" for n in addresses.nics_of(node) if n.role == "cluster"))
        for node in addresses.nodes
    ]
    job = job_plan(cfg.job, fabric.wiring, nodes=cfg.nodes.count, gpus_per_node=cfg.profile.gpus)
    return Plan(addresses=addresses, fabric=fabric, job=job, stops=stops, rollout=rollout_id(stops, nics))


def plan_fabric(cfg: ClusterConfig, addresses: AddressPlan) -> FabricPlan:
    attachment = attachment_of(cfg)
    indices = used_indices(addresses) if attachment else []
    names = resolved_names(cfg, indices)
    rdma = cfg.network.variant in RDMA_VARIANTS
    nads = tuple(
        NadSpec(
            name=network_name(cfg, k),
            interface=f"net{k}",
            device=names[k],
            attachment=attachment,
            ipam=ipam_config(cfg, addresses, k),
        )
        for k in indices
        if attachment == "host-device" or attachment == "macvlan"
    )
    sriov_nics = tuple(
        SriovNicSpec(
            name=network_name(cfg, k),
            interface=f"net{k}",
            pf_name=names[k],
            resource_name=nic_resource_name(cfg, k),
            ipam=ipam_config(cfg, addresses, k),
        )
        for k in indices
        if attachment == "sriov-operator"
    )
    rdma_resources = tuple(
        RdmaResourceSpec(resource_name=nic_resource_name(cfg, k), interface=names[k])
        for k in indices
        if rdma and attachment == "host-device"
    )
    multus = attachment is not None and not cfg.kubernetes.openshift
    resources = {f"{cfg.fabric.sriov.resource_prefix}/{n.resource_name}": 1 for n in sriov_nics}
    resources |= {f"{RDMA_RESOURCE_PREFIX}/{r.resource_name}": 1 for r in rdma_resources}
    mapping = attachment is not None and cfg.fabric.ip_assignment == "mapping"
    configmap = mapping_configmap_name(cfg) if mapping else None
    namespace = cfg.namespace
    wiring = PodNetworkWiring(
        variant=cfg.network.variant,
        namespace=namespace,
        networks=(*(n.name for n in nads), *(n.name for n in sriov_nics)),
        interfaces=tuple(f"net{k}" for k in indices),
        extended_resources=resources,
        ip_mapping_configmap=configmap,
        ip_mapping_key=IP_MAPPING_KEY,
        needs_net_admin=mapping,
        rdma=rdma,
    )
    return FabricPlan(
        instance=cfg.namespace,
        namespace=namespace,
        attachment=attachment,
        nads=nads,
        sriov_nics=sriov_nics,
        sriov_operator_namespace=sriov_operator_namespace(cfg),
        rdma_resources=rdma_resources,
        multus_and_cni_plugins=multus,
        nic_cluster_policy=bool(rdma_resources) or multus or (rdma and cfg.fabric.rdma.ofed_driver is not None),
        mapping_configmap=configmap,
        mapping_lines=tuple(mapping_lines(addresses, names)) if mapping else (),
        mapping_nics=tuple(mapping_nics(addresses)) if mapping else (),
        wiring=wiring,
        needs_ip_spoofing=needs_ip_spoofing(cfg),
    )


def job_plan(job: JobConfig, wiring: PodNetworkWiring, *, nodes: int, gpus_per_node: int) -> JobPlan:
    """The job's decisions from its own section, the fabric's wiring and the node shape."""
    layout = PodLayout(
        kind=job.kind,
        namespace=wiring.namespace,
        image=job.image,
        image_pull_policy=job.image_pull_policy,
        nodes=nodes,
        nproc_per_node=job.nproc_per_node or gpus_per_node,
        wiring=wiring,
        resources=job.resources,
        shm_size=job.shm_size,
        storage_claim=job.storage.claim_name,
        storage_mount=job.storage.mount_path,
        workloads_config_map=f"{job.name}-workloads",
        service_account=job.name,
        nccl_env=nccl_environment(wiring.variant, wiring.interfaces, job.nccl_env),
        env=job.env,
        restart_policy=job.restart_policy,
        backoff_limit=job.backoff_limit,
        elastic=job.elastic,
        master_port=job.master_port,
    )
    transport = benchmark_transport(job.benchmark.expect_transport, wiring.variant, nodes)
    return JobPlan(layout=layout, scc_name=f"{wiring.namespace}-{job.name}", benchmark_transport=transport)
