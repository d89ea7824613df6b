"""The typed experiment configuration: one ``gpu-cluster:cluster`` object per stack.

Every stack file holds a single structured key, ``gpu-cluster:cluster``, validated here
by frozen pydantic models field by field (unknown keys are errors).  Rules across fields and
layers run once, in ``components.validation``, on the config and its plan; both report the
exact field path, so a bad stack file fails before any resource is registered.  The key
paths ``zone``, ``nodes.profile``, ``nodes.count``,
``network.variant`` and ``network.nics_per_node`` are a public contract.
"""

from __future__ import annotations

import difflib
import ipaddress
import re
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, BaseModel, Field
from pydantic_core import InitErrorDetails, PydanticCustomError, ValidationError

from components.models.catalog import PROFILES, InstanceProfile, ProfileName, region_of
from components.models.fabric_config import FabricConfig, KubernetesConfig
from components.models.job_config import JobConfig
from components.models.model import ConfigModel
from components.models.types import ipv4_network

__all__ = [
    "CLUSTER_KEY",
    "IBM_PROVIDER_API_KEY",
    "MUST_BE_SECRET",
    "PROJECT",
    "SECRET_KEYS",
    "ClusterConfig",
    "NetworkConfig",
    "NetworkVariant",
    "NodesConfig",
    "SecurityConfig",
    "config_error",
    "describe_validation_error",
]

PROJECT = "gpu-cluster"
CLUSTER_KEY = "cluster"
"""``gpu-cluster:cluster``: the one structured key of every stack file."""
SSH_PUBLIC_KEY = "sshPublicKey"
IBM_API_KEY = "ibmcloudApiKey"
KUBECONFIG = "kubeconfig"
SECRET_KEYS = (SSH_PUBLIC_KEY, IBM_API_KEY, KUBECONFIG)
"""Keys that only ever hold Pulumi secrets (``pulumi config set --secret``)."""
IBM_PROVIDER_API_KEY = f"ibm:{IBM_API_KEY}"
"""The provider's own key, which ``load`` also accepts: a secret too."""
MUST_BE_SECRET = (*(f"{PROJECT}:{key}" for key in SECRET_KEYS), IBM_PROVIDER_API_KEY)
"""Every fully qualified config key whose plaintext value is refused."""

DEFAULT_SUBNET_PREFIX_LENGTH = 24
CLUSTER_RESERVED_IP_QUOTA = 5000
"""Cluster network subnet reserved IPs per account (IBM quota); every cluster NIC holds one."""

NetworkVariant = Literal["pod", "vnic", "sriov", "sriov-rdma"]
Layers = Literal["both", "cloud", "kubernetes"]
CLUSTER_NETWORK_VARIANTS: frozenset[str] = frozenset({"sriov", "sriov-rdma"})

# IBM VPC keeps the network address, the first three hosts (gateway and two reserved)
# and the broadcast address of every subnet for itself.
IBM_RESERVED_LOW_ADDRESSES = 4
IBM_RESERVED_ADDRESSES = IBM_RESERVED_LOW_ADDRESSES + 1

_IBM_NAME = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")


def _ibm_name(value: str) -> str:
    if not _IBM_NAME.match(value):
        raise ValueError("must be lowercase letters, digits and hyphens, starting with a letter")
    return value


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
    if not _TAG.match(value):
        raise ValueError(f"{value!r}: IBM tags hold letters, digits, spaces and _ . : - only")
    return value


IbmName = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(_ibm_name)]
AddressRange = Annotated[str, AfterValidator(_address_range)]
Tag = Annotated[str, Field(min_length=1, max_length=128), AfterValidator(_tag)]
ZoneName = Annotated[str, AfterValidator(_zone_name)]
Ipv4Cidr = Annotated[str, AfterValidator(ipv4_network)]


def config_error(loc: tuple[str | int, ...], message: str, value: Any) -> InitErrorDetails:
    """One field-level error for a cross-field rule, reported at ``loc``."""
    return InitErrorDetails(type=PydanticCustomError("gpu_cluster", message), loc=loc, input=value)


class NodesConfig(ConfigModel):
    """The GPU instances of the experiment."""

    profile: ProfileName
    """IBM instance profile of every GPU node."""
    count: int = Field(ge=1, le=1024)
    """Number of GPU nodes."""
    image: str = Field(default="ibm-redhat-9-6-minimal-amd64-1", min_length=1)
    """Name of the VPC image the nodes boot from (looked up at deploy time)."""


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
    kubernetes: KubernetesConfig = KubernetesConfig()
    fabric: FabricConfig = FabricConfig()
    job: JobConfig = JobConfig()

    @property
    def region(self) -> str:
        return region_of(self.zone)

    @property
    def profile(self) -> InstanceProfile:
        return PROFILES[self.nodes.profile]

    @property
    def subnet_prefix_length(self) -> int:
        """The configured subnet size, else /24.  Deliberately not derived from the node count:
        growing the subnets would re-plan every subnet and address (IBM replaces a subnet whose
        CIDR changes), so a cluster that outgrows /24 is an error asking for an explicit size."""
        return self.network.subnet_prefix_length or DEFAULT_SUBNET_PREFIX_LENGTH


def describe_validation_error(error: ValidationError, key: str = f"{PROJECT}:{CLUSTER_KEY}") -> list[str]:
    """One line per problem: ``gpu-cluster:cluster.network.nics_per_node: message``.

    A dotted key (``nodes.profile:`` where ``nodes: {profile: ...}`` is meant) is reported once, as
    such, instead of as an unknown key plus a missing one; an unknown key names the closest known one.
    """
    items = error.errors()
    unknown = {tuple(item["loc"]): _meant_key(tuple(item["loc"])) for item in items
               if item["type"] == "extra_forbidden"}
    meant = {(*loc[:-1], name) for loc, (name, _) in unknown.items() if name}
    lines = []
    for item in items:
        loc = tuple(item["loc"])
        if item["type"] == "missing" and loc in meant:
            continue  # reported with the dotted or misspelled key that meant to set it
        message = _readable_message(item)
        if loc in unknown:
            message = unknown[loc][1]
        lines.append(f"{key}{_path(loc)}: {message}")
    return lines


def _path(loc: tuple[str | int, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)


def _readable_message(item: Any) -> str:
    message = str(item["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):
        message = message.removeprefix(prefix)
    return message


def _meant_key(loc: tuple[str | int, ...]) -> tuple[str | None, str]:
    """The known key an unknown one probably meant, and the message that says so."""
    name = str(loc[-1])
    known = _field_names_at(loc[:-1])
    head, dot, rest = name.partition(".")
    if dot and head in known:
        return head, f"dotted keys must be nested: write '{head}:' with '{rest}: ...' indented under it"
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    if close:
        return close[0], f"unknown key; did you mean {close[0]}?"
    return None, "unknown key"


def _field_names_at(loc: tuple[str | int, ...]) -> list[str]:
    """Field names of the config model reached by ``loc`` from ``ClusterConfig`` (empty if none)."""
    model: type[BaseModel] | None = ClusterConfig
    for part in loc:
        if model is None:
            return []
        if isinstance(part, int):
            continue
        field = model.model_fields.get(part)
        model = _model_in(field.annotation) if field is not None else None
    return list(model.model_fields) if model is not None else []


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The config model inside an annotation (``X``, ``X | None``, ``list[X]``, ``Annotated[X, ...]``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None
