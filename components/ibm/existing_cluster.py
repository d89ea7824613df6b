"""The cloud layer of a stack that adopts an existing cluster's GPU workers or joins nodes to it."""

from __future__ import annotations

import pulumi

from components.args import ComponentArgs, OutputRef
from components.compat import allow_deep_dependency_chains, unwalked
from components.ibm.account import lookup_resource_group_id, resource_tags
from components.ibm.adopted import AdoptedWorker, AdoptedWorkerArgs
from components.ibm.clusternet import ClusterNetwork, ClusterNetworkArgs
from components.ibm.joined import JoiningNode, JoiningNodeArgs
from components.ibm.secondary import SecondarySubnets, SecondarySubnetsArgs
from components.ibm.sshkey import ssh_key_id
from components.models.config import ClusterConfig
from components.models.workers import ClusterInventory
from components.ops.selection import WorkerSelection
from components.plan.inventory import AddressPlan
from components.plan.stops import WorkerStop

__all__ = ["ExistingCluster", "ExistingClusterArgs"]


class ExistingClusterArgs(ComponentArgs):
    config: ClusterConfig
    inventory: ClusterInventory
    """The cluster as the lookup found it: VPC, compute subnet, security groups, image, workers."""
    addresses: AddressPlan
    stops: tuple[WorkerStop, ...] = ()
    rollout: str = ""
    """The roll-out's id, which a consent after the stack's first roll-out must name."""
    """``adopt`` with cluster NICs: the plan's rolling order (which worker waits for which)."""
    allow_ip_spoofing: bool = False
    ssh_public_key: OutputRef = None
    """``join``: the key to create (unset when ``security.ssh_key_name`` names an existing one)."""
    user_data: OutputRef = None
    """``join``: what makes an instance join (ignition or cloud-init), a Pulumi secret."""
    ibm_api_key: OutputRef = None
    """``adopt`` with cluster NICs: the API key secret the rolling steps call IBM with."""
    kubeconfig: OutputRef = None
    """``adopt`` with cluster NICs: the kubeconfig secret of the cluster (None: the ambient one)."""


class ExistingCluster(pulumi.ComponentResource):
    """NICs for an existing cluster's nodes, in that cluster's VPC.

    Children: ``SecondarySubnets`` (``vnic``), a ``ClusterNetwork`` in the cluster's VPC
    (``sriov*``), and one ``AdoptedWorker`` per selected worker (``adopt``) or, for ``join``, the
    SSH key and one ``JoiningNode`` per node.  Children are named after the node, so adding a
    node adds components and renames none.
    """

    instance_ids: list[pulumi.Output[str]]
    vpc_id: pulumi.Output[str]
    cluster_network_id: pulumi.Output[str] | None
    nic_addresses: dict[tuple[str, int], pulumi.Output[str]]
    """(node, NIC index) → the address of every secondary NIC, as the cloud resources report it."""
    applied_rollout: pulumi.Output[str] | None
    """``adopt`` with cluster NICs: the roll-out's id once every worker is back in service (the stack's
    ``appliedRollout`` output, ``components.ops.applied``); unresolved while any step has not finished."""
    join_addresses: dict[str, pulumi.Output[list[str]]]
    """``join``: per node, the addresses IBM gave its NICs (primary first), which ``approve-csrs`` checks a
    serving certificate's IPs against (``joinNodes`` output)."""

    def __init__(self, name: str, args: ExistingClusterArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("gpu-cluster:existing_cluster:ExistingCluster", name, None, opts)
        cfg, inventory, plan = args.config, args.inventory, args.addresses
        child = pulumi.ResourceOptions(parent=self)
        prefix = cfg.name_prefix
        tags = resource_tags(cfg)
        resource_group_id = lookup_resource_group_id(self, cfg)
        subnets = None
        if plan.vnic_subnets:
            subnets = SecondarySubnets(
                f"{name}-secondary",
                SecondarySubnetsArgs(
                    ibm_name_prefix=prefix,
                    zone=cfg.zone,
                    vpc_id=inventory.vpc_id,
                    prefix_cidr=cfg.network.vpc_cidr,
                    subnets=plan.vnic_subnets,
                    resource_group_id=resource_group_id,
                    tags=tags,
                ),
                opts=child,
            )
        cluster_network = None
        if plan.cluster_subnets:
            cluster_network = ClusterNetwork(
                f"{name}-cn",
                ClusterNetworkArgs(
                    ibm_name_prefix=prefix,
                    zone=cfg.zone,
                    vpc_id=inventory.vpc_id,
                    prefix_cidr=cfg.network.cluster_network_cidr,
                    subnets=plan.cluster_subnets,
                    resource_group_id=resource_group_id,
                ),
                opts=child,
            )
        vnic_subnet_ids = subnets.subnet_ids if subnets else []
        secondary_group = subnets.security_group_id if subnets else None
        cluster_subnet_ids = cluster_network.subnet_ids if cluster_network else []
        self.nic_addresses = {}
        self.join_addresses = {}
        self.instance_ids = []
        self.applied_rollout = None
        if cfg.nodes.source == "adopt":
            # Every change to a worker waits for the selection check; worker k+m's stop for worker k's return.
            selection = WorkerSelection(
                f"{name}-selection",
                [w.name for w in inventory.workers],
                cfg.nodes.allow_worker_change,
                opts=child,
                consent=cfg.nodes.allow_instance_stop,
                rollout=args.rollout,
                hosts=cfg.nodes.hosts,
                addresses={
                    w.name: [f"{n.subnet_cidr}/{n.ip}" for n in plan.nics_of(w.name) if n.role != "primary"]
                    for w in inventory.workers
                },
            )
            if args.stops:
                allow_deep_dependency_chains(len(inventory.workers))
            waits_for = {stop.worker: stop.after for stop in args.stops}
            returned: dict[str, pulumi.Resource | None] = {}
            for worker in inventory.workers:
                after = waits_for.get(worker.name)
                before = returned.get(after) if after else None
                adopted = AdoptedWorker(
                    f"{name}-{worker.name}",
                    AdoptedWorkerArgs(
                        worker=worker.name,
                        instance_id=worker.id,
                        nic_model=worker.nic_model,
                        ibm_name_prefix=prefix,
                        nics=plan.nics_of(worker.name),
                        cluster_network_id=cluster_network.network_id if cluster_network else None,
                        vnic_subnet_ids=vnic_subnet_ids,
                        secondary_security_group_id=secondary_group,
                        allow_ip_spoofing=args.allow_ip_spoofing,
                        cluster_subnet_ids=cluster_subnet_ids,
                        region=cfg.region,
                        ibm_api_key=args.ibm_api_key,
                        kubeconfig=args.kubeconfig,
                        kube_context=cfg.kubernetes.context,
                        drain_timeout_s=cfg.nodes.drain_timeout_s,
                        drain_delete_emptydir_data=cfg.nodes.drain_delete_emptydir_data,
                        allow_instance_stop=cfg.nodes.allow_instance_stop,
                        # The lane's link: recorded as any wait is, without the SDK's walk of the lane so far.
                        wait_for=[selection, *([unwalked(before)] if before else [])],
                    ),
                    opts=child,
                )
                returned[worker.name] = adopted.in_service
                self.instance_ids.append(pulumi.Output.from_input(worker.id))
                self.nic_addresses |= {(worker.name, k): ip for k, ip in adopted.nic_addresses.items()}
            back = [step.id for step in returned.values() if isinstance(step, pulumi.CustomResource)]
            if args.stops and back:
                rollout = args.rollout
                self.applied_rollout = pulumi.Output.all(*back).apply(lambda _: rollout)
        else:
            key_id = ssh_key_id(
                self,
                name,
                ibm_name_prefix=prefix,
                existing_key=cfg.security.ssh_key_name,
                public_key=args.ssh_public_key,
                resource_group_id=resource_group_id,
                tags=tags,
            )
            for node in plan.nodes:
                joined = JoiningNode(
                    f"{name}-{node}",
                    JoiningNodeArgs(
                        node=node,
                        ibm_name_prefix=prefix,
                        profile=cfg.nodes.profile,
                        zone=cfg.zone,
                        vpc_id=inventory.vpc_id,
                        image_id=str(inventory.image_id),
                        compute_subnet_id=inventory.compute_subnet_id,
                        cluster_security_group_ids=inventory.security_group_ids,
                        user_data=args.user_data,
                        ssh_key_ids=[key_id],
                        nics=plan.nics_of(node),
                        resource_group_id=resource_group_id,
                        tags=tags,
                        vnic_subnet_ids=vnic_subnet_ids,
                        secondary_security_group_id=secondary_group,
                        allow_ip_spoofing=args.allow_ip_spoofing,
                        cluster_subnet_ids=cluster_subnet_ids,
                    ),
                    opts=child,
                )
                self.instance_ids.append(joined.instance_id)
                self.nic_addresses |= {(node, k): ip for k, ip in joined.nic_addresses.items()}
                self.join_addresses[node] = pulumi.Output.all(
                    joined.primary_address, *joined.nic_addresses.values()
                ).apply(lambda ips: [ip for ip in ips if ip])
        self.vpc_id = pulumi.Output.from_input(inventory.vpc_id)
        self.cluster_network_id = cluster_network.network_id if cluster_network else None
        self.register_outputs(
            {"instance_ids": self.instance_ids, "vpc_id": self.vpc_id, "cluster_network_id": self.cluster_network_id}
        )
