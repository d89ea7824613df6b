"""The component package: ``GpuCluster``, the whole experiment as one component, for every Pulumi language.

``pulumi package add <this repository>/provider`` (or a released package) runs ``serve()`` through
``provider/PulumiPlugin.yaml``; the Python SDK's component provider (``pulumi.provider.experimental``,
pulumi 3.272) infers the schema from ``GpuClusterInputs`` and the component's output annotations, and calls
``GpuCluster(name, inputs, opts)`` for each ``construct``. The inputs are a stack file's: ``cluster`` is
its ``gpu-cluster:cluster`` mapping, the rest its secrets; they are validated, looked up and planned
exactly as a stack's (``components.program.load``), and the same ``build`` declares the resources, as
children of the component.  ``components.package.package_provider`` adds to the inferred schema what inference cannot
say (the ``allowInstanceStop`` union, the secret inputs) and refuses unknown keys before construction.

A roll-out's consent and record: ``nodes.allowInstanceStop`` takes ``true`` or the roll-out id the preview
names; the component reads the roll-out last applied in full from its stack's ``appliedRollout`` output
(``components.ops.applied``, a StackReference of the stack itself) and exports it as its own
``appliedRollout``, which the consumer exports under that name (docs/install.md).
"""

# No `from __future__ import annotations`: the SDK reads the annotations as objects (inspect.get_annotations).

from importlib import metadata
from typing import TYPE_CHECKING, Any, NotRequired, Optional, TypedDict

import pulumi

from components.checks.validation import ConfigurationError
from components.config_source import ConfigSource
from components.models.config import (
    CLUSTER_KEY,
    IBM_API_KEY,
    KUBEADM_CA_CERT_HASH,
    KUBEADM_TOKEN,
    KUBECONFIG,
    SSH_PUBLIC_KEY,
    WORKER_IGNITION,
)
from components.models.inputs import ClusterInputs
from components.ops.applied import APPLIED_ROLLOUT
from components.program import build, load

if TYPE_CHECKING:
    from components.package.package_provider import PackageProvider

__all__ = ["PACKAGE", "TOKEN", "GpuCluster", "GpuClusterInputs", "package_schema", "provider", "serve", "version"]

PACKAGE = "gpu-cluster"
TOKEN = f"{PACKAGE}:index:GpuCluster"
"""The SDK's component provider serves only the ``index`` module (``ComponentProvider.validate_resource_type``),
so this one token departs from ``gpu-cluster:<module>:<Name>``."""


class GpuClusterInputs(TypedDict):
    """A stack file's settings: the cluster mapping and the secrets."""

    cluster: ClusterInputs
    """The experiment: a stack file's gpu-cluster:cluster mapping (zone, nodes, network, ...)."""
    ssh_public_key: NotRequired[pulumi.Input[str]]
    """Public key the created nodes accept (unless cluster.security.ssh_key_name names an existing one)."""
    ibmcloud_api_key: NotRequired[pulumi.Input[str]]
    """IBM Cloud API key of the component's IBM provider (default: the ibm:ibmcloudApiKey config)."""
    kubeconfig: NotRequired[pulumi.Input[str]]
    """kubeconfig of the cluster (default: the ambient one)."""
    worker_ignition: NotRequired[pulumi.Input[str]]
    """join with nodes.join.ignition: secret: the cluster's worker pointer ignition."""
    kubeadm_token: NotRequired[pulumi.Input[str]]
    """join of a kubeadm cluster (kubernetes.openshift: false): the bootstrap token."""
    kubeadm_ca_cert_hash: NotRequired[pulumi.Input[str]]
    """join of a kubeadm cluster: the CA certificate hash (sha256:...)."""


_SECRETS = {
    SSH_PUBLIC_KEY: "ssh_public_key",
    IBM_API_KEY: "ibmcloud_api_key",
    KUBECONFIG: "kubeconfig",
    WORKER_IGNITION: "worker_ignition",
    KUBEADM_TOKEN: "kubeadm_token",
    KUBEADM_CA_CERT_HASH: "kubeadm_ca_cert_hash",
}
"""Stack config key -> input name (the schema camelCases it back to the stack's key)."""


def _whole_numbers(value: Any) -> Any:
    """Numbers reach a provider as floats; the provider turns the typed ``int`` inputs back, not those inside
    the pass-through mappings (``job``, ``fabric``), which the strict models would then refuse."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _whole_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole_numbers(item) for item in value]
    return value


class _InputsSource:
    """``ConfigSource`` over the component's inputs: what ``load`` reads from a stack's config."""

    def __init__(self, inputs: GpuClusterInputs) -> None:
        self._inputs: dict[str, Any] = dict(inputs)

    def get(self, key: str) -> str | None:
        """An input given as text; None for one given as an Output, whose value is known only when it resolves."""
        value = self._inputs.get(_SECRETS.get(key, key))
        return value if isinstance(value, str) else None

    def get_secret(self, key: str) -> pulumi.Output[str] | None:
        value = self._inputs.get(_SECRETS[key])
        if value is None:
            return None
        # A secret known only when it resolves (another resource's output) is held to the schema's type then: a
        # mapping given as the API key would otherwise reach the IBM provider, whose type check prints it.
        return pulumi.Output.secret(value).apply(lambda resolved: _text_only(key, resolved))

    def require_secret(self, key: str) -> pulumi.Output[str]:
        secret = self.get_secret(key)
        if secret is None:
            raise ConfigurationError([f"{_SECRETS[key]}: required by these cluster settings"])
        return secret

    def require_object(self, key: str) -> Any:
        if key != CLUSTER_KEY:  # the program reads no other structured key
            raise KeyError(key)
        return _whole_numbers(self._inputs.get("cluster"))


def _text_only(key: str, value: Any) -> str:
    if not isinstance(value, str):
        kind = "a mapping" if isinstance(value, dict) else "a list" if isinstance(value, list) else "not text"
        raise ConfigurationError([f"{camel_case_input(key)}: expected text, got {kind}"])
    return value


def camel_case_input(key: str) -> str:
    """A secret's input as the schema names it (``sshPublicKey``)."""
    head, *rest = _SECRETS[key].split("_")
    return head + "".join(part.title() for part in rest)


class GpuCluster(pulumi.ComponentResource):
    """A GPU training experiment on IBM Cloud: nodes, their NICs, the Kubernetes fabric and the training job."""

    name_prefix: pulumi.Output[str]
    """Prefix of every cloud resource name."""
    nodes: pulumi.Output[list[str]]
    """The GPU nodes' names (Kubernetes node names)."""
    instance_ids: Optional[pulumi.Output[list[str]]]
    """IBM instance IDs of the nodes (with the cloud layer)."""
    vpc_id: Optional[pulumi.Output[str]]
    """The VPC the nodes are in (with the cloud layer)."""
    cluster_network_id: Optional[pulumi.Output[str]]
    """The H100 cluster network (sriov and sriov-rdma)."""
    pod_networks: Optional[pulumi.Output[list[str]]]
    """The NetworkAttachmentDefinitions the training pods attach (with the kubernetes layer)."""
    training_job: Optional[pulumi.Output[str]]
    """The PyTorchJob's name (with the kubernetes layer)."""
    nccl_benchmark_job: Optional[pulumi.Output[str]]
    """The NCCL benchmark job's name, when job.benchmark.enabled."""
    applied_rollout: Optional[pulumi.Output[str]]
    """adopt with a cluster network, once every worker is back in service: the roll-out applied in full.  Export
    it as the stack output appliedRollout: the component reads it back from there, so the next preview warns
    about stops only for a new roll-out, and a later roll-out's consent (nodes.allowInstanceStop) is its id."""

    def __init__(self, name: str, args: GpuClusterInputs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__(TOKEN, name, {}, opts)
        source: ConfigSource = _InputsSource(args)
        try:
            deployment = build(load(config=source, parent=self), parent=self)
        except ConfigurationError as error:
            raise ValueError(f"GpuCluster {name}: invalid inputs:\n{error}") from None
        outputs = deployment.outputs()
        self.name_prefix = pulumi.Output.from_input(outputs["namePrefix"])
        self.nodes = pulumi.Output.from_input(outputs["nodes"])
        self.instance_ids = pulumi.Output.all(*outputs["instanceIds"]) if "instanceIds" in outputs else None
        self.vpc_id = outputs.get("vpcId")
        self.cluster_network_id = outputs.get("clusterNetworkId")
        self.pod_networks = pulumi.Output.from_input(outputs["podNetworks"]) if "podNetworks" in outputs else None
        self.training_job = _optional(outputs.get("trainingJob"))
        self.nccl_benchmark_job = _optional(outputs.get("ncclBenchmarkJob"))
        self.applied_rollout = outputs.get(APPLIED_ROLLOUT)
        self.register_outputs(
            {
                key: value
                for key, value in vars(self).items()
                if key in self.__class__.__annotations__ and value is not None
            }
        )


def _optional(value: Any) -> pulumi.Output[Any] | None:
    return None if value is None else pulumi.Output.from_input(value)


def version() -> str:
    """The installed distribution's version: the package's, as its schema states it."""
    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        return "0.0.0"


def provider() -> "PackageProvider":
    """The provider ``serve()`` serves: the SDK's component provider of ``GpuCluster``, its schema inferred and
    completed, its inputs checked (``components.package.package_provider``)."""
    from pulumi.provider.experimental.util import camel_case

    from components.package.package_provider import PackageProvider

    return PackageProvider([GpuCluster], PACKAGE, version(), {camel_case(name) for name in _SECRETS.values()})


def package_schema() -> dict[str, Any]:
    """The schema as the provider answers the engine's ``GetSchema`` (what ``pulumi package get-schema`` prints)."""
    import asyncio
    import json

    from pulumi.provider.server import ProviderServicer
    from pulumi.runtime.proto import provider_pb2

    servicer = ProviderServicer(provider(), [], engine_address="")
    loop = asyncio.new_event_loop()  # its own: asyncio.run would unset the loop a Pulumi program runs on
    try:
        response = loop.run_until_complete(servicer.GetSchema(provider_pb2.GetSchemaRequest(), None))
    finally:
        loop.close()
    return dict(json.loads(response.schema))


def serve() -> None:
    """The provider process (``provider/__main__.py``): Pulumi starts it with the engine's address, it
    answers on a port it prints (the SDK's ``pulumi.provider.main``)."""
    import sys

    from pulumi.provider import main

    main(provider(), sys.argv[1:])
