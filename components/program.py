"""The program function shared by ``__main__.py``, the tests, the offline preview and sweeps.

``pulumi_program()`` is the whole program: ``load()`` reads the stack's config (here and nowhere
else), parses it, looks up the cluster it adopts or joins and plans it, once each
(``components.checks.validation``; the offline engine passes the ``PlannedCluster`` its stack file
made instead), plus the secrets and the workload files; ``build()`` declares every resource from
them, the components rendering the parts of the plan they are given; the stack outputs are
exported.  Providers are built here, at the edge, and reach components only through ``opts``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pulumi
import pulumi_ibm as ibm
import pulumi_kubernetes as k8s

from components.checks.discovery import CloudLookups, discover
from components.checks.source_checks import stop_consent_errors
from components.checks.validation import ConfigurationError, PlannedCluster, parse_cluster, plan_cluster
from components.compat import unwalked
from components.config_source import ConfigSource, join_secrets, refuse_plaintext_secrets, ssh_public_key
from components.ibm.cluster import GpuCluster, GpuClusterArgs
from components.ibm.existing_cluster import ExistingCluster, ExistingClusterArgs
from components.ibm.lookup import SdkLookups
from components.k8s.benchmark import NcclBenchmark, NcclBenchmarkArgs
from components.k8s.claims import WorkerClaims, WorkerClaimsArgs
from components.k8s.fabric import Fabric, FabricArgs
from components.k8s.training import TrainingJob, TrainingJobArgs, WorkloadFiles
from components.manifests.userdata import ignition_from_secret, kubeadm_cloud_init
from components.models.config import (
    CLUSTER_KEY,
    IBM_API_KEY,
    KUBEADM_CA_CERT_HASH,
    KUBEADM_TOKEN,
    KUBECONFIG,
    PROJECT,
    WORKER_IGNITION,
    ClusterConfig,
)
from components.models.workers import ClusterInventory
from components.ops.applied import APPLIED_ROLLOUT, announce_stops
from components.plan.plan import Plan

__all__ = [
    "ConfigSource",
    "ConfigurationError",
    "Deployment",
    "PlannedCluster",
    "StackInputs",
    "build",
    "load",
    "pulumi_program",
    "read_workload_files",
]

WORKLOADS_DIR = Path(__file__).resolve().parents[1] / "workloads"


@dataclass(frozen=True)
class StackInputs:
    """Everything a stack's config says, validated; secrets stay ``Output`` secrets."""

    cluster: ClusterConfig
    plan: Plan
    """Every decision about the experiment, computed once from ``cluster``."""
    ssh_public_key: pulumi.Output[str] | None
    ibmcloud_api_key: pulumi.Output[str] | None
    kubeconfig: pulumi.Output[str] | None
    workload_files: WorkloadFiles
    inventory: ClusterInventory | None = None
    """The existing cluster as looked up (``adopt``/``join``)."""
    ibm_provider: ibm.Provider | None = None
    """The one IBM provider (region from the zone), built with the config; None without cloud layer."""
    join_secrets: dict[str, pulumi.Output[str]] | None = None
    """``join``: the secrets its user data needs (worker ignition, or kubeadm token and CA hash)."""


@dataclass(frozen=True)
class Deployment:
    """What ``build`` declared, for exports and for callers that inspect it."""

    config: ClusterConfig
    plan: Plan
    cluster: GpuCluster | ExistingCluster | None
    fabric: Fabric | None
    training: TrainingJob | None
    benchmark: NcclBenchmark | None

    def outputs(self) -> dict[str, Any]:
        outputs: dict[str, Any] = {
            "namePrefix": self.config.name_prefix,
            "nodes": list(self.plan.addresses.nodes),
            "nics": [nic.model_dump() for nic in self.plan.addresses.nics],
        }
        if self.config.nodes.source == "adopt":
            # What this stack changed: the next `up` refuses to swap them silently (WorkerSelection).
            outputs["adoptedWorkers"] = list(self.plan.addresses.nodes)
        if isinstance(self.cluster, ExistingCluster) and self.cluster.join_addresses:
            # approve-csrs --stack-outputs: IBM's addresses, not a kubelet's claim (no instance creation time exists).
            outputs["joinNodes"] = {node: {"addresses": ips} for node, ips in self.cluster.join_addresses.items()}
        if self.cluster is not None:
            outputs.update(
                instanceIds=self.cluster.instance_ids,
                vpcId=self.cluster.vpc_id,
                clusterNetworkId=self.cluster.cluster_network_id,
            )
        if isinstance(self.cluster, ExistingCluster) and self.cluster.applied_rollout is not None:
            outputs[APPLIED_ROLLOUT] = self.cluster.applied_rollout  # read back by the next run (ops.applied)
        if self.fabric is not None:
            outputs["podNetworks"] = list(self.fabric.wiring.networks)
        if self.training is not None:
            outputs["trainingJob"] = self.training.job_name
        if self.benchmark is not None:
            outputs["ncclBenchmarkJob"] = self.benchmark.job_name
        return outputs


def read_workload_files(directory: Path = WORKLOADS_DIR) -> WorkloadFiles:
    """entrypoint.sh and every module beside it (the package marker stays home)."""
    names = ["entrypoint.sh", *sorted(p.name for p in directory.glob("*.py") if p.name != "__init__.py")]
    return WorkloadFiles(files={name: (directory / name).read_text() for name in names})


def load(
    config: ConfigSource | None = None,
    lookups: CloudLookups | None = None,
    planned: PlannedCluster | None = None,
    parent: pulumi.Resource | None = None,
) -> StackInputs:
    """The stack's config, validated and planned, unless the caller did both (``planned``).  A stack that
    adopts or joins a cluster looks it up first (``lookups``, by default the IBM provider's data sources).
    ``parent``: the component the resources belong to (the package's ``GpuCluster``), else the stack."""
    config = config or pulumi.Config(PROJECT)
    cluster = planned.cluster if planned else parse_cluster(config.require_object(CLUSTER_KEY))
    refuse_plaintext_secrets()
    ssh_key = ssh_public_key(config, cluster)  # checked before the first resource: a private key is refused
    # The explicit provider reads no `ibm:` config itself: accept the provider's own key too.
    api_key = config.get_secret(IBM_API_KEY) or pulumi.Config("ibm").get_secret(IBM_API_KEY)
    provider = None
    if cluster.layers != "kubernetes":
        # One explicit provider: its region always matches the zone.
        provider = ibm.Provider(
            "ibm", region=cluster.region, ibmcloud_api_key=api_key, opts=pulumi.ResourceOptions(parent=parent)
        )
    if planned is None:  # `adopt`/`join` run with the cloud layer, hence a provider
        inventory = (
            discover(cluster, lookups or SdkLookups(provider)) if provider and cluster.uses_existing_cluster else None
        )
        planned = PlannedCluster(cluster=cluster, plan=plan_cluster(cluster, inventory), inventory=inventory)
    plan, inventory = planned.plan, planned.inventory
    if plan.stops:  # what `pulumi preview` shows the user (Diagnostics), if the roll-out is new; `up` asks for consent
        announce_stops(cluster, plan.stops, plan.rollout, parent)
        if refused := stop_consent_errors(cluster, plan.stops, pulumi.runtime.is_dry_run(), plan.rollout):
            raise ConfigurationError(refused)
    return StackInputs(
        cluster=cluster,
        plan=plan,
        ssh_public_key=ssh_key,
        ibmcloud_api_key=api_key,
        kubeconfig=config.get_secret(KUBECONFIG),
        workload_files=read_workload_files(),
        inventory=inventory,
        ibm_provider=provider,
        join_secrets=join_secrets(config, cluster),
    )


def build(inputs: StackInputs, parent: pulumi.Resource | None = None) -> Deployment:
    """Declare every resource of the stack from its validated, planned inputs (``load``): the IBM layer, the
    Kubernetes layer, or both; ``parent``: the component they belong to (``components.package``), else the stack."""
    cfg, plan = inputs.cluster, inputs.plan
    k8s_provider = claims = None
    if cfg.layers in ("both", "kubernetes") or plan.stops:  # a cloud-only stack that stops workers claims them too
        # The kubeconfig secret, else the ambient one; never upsert: a second stack's claim must fail.
        k8s_provider = k8s.Provider(
            "k8s",
            kubeconfig=inputs.kubeconfig,
            context=cfg.kubernetes.context,
            upsert_existing_objects=False,
            opts=pulumi.ResourceOptions(parent=parent),
        )
        claims = WorkerClaims.on(
            k8s_provider, WorkerClaimsArgs(nodes=plan.addresses.nodes, holder=cfg.namespace), parent=parent
        )
    cluster: GpuCluster | ExistingCluster | None = None
    if inputs.ibm_provider is not None:
        on_ibm = pulumi.ResourceOptions.merge(
            pulumi.ResourceOptions(providers=[inputs.ibm_provider], parent=parent),
            claims.after_claims() if claims else None,
        )
        if inputs.inventory is not None:
            cluster = ExistingCluster(
                "gpu",
                ExistingClusterArgs(
                    config=cfg,
                    inventory=inputs.inventory,
                    addresses=plan.addresses,
                    stops=plan.stops,
                    rollout=plan.rollout,
                    allow_ip_spoofing=plan.fabric.needs_ip_spoofing,
                    ssh_public_key=inputs.ssh_public_key,
                    user_data=_user_data(inputs, k8s_provider, parent),
                    ibm_api_key=inputs.ibmcloud_api_key,
                    kubeconfig=inputs.kubeconfig,
                ),
                opts=on_ibm,
            )
        else:
            cluster = GpuCluster(
                "gpu",
                GpuClusterArgs(
                    config=cfg,
                    addresses=plan.addresses,
                    allow_ip_spoofing=plan.fabric.needs_ip_spoofing,
                    ssh_public_key=inputs.ssh_public_key,
                ),
                opts=on_ibm,
            )
    fabric = training = benchmark = None
    if k8s_provider is not None and cfg.layers != "cloud":
        fabric, training, benchmark = _kubernetes_layer(inputs, cluster, k8s_provider, claims, parent)
    return Deployment(config=cfg, plan=plan, cluster=cluster, fabric=fabric, training=training, benchmark=benchmark)


def _user_data(
    inputs: StackInputs, k8s_provider: k8s.Provider | None, parent: pulumi.Resource | None
) -> pulumi.Output[str] | None:
    """What makes a ``join`` node join: read from the cluster, or built from the stack's secrets."""
    secrets, cfg = inputs.join_secrets, inputs.cluster
    if secrets is None:
        return None
    if KUBEADM_TOKEN in secrets:
        endpoint = str(cfg.nodes.join.kubeadm_endpoint)
        return pulumi.Output.secret(
            pulumi.Output.all(secrets[KUBEADM_TOKEN], secrets[KUBEADM_CA_CERT_HASH]).apply(
                lambda values: kubeadm_cloud_init(endpoint=endpoint, token=values[0], ca_cert_hash=values[1])
            )
        )
    if WORKER_IGNITION in secrets:
        return secrets[WORKER_IGNITION]
    # Read, not managed: the installer owns this secret.
    worker_user_data = k8s.core.v1.Secret.get(
        "worker-user-data",
        "openshift-machine-api/worker-user-data",
        opts=pulumi.ResourceOptions(provider=k8s_provider, parent=parent),
    )
    return pulumi.Output.secret(worker_user_data.data.apply(lambda data: ignition_from_secret(data["userData"])))


def _mapping_text(plan: Plan, cluster: GpuCluster | ExistingCluster | None) -> pulumi.Output[str] | None:
    """The mapping file with every address as the cloud resources report it: the ConfigMap then
    follows what IBM really gave each NIC, not what the plan asked for."""
    if not isinstance(cluster, ExistingCluster) or not plan.fabric.mapping_nics:
        return None
    lines = [
        pulumi.Output.concat(line.rsplit(":", 1)[0], ":", cluster.nic_addresses[nic], "\n")
        for line, nic in zip(plan.fabric.mapping_lines, plan.fabric.mapping_nics, strict=True)
    ]
    return pulumi.Output.all(*lines).apply("".join)


def pulumi_program(planned: PlannedCluster | None = None) -> dict[str, Any]:
    """The Pulumi program of every stack: ``__main__.py`` runs it, and so do the sweep's inline
    program and any Automation API user (``auto.create_or_select_stack(..., program=pulumi_program)``);
    the offline engine passes its stack file's ``planned`` config and reads the outputs returned."""
    try:
        deployment = build(load(planned=planned))
    except ConfigurationError as error:
        raise pulumi.RunError(f"invalid stack configuration:\n{error}") from None
    for key, value in (outputs := deployment.outputs()).items():
        pulumi.export(key, value)
    return outputs


def _kubernetes_layer(
    inputs: StackInputs,
    cluster: GpuCluster | ExistingCluster | None,
    provider: k8s.Provider,
    claims: WorkerClaims | None,
    parent: pulumi.Resource | None,
) -> tuple[Fabric, TrainingJob, NcclBenchmark | None]:
    cfg, plan = inputs.cluster, inputs.plan
    on_cluster = pulumi.ResourceOptions(
        providers=[provider], depends_on=[r for r in (cluster, claims) if r], parent=parent
    )
    if cfg.kubernetes.create_namespace:
        namespace = k8s.core.v1.Namespace(
            "gpu-namespace",
            metadata=k8s.meta.v1.ObjectMetaArgs(name=cfg.namespace, labels={"app.kubernetes.io/part-of": PROJECT}),
            # Kept by destroy, like the training claim in it: deleting the namespace would delete the claim.
            opts=pulumi.ResourceOptions.merge(on_cluster, pulumi.ResourceOptions(retain_on_delete=True)),
        )
    else:  # An administrator's (the in-cluster setup.yaml): read, so never changed or deleted by the stack.
        namespace = k8s.core.v1.Namespace.get("gpu-namespace", cfg.namespace, opts=on_cluster)
    after_namespace = unwalked(namespace)  # waits for the cluster once; the SDK does not walk it afterwards
    on_namespace = pulumi.ResourceOptions(providers=[provider], depends_on=[after_namespace], parent=parent)
    fabric = Fabric(
        "gpu-fabric",
        FabricArgs(
            plan=plan.fabric,
            settings=cfg.fabric,
            namespace_dependencies=[after_namespace],
            mapping_text=_mapping_text(plan, cluster),
        ),
        opts=on_namespace,
    )
    after_fabric = pulumi.ResourceOptions.merge(on_namespace, pulumi.ResourceOptions(depends_on=[fabric]))
    # Renders the pods' shared objects always, the training job itself only when enabled.
    training = TrainingJob(
        "gpu-training",
        TrainingJobArgs(
            job=cfg.job,
            layout=plan.job.layout,
            scc_name=plan.job.scc_name,
            openshift=cfg.kubernetes.openshift,
            manage_scc=cfg.kubernetes.create_scc,
            files=inputs.workload_files,
        ),
        opts=after_fabric,
    )
    benchmark = None
    if cfg.job.benchmark.enabled:
        benchmark = NcclBenchmark(
            "gpu-nccl-benchmark",
            NcclBenchmarkArgs(
                layout=plan.job.layout,
                benchmark=cfg.job.benchmark,
                name=cfg.job.benchmark_name,
                transport=plan.job.benchmark_transport,
            ),
            opts=pulumi.ResourceOptions(providers=[provider], depends_on=[training], parent=parent),
        )
    return fabric, training, benchmark
