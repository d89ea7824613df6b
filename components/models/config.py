"""The typed experiment configuration: one ``gpu-cluster:cluster`` object per stack.

Every stack file holds a single structured key, ``gpu-cluster:cluster``, validated here
by frozen pydantic models field by field (unknown keys are errors).  Rules across fields and
layers run once, in ``components.checks.validation``, on the config and its plan; both report the
exact field path, so a bad stack file fails before any resource is registered.  The key
paths ``zone``, ``nodes.profile``, ``nodes.count``,
``network.variant`` and ``network.nics_per_node`` are a public contract.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, Field
from pydantic_core import InitErrorDetails, PydanticCustomError

from components.models.catalog import PROFILES, InstanceProfile, ProfileName, region_of
from components.models.fabric_config import FabricConfig, KubernetesConfig
from components.models.job_config import JobConfig
from components.models.model import ConfigModel
from components.models.source import (
    IbmResourceName,
    JoinConfig,
    NodeSource,
    OpenShiftConfig,
    StopConsent,
    ibm_name_rule,
)
from components.models.types import ipv4_network

__all__ = [
    "CLUSTER_KEY",
    "IBM_PROVIDER_API_KEY",
    "MUST_BE_SECRET",
    "PROJECT",
    "KUBEADM_CA_CERT_HASH",
    "KUBEADM_TOKEN",
    "SECRET_KEYS",
    "WORKER_IGNITION",
    "ClusterConfig",
    "NetworkConfig",
    "NETWORK_VARIANTS",
    "NetworkVariant",
    "NodesConfig",
    "SecurityConfig",
    "config_error",
]

PROJECT = "gpu-cluster"
CLUSTER_KEY = "cluster"
"""``gpu-cluster:cluster``: the one structured key of every stack file."""
SSH_PUBLIC_KEY = "sshPublicKey"
IBM_API_KEY = "ibmcloudApiKey"
KUBECONFIG = "kubeconfig"
WORKER_IGNITION = "workerIgnition"
"""``join`` with ``nodes.join.ignition: secret``: the cluster's worker pointer ignition."""
KUBEADM_TOKEN = "kubeadmToken"
KUBEADM_CA_CERT_HASH = "kubeadmCaCertHash"
SECRET_KEYS = (SSH_PUBLIC_KEY, IBM_API_KEY, KUBECONFIG, WORKER_IGNITION, KUBEADM_TOKEN, KUBEADM_CA_CERT_HASH)
"""Keys that only ever hold Pulumi secrets (``pulumi config set --secret``)."""
IBM_PROVIDER_API_KEY = f"ibm:{IBM_API_KEY}"
"""The provider's own key, which ``load`` also accepts: a secret too."""
MUST_BE_SECRET = (*(f"{PROJECT}:{key}" for key in SECRET_KEYS), IBM_PROVIDER_API_KEY)
"""Every fully qualified config key whose plaintext value is refused."""


NAMESPACE_SUFFIX = "-training"
"""Default namespace ``<name_prefix>-training``: ``gpu-training`` for the default prefix, as before."""
DEFAULT_SUBNET_PREFIX_LENGTH = 24
STANDALONE_IMAGE = "ibm-redhat-9-6-minimal-amd64-1"
CLUSTER_RESERVED_IP_QUOTA = 5000
"""Cluster network subnet reserved IPs per account (IBM quota); every cluster NIC holds one."""

NetworkVariant = Literal["pod", "vnic", "sriov", "sriov-rdma"]
NETWORK_VARIANTS: tuple[NetworkVariant, ...] = get_args(NetworkVariant)
"""Every network variant, in the order tables list them (the pods' ``workloads/launch_env.py`` keeps its own copy,
which a test holds equal)."""
Layers = Literal["both", "cloud", "kubernetes"]
CLUSTER_NETWORK_VARIANTS: frozenset[str] = frozenset({"sriov", "sriov-rdma"})

# IBM VPC keeps the network address, the first three hosts (gateway and two reserved)
# and the broadcast address of every subnet for itself.
IBM_RESERVED_LOW_ADDRESSES = 4
IBM_RESERVED_ADDRESSES = IBM_RESERVED_LOW_ADDRESSES + 1


def _zone_name(value: str) -> str:
    region_of(value)
    if value.rsplit("-", 1)[1] not in {"1", "2", "3"}:
        raise ValueError(f"{value!r} is not an IBM Cloud zone: zones are numbered 1 to 3 (like 'us-east-3')")
    return value


# Ranges a VPC or cluster network cannot use: IBM's service network and cloud service
# endpoints (routed from every VPC), loopback, link-local, multicast, "this network".
_UNUSABLE_RANGES = {
    "161.26.0.0/16": "IBM Cloud's service network",
    "166.8.0.0/14": "IBM Cloud's service endpoints",
    "127.0.0.0/8": "loopback",
    "169.254.0.0/16": "link-local",
    "224.0.0.0/4": "multicast",
    "0.0.0.0/8": "'this network'",
}


def _address_range(value: str) -> str:
    network = ipaddress.IPv4Network(ipv4_network(value))
    for reserved, what in _UNUSABLE_RANGES.items():
        if network.overlaps(ipaddress.IPv4Network(reserved)):
            raise ValueError(f"{network} overlaps {reserved} ({what}), which a VPC cannot use")
    return str(network)


_TAG = re.compile(r"^[A-Za-z0-9 _.:-]+$")


def _tag(value: str) -> str:
    if not _TAG.fullmatch(value):
        raise ValueError(f"{value!r}: IBM tags hold letters, digits, spaces and _ . : - only")
    return value


IbmName = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(ibm_name_rule)]
AddressRange = Annotated[str, AfterValidator(_address_range)]
Tag = Annotated[str, Field(min_length=1, max_length=128), AfterValidator(_tag)]
ZoneName = Annotated[str, AfterValidator(_zone_name)]
Ipv4Cidr = Annotated[str, AfterValidator(ipv4_network)]


DYNAMIC_PROVIDER_THREADS = 4
"""Calls the Python dynamic-provider host serves at once: ``python -m pulumi.dynamic`` runs its gRPC server on
``futures.ThreadPoolExecutor(max_workers=4)`` (pulumi 3.272.0, ``pulumi/dynamic/__main__.py``, ``main``).  Each
rolling step holds one of those threads for as long as it runs (up to an hour), so a fifth lane would only queue
behind the other four."""


def _lanes(value: int) -> int:
    if value > DYNAMIC_PROVIDER_THREADS:
        raise ValueError(
            f"{value} lanes cannot run: the Pulumi Python dynamic-provider host that runs the rolling "
            f"steps serves {DYNAMIC_PROVIDER_THREADS} calls at once, and each step holds one while its "
            f"worker is out of service; set at most {DYNAMIC_PROVIDER_THREADS}"
        )
    return value


def config_error(loc: tuple[str | int, ...], message: str, value: Any) -> InitErrorDetails:
    """One field-level error for a cross-field rule, reported at ``loc``."""
    return InitErrorDetails(type=PydanticCustomError("gpu_cluster", message), loc=loc, input=value)


class NodesConfig(ConfigModel):
    """The GPU nodes of the experiment, and where they come from."""

    source: NodeSource = "standalone"
    """``adopt``: the cluster's existing GPU workers get the NICs; ``join``: new instances join the
    cluster; ``standalone``: a VPC and instances of their own, in no cluster (``layers: cloud`` only)."""
    profile: ProfileName
    """IBM instance profile of every GPU node."""
    count: int = Field(ge=1, le=1024)
    """Number of GPU nodes."""
    names: list[IbmResourceName] | None = Field(default=None, min_length=1, max_length=1024)
    """``adopt``: the workers to use (``oc get machines -n openshift-machine-api``); ``join``: the names
    of the new instances, which are also their hostnames and Kubernetes node names."""
    machineset: IbmResourceName | None = None
    """``adopt``: use every instance whose name starts with ``<machineset>-`` instead of listing names."""
    allow_instance_stop: StopConsent = False
    """``adopt`` with a cluster network: IBM attaches cluster NICs only to a stopped instance, so each
    worker is stopped, attached and started.  Stopping wipes a gx3d's instance storage.  ``true`` consents
    to the stack's first roll-out; any later one (a changed NIC plan, workers added or dropped) needs its
    own consent, the roll-out's id the preview prints (``rollout-<8 hex digits>``)."""
    max_unavailable: Annotated[int, Field(ge=1, le=1024), AfterValidator(_lanes)] = 1
    """``adopt`` with a cluster network: at most this many workers out of service at once (each is
    cordoned, drained, stopped, attached, started and Ready before the next of its lane); at most
    ``DYNAMIC_PROVIDER_THREADS``, what the provider host runs at once."""
    drain_delete_emptydir_data: bool = False
    """``adopt`` with a cluster network: let the drain evict pods with ``emptyDir`` volumes, whose data the
    eviction deletes (``oc adm drain --delete-emptydir-data``); otherwise such a pod stops the drain."""
    drain_timeout_s: int = Field(default=900, ge=30, le=7200)
    """``adopt`` with a cluster network: how long a drain may wait for evictions (PodDisruptionBudgets)."""
    hosts: dict[IbmResourceName, Annotated[int, Field(ge=0, le=65535)]] = Field(default_factory=dict, max_length=1024)
    """``adopt``: a worker's host number (past IBM's four reserved addresses, the same in every secondary subnet)
    instead of the one its name hashes to (``components.plan.inventory.host_numbers``): what the selection's
    refusal of an address still reserved by another worker asks for, to keep the addresses where they are."""
    allow_worker_change: bool = False
    """``adopt``: let ``pulumi up`` move the NICs when the selection swaps workers (a MachineSet scale or
    an MHC replacement changed which instances match); refused otherwise."""
    image: str | None = Field(default=None, min_length=1)
    """VPC image name: ``standalone`` default ``ibm-redhat-9-6-minimal-amd64-1``; ``join`` default the
    cluster's RHCOS image (``openshift.image``)."""
    join: JoinConfig = JoinConfig()


class NetworkConfig(ConfigModel):
    """How the nodes talk to each other during training."""

    variant: NetworkVariant
    """``pod``: the cluster's pod network; ``vnic``: secondary VPC vNICs, one subnet each;
    ``sriov``/``sriov-rdma``: the H100/H200 cluster network's SR-IOV NICs, over TCP or RDMA."""
    nics_per_node: int = Field(ge=0, le=32)
    """Secondary NICs the training job uses on every node (0 for ``pod``)."""
    attached_nics: int | None = Field(default=None, ge=0, le=32)
    """Secondary NICs attached to every node: vNICs for ``vnic`` (default: ``nics_per_node``),
    cluster NICs for ``sriov*`` (8, 16 or 32; default 8).  The job may use fewer."""
    vpc_cidr: AddressRange = "10.241.0.0/16"
    """The VPC address prefix in the node zone; management and vNIC subnets are carved from it."""
    subnet_prefix_length: int | None = Field(default=None, ge=16, le=29)
    """Size of every VPC and cluster subnet; default /24.  Set it before a cluster outgrows /24:
    changing it later replaces every subnet."""
    cluster_network_cidr: AddressRange = "10.0.0.0/16"
    """The cluster network's subnet prefix (``sriov*`` only); one subnet per cluster NIC."""

    @property
    def uses_cluster_network(self) -> bool:
        return self.variant in CLUSTER_NETWORK_VARIANTS

    @property
    def secondary_nics(self) -> int:
        """Secondary NICs attached per node, with the variant's default applied."""
        if self.attached_nics is not None:
            return self.attached_nics
        if self.uses_cluster_network:
            return 8
        return self.nics_per_node if self.variant == "vnic" else 0


class SecurityConfig(ConfigModel):
    """Who may reach the nodes from outside the cluster."""

    ssh_allowed_cidrs: list[Ipv4Cidr] = Field(default_factory=list)
    """Sources allowed to SSH to the nodes' management interfaces (none by default)."""
    ssh_key_name: IbmName | None = None
    """An SSH key that already exists in the region (``ibmcloud is keys``), used instead of creating
    one from ``gpu-cluster:sshPublicKey``.  IBM refuses a second key with the same fingerprint, so
    every stack after the first that uses the same public key must name the existing key."""


class ClusterConfig(ConfigModel):
    """One experiment: where, which nodes, which network."""

    name_prefix: IbmName = "gpu"
    """Prefix of every cloud resource name (IBM names are unique per account and region)."""
    zone: ZoneName
    """IBM Cloud zone of the nodes, e.g. ``us-east-3``."""
    resource_group: str | None = None
    """Resource group name; the account's default group when unset."""
    nodes: NodesConfig
    network: NetworkConfig
    security: SecurityConfig = SecurityConfig()
    tags: list[Tag] = Field(default_factory=list)
    """Extra user tags on every taggable cloud resource."""
    layers: Layers = "both"
    """What this stack manages: the IBM Cloud resources, the Kubernetes objects, or both.
    With ``kubernetes`` the nodes already exist and their NICs come from ``kubernetes.nodes``."""
    openshift: OpenShiftConfig = OpenShiftConfig()
    """The existing cluster (``nodes.source: adopt`` or ``join``)."""
    kubernetes: KubernetesConfig = KubernetesConfig()
    fabric: FabricConfig = FabricConfig()
    job: JobConfig = JobConfig()

    @property
    def region(self) -> str:
        return region_of(self.zone)

    @property
    def namespace(self) -> str:
        """The training namespace: ``kubernetes.namespace`` when set, else derived from the stack's own
        ``name_prefix`` (unique per account and region), so every stack gets its own."""
        return self.kubernetes.namespace or f"{self.name_prefix}{NAMESPACE_SUFFIX}"

    @property
    def image_name(self) -> str | None:
        """The image new instances boot from (None when the stack creates no instance)."""
        if self.nodes.source == "standalone":
            return self.nodes.image or STANDALONE_IMAGE
        if self.nodes.source == "join":
            return self.nodes.image or self.openshift.image_name()
        return None

    @property
    def uses_existing_cluster(self) -> bool:
        """Whether the cloud layer looks the cluster up (``adopt``/``join`` with cloud resources)."""
        return self.nodes.source != "standalone" and self.layers != "kubernetes"

    @property
    def profile(self) -> InstanceProfile:
        return PROFILES[self.nodes.profile]

    @property
    def subnet_prefix_length(self) -> int:
        """The configured subnet size, else /24.  Deliberately not derived from the node count:
        growing the subnets would re-plan every subnet and address (IBM replaces a subnet whose
        CIDR changes), so a cluster that outgrows /24 is an error asking for an explicit size."""
        return self.network.subnet_prefix_length or DEFAULT_SUBNET_PREFIX_LENGTH
