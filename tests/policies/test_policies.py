"""The CrossGuard pack (``policies/rules.py``) on the project's own stacks, without the CLI.

Each stack runs through the offline engine; its registrations become the analyzer's
arguments the way ``pulumi preview --policy-pack policies`` builds them: resource policies
get every resource's inputs inside the analyzer's unknown-checking proxy plus its options,
stack policies get ``PolicyResource`` objects linked by parent, dependencies and property
dependencies, with a bridged resource's ``id`` among its outputs.  The real stacks must
pass every policy; targeted mutations of their recorded properties must each produce the
expected violation.  ``policies/__main__.py`` is never run (it would serve gRPC forever).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import functools
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from pulumi_policy import (
    PolicyCustomTimeouts,
    PolicyResource,
    PolicyResourceOptions,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    StackValidationArgs,
    StackValidationPolicy,
)
from pulumi_policy.proxy import UNKNOWN_STRING_VALUE, UnknownValueError, unknown_checking_proxy

from experiments.offline.engine import RecordedResource
from experiments.stacks.stackfile import known_stacks, stack_from_config
from experiments.state.preview import run_preview
from policies import rules
from tests.conftest import PROJECT_ROOT

# --- recording the stacks, options included ---------------------------------------------


@dataclasses.dataclass(frozen=True)
class Registration:
    resource: RecordedResource
    delete_before_replace: bool | None
    property_dependencies: dict[str, list[str]]

    @property
    def name(self) -> str:
        return self.resource.name


def _record(stack: Any) -> tuple[Registration, ...]:
    """Run ``stack`` offline; the engine records the options and property dependencies too."""
    return tuple(
        Registration(r, r.delete_before_replace, {k: list(v) for k, v in r.property_dependencies.items()})
        for r in run_preview(stack).result.resources
    )


@functools.cache
def project_stack(name: str) -> tuple[Registration, ...]:
    return _record(name)


_H100 = {
    "profile": "gx3d-160x1792x8h100",
    "count": 2,
    "source": "adopt",
    "machineset": "t-x7k2p-gpu-3",
    "allow_instance_stop": True,
}
_OPENSHIFT = {"openshift": {"infra_id": "t-x7k2p"}}
SYNTHETIC_STACKS: dict[str, dict[str, Any]] = {
    # The standalone cloud layer (layers: cloud): its own VPC, security groups and instances.
    "standalone-vnic": {
        "layers": "cloud",
        "nodes": {"profile": "gx3-48x240x2l40s", "count": 2},
        "network": {"variant": "vnic", "nics_per_node": 2},
    },
    "standalone-rdma": {
        "layers": "cloud",
        "nodes": {"profile": "gx3d-160x1792x8h100", "count": 2},
        "network": {"variant": "sriov-rdma", "nics_per_node": 1},
    },
    # SR-IOV operator: NADs generated from SriovNetworks, RDMA through isRdma VFs (no rdma/ resource).
    "sriov-operator-rdma": {
        "nodes": _H100,
        "network": {"variant": "sriov-rdma", "nics_per_node": 2},
        "fabric": {"attachment": "sriov-operator"},
    },
    "sriov-operator": {
        "nodes": _H100,
        "network": {"variant": "sriov", "nics_per_node": 2},
        "fabric": {"attachment": "sriov-operator"},
    },
    "lws-rdma": {
        "nodes": _H100,
        "network": {"variant": "sriov-rdma", "nics_per_node": 2},
        "job": {"kind": "leaderworkerset"},
    },
    "benchmark-rdma": {
        "nodes": _H100,
        "network": {"variant": "sriov-rdma", "nics_per_node": 8},
        "job": {"enabled": False, "benchmark": {"enabled": True}},
    },
}


@functools.cache
def synthetic_stack(name: str) -> tuple[Registration, ...]:
    cluster = {"name_prefix": f"t-{name}", "zone": "us-east-3", **SYNTHETIC_STACKS[name]}
    if cluster.get("layers") != "cloud":
        cluster.update(_OPENSHIFT)
    return _record(stack_from_config(name, {"gpu-cluster:cluster": cluster}, Path(f"Pulumi.{name}.yaml")))


# --- building the analyzer's arguments --------------------------------------------------


def _options(registration: Registration) -> PolicyResourceOptions:
    return PolicyResourceOptions(
        protect=False,
        ignore_changes=[],
        delete_before_replace=registration.delete_before_replace,
        aliases=[],
        custom_timeouts=PolicyCustomTimeouts(0, 0, 0),
        additional_secret_outputs=[],
        parent=registration.resource.parent,
    )


def resource_args(registration: Registration) -> ResourceValidationArgs:
    r = registration.resource
    return ResourceValidationArgs(
        r.type, unknown_checking_proxy(copy.deepcopy(r.inputs)), r.urn, r.name, _options(registration), None
    )


def _outputs(resource: RecordedResource) -> dict[str, Any]:
    """A bridged IBM resource's outputs carry its ``id``; the rest of the state is its inputs here."""
    outputs = copy.deepcopy(resource.inputs)
    if resource.type.startswith("ibm:") and resource.id is not None:
        outputs["id"] = resource.id
    return outputs


def stack_args(
    registrations: Iterable[Registration], props: Callable[[RecordedResource], dict[str, Any]] = _outputs
) -> StackValidationArgs:
    """The stack as ``AnalyzeStack`` hands it over: resources linked to each other by URN."""
    regs = list(registrations)
    resources = {
        reg.resource.urn: PolicyResource(
            reg.resource.type,
            unknown_checking_proxy(props(reg.resource)),
            reg.resource.urn,
            reg.name,
            _options(reg),
            None,
            None,
            [],
            {},
        )
        for reg in regs
    }
    for reg in regs:
        resource = resources[reg.resource.urn]
        resource.parent = resources.get(reg.resource.parent or "")
        resource.dependencies = [resources[u] for u in reg.resource.dependencies if u in resources]
        resource.property_dependencies = {
            key: [resources[u] for u in urns if u in resources] for key, urns in reg.property_dependencies.items()
        }
    return StackValidationArgs(list(resources.values()))


Violation = tuple[str, str, str]
"""(policy, resource name, message)."""


def violations(
    registrations: Iterable[Registration], *, props: Callable[[RecordedResource], dict[str, Any]] = _outputs
) -> list[Violation]:
    regs = list(registrations)
    names = {reg.resource.urn: reg.name for reg in regs}
    found: list[Violation] = []
    for policy in rules.POLICIES:
        if isinstance(policy, ResourceValidationPolicy):
            for reg in regs:
                policy.validate(
                    resource_args(reg), lambda msg, urn=None, p=policy.name, n=reg.name: found.append((p, n, msg))
                )
        elif isinstance(policy, StackValidationPolicy):
            policy.validate(
                stack_args(regs, props),
                lambda msg, urn=None, p=policy.name: found.append((p, names.get(urn or "", ""), msg)),
            )
    return found


# --- mutating recorded stacks -----------------------------------------------------------


def mutate(
    registrations: Iterable[Registration],
    name: str,
    change: Callable[[dict[str, Any]], None],
    literal: Iterable[str] = (),
) -> list[Registration]:
    """The registrations with resource ``name``'s inputs changed in place by ``change``; the
    properties in ``literal`` now hold plain values, so they no longer depend on anything."""
    result = []
    for reg in registrations:
        if reg.name == name:
            inputs = copy.deepcopy(reg.resource.inputs)
            change(inputs)
            dependencies = {k: v for k, v in reg.property_dependencies.items() if k not in set(literal)}
            reg = dataclasses.replace(
                reg, resource=dataclasses.replace(reg.resource, inputs=inputs), property_dependencies=dependencies
            )
        result.append(reg)
    assert any(r.name == name for r in result), f"no resource {name}"
    return result


def without(registrations: Iterable[Registration], name: str) -> list[Registration]:
    regs = list(registrations)
    assert any(r.name == name for r in regs), f"no resource {name}"
    return [r for r in regs if r.name != name]


def pod(job: dict[str, Any], role: str = "Master") -> dict[str, Any]:
    template: dict[str, Any] = job["spec"]["pytorchReplicaSpecs"][role]["template"]
    return template


def container(job: dict[str, Any], role: str = "Master") -> dict[str, Any]:
    spec: dict[str, Any] = pod(job, role)["spec"]["containers"][0]
    return spec


def set_env(job: dict[str, Any], name: str, value: str, role: str = "Master") -> None:
    env = [e for e in container(job, role)["env"] if e["name"] != name]
    container(job, role)["env"] = [*env, {"name": name, "value": value}]


JOB = "gpu-training-job"
RDMA = "h100-2n-sriov-rdma"
SOCKET = "h100-2n-pod"
VNIC = "dev"


def only(found: list[Violation]) -> Violation:
    assert len(found) == 1, found
    return found[0]


# --- every project stack passes ---------------------------------------------------------


@pytest.mark.parametrize("stack", known_stacks(PROJECT_ROOT))
@pytest.mark.slow
def test_every_project_stack_passes_every_policy(stack: str) -> None:
    regs = project_stack(stack)
    assert any(r.name == JOB for r in regs)
    assert violations(regs) == []


@pytest.mark.parametrize("stack", sorted(SYNTHETIC_STACKS))
def test_other_supported_layouts_pass_every_policy(stack: str) -> None:
    assert violations(synthetic_stack(stack)) == []


def test_sriov_operator_layout_exercises_generated_nads_and_rdma_vfs() -> None:
    """The layout the rdma/ prefix alone would misjudge: RDMA VFs named by the SR-IOV policy."""
    regs = synthetic_stack("sriov-operator-rdma")
    kinds = {r.resource.type.rsplit(":", 1)[-1] for r in regs}
    assert {"SriovNetwork", "SriovNetworkNodePolicy"} <= kinds and "NetworkAttachmentDefinition" not in kinds
    job = next(r for r in regs if r.name == JOB).resource.inputs
    assert not any(k.startswith("rdma/") for k in container(job)["resources"]["limits"])
    assert "IPC_LOCK" in container(job)["securityContext"]["capabilities"]["add"]
    # Without the node policies' isRdma the same pods enable IB on no RDMA device.
    regs = [
        mutate([r], r.name, lambda i: i["spec"].update(isRdma=False))[0]
        if r.resource.type.endswith(":SriovNetworkNodePolicy")
        else r
        for r in regs
    ]
    assert {v[0] for v in violations(regs)} == {"job-rdma-consistency"}


def test_stack_policies_hold_in_a_preview_where_ids_are_unknown() -> None:
    """In a first preview no IBM ID is known: references resolve through property dependencies."""
    for regs in (project_stack(VNIC), project_stack(RDMA), synthetic_stack("standalone-vnic")):
        ids = {r.resource.id for r in regs if r.resource.type.startswith("ibm:") and r.resource.id}

        def fresh(resource: RecordedResource, ids: set[str | None] = ids) -> dict[str, Any]:
            def unknown(value: Any) -> Any:
                if isinstance(value, dict):
                    return {k: unknown(v) for k, v in value.items()}
                if isinstance(value, list):
                    return [unknown(v) for v in value]
                return UNKNOWN_STRING_VALUE if value in ids else value

            return {k: unknown(v) for k, v in _outputs(resource).items()}

        assert violations(regs, props=fresh) == []
        for rule in [r.name for r in regs if r.name.endswith(("net-sg-secondary-in", "secondary-sg-inbound"))]:
            opened = mutate(regs, rule, lambda i: i.update(remote="0.0.0.0/0"), literal=["remote"])
            assert only(violations(opened, props=fresh))[0] == "secondary-sg-self-only"


# --- 1. IBM names -----------------------------------------------------------------------


def test_ibm_resource_without_a_name() -> None:
    regs = mutate(synthetic_stack("standalone-vnic"), "gpu-net-vpc", lambda i: i.pop("name"))
    assert only(violations(regs)) == (
        "ibm-explicit-names",
        "gpu-net-vpc",
        "IsVpc sets no `name`: the IBM bridge auto-names it `<logical name>-<7 random chars>`, which no experiment "
        "can predict; pass name= explicitly",
    )


def test_ibm_name_filled_in_by_the_bridge_counts_as_missing() -> None:
    """After the bridge's Check an auto-name is present, but listed in ``__defaults``."""
    regs = mutate(
        synthetic_stack("standalone-vnic"),
        "gpu-net-sg-secondary",
        lambda i: i.update(name="gpu-net-sg-secondary-4f1c2ab", __defaults=["name"]),
    )
    assert [(p, n) for p, n, _ in violations(regs)] == [("ibm-explicit-names", "gpu-net-sg-secondary")]


@pytest.mark.parametrize("bad", ["GPU-vpc", "gpu_vpc", "gpu-vpc-", "7gpu", "g" * 64])
def test_ibm_name_must_be_lowercase_hyphen_and_short(bad: str) -> None:
    regs = mutate(synthetic_stack("standalone-vnic"), "gpu-net-vpc", lambda i: i.update(name=bad))
    policy, name, message = only(violations(regs))
    assert (policy, name) == ("ibm-explicit-names", "gpu-net-vpc")
    assert message.startswith(f"IsVpc name {bad!r} is not a valid IBM name")


def test_ibm_named_kinds_cover_every_named_resource_of_the_sdk() -> None:
    sdk = PROJECT_ROOT / "sdks" / "ibm" / "pulumi_ibm"
    named, unnamed = set(), set()
    for module in sdk.glob("is_*.py"):
        text = module.read_text()
        token = re.search(r'type_token\("ibm:index/\w+:(\w+)"\)', text)
        assert token, module
        (named if 'pulumi.property("name"' in text else unnamed).add(token.group(1))
    assert named and named <= rules.IBM_NAMED_KINDS
    assert not unnamed & rules.IBM_NAMED_KINDS  # IsInstanceAction takes no name


# --- 2. delete before replace -----------------------------------------------------------


def test_ibm_resource_without_delete_before_replace() -> None:
    regs = [
        dataclasses.replace(r, delete_before_replace=None) if r.name == "gpu-net-sg-secondary-in" else r
        for r in synthetic_stack("standalone-vnic")
    ]
    assert only(violations(regs)) == (
        "ibm-delete-before-replace",
        "gpu-net-sg-secondary-in",
        "IsSecurityGroupRule has a fixed IBM name but no deleteBeforeReplace: a replacement would create the new "
        "resource under the name the old one still holds, and IBM rejects the duplicate",
    )


def test_every_named_ibm_resource_of_the_program_is_delete_before_replace() -> None:
    regs = [r for r in project_stack(RDMA) if r.resource.type.rsplit(":", 1)[-1] in rules.IBM_NAMED_KINDS]
    create_first = [r for r in regs if r.resource.type.rsplit(":", 1)[-1] in rules.ADDRESS_NAMED_KINDS]
    assert len(regs) > 20 and all(r.delete_before_replace is True for r in regs if r not in create_first)
    # The reserved IPs are replaced create-first, under a name that changes with their address.
    assert create_first and all(rules.ADDRESS_DIGEST.search(r.resource.inputs["name"]) for r in create_first)


# --- 3. pod security --------------------------------------------------------------------


def test_privileged_container() -> None:
    regs = mutate(project_stack(RDMA), JOB, lambda job: container(job)["securityContext"].update(privileged=True))
    assert only(violations(regs)) == ("job-pod-security", JOB, "Master pod, container 'pytorch': privileged container")


def test_sys_admin_capability() -> None:
    regs = mutate(
        project_stack(RDMA),
        JOB,
        lambda job: container(job, "Worker")["securityContext"]["capabilities"]["add"].append("SYS_ADMIN"),
    )
    assert only(violations(regs)) == (
        "job-pod-security",
        JOB,
        "Worker pod, container 'pytorch': adds capabilities SYS_ADMIN; only IPC_LOCK, NET_ADMIN are allowed",
    )


def test_privilege_escalation_left_to_the_default() -> None:
    regs = mutate(
        project_stack(SOCKET), JOB, lambda job: container(job)["securityContext"].pop("allowPrivilegeEscalation")
    )
    assert only(violations(regs))[2] == (
        "Master pod, container 'pytorch': allowPrivilegeEscalation is not false (Kubernetes defaults it to true)"
    )


def test_leader_worker_set_pods_are_checked_too() -> None:
    def escalate(job: dict[str, Any]) -> None:
        template = job["spec"]["leaderWorkerTemplate"]["workerTemplate"]
        template["spec"]["containers"][0]["securityContext"]["allowPrivilegeEscalation"] = True

    regs = mutate(synthetic_stack("lws-rdma"), JOB, escalate)
    assert only(violations(regs))[1:] == (
        JOB,
        "worker pod, container 'pytorch': allowPrivilegeEscalation is not false (Kubernetes defaults it to true)",
    )


# --- 4./5. NCCL and RDMA consistency ----------------------------------------------------


def test_ib_enabled_on_a_socket_pod() -> None:
    regs = mutate(project_stack(SOCKET), JOB, lambda job: set_env(job, "NCCL_IB_DISABLE", "0"))
    assert only(violations(regs)) == (
        "job-rdma-consistency",
        JOB,
        f"{JOB}: Master pod, container 'pytorch': NCCL_IB_DISABLE=0 on a pod that requests no RDMA resource "
        "(NCCL would look for InfiniBand/RoCE devices it does not have)",
    )


def test_nccl_net_ib_on_a_vnic_pod() -> None:
    regs = mutate(project_stack(VNIC), JOB, lambda job: set_env(job, "NCCL_NET", "IB", role="Worker"))
    assert "NCCL_NET=IB on a pod that requests no RDMA resource" in only(violations(regs))[2]


def test_ipc_lock_without_an_rdma_resource() -> None:
    regs = mutate(
        project_stack(VNIC),
        JOB,
        lambda job: container(job)["securityContext"]["capabilities"]["add"].append("IPC_LOCK"),
    )
    assert only(violations(regs)) == (
        "job-rdma-consistency",
        JOB,
        f"{JOB}: Master pod, container 'pytorch': adds IPC_LOCK without requesting an RDMA resource",
    )


def test_rdma_pod_losing_its_rdma_resource() -> None:
    def drop_rdma(job: dict[str, Any]) -> None:
        for part in ("limits", "requests"):
            resources = container(job)["resources"][part]
            for key in [k for k in resources if k.startswith("rdma/")]:
                del resources[key]

    found = violations(mutate(project_stack(RDMA), JOB, drop_rdma))
    assert [v[0] for v in found] == ["job-rdma-consistency", "job-rdma-consistency"]
    assert "adds IPC_LOCK" in found[0][2] and "NCCL_IB_DISABLE=0 and NCCL_NET=IB" in found[1][2]


def test_socket_ifname_naming_an_interface_the_pod_lacks() -> None:
    regs = mutate(project_stack(VNIC), JOB, lambda job: set_env(job, "NCCL_SOCKET_IFNAME", "net1,net3"))
    assert only(violations(regs)) == (
        "job-nccl-socket-interfaces",
        JOB,
        "Master pod, container 'pytorch': NCCL_SOCKET_IFNAME=net1,net3 names net3, but the "
        "k8s.v1.cni.cncf.io/networks annotation has only net1, net2",
    )


def test_socket_ifname_on_a_pod_without_secondary_networks() -> None:
    regs = mutate(project_stack(SOCKET), JOB, lambda job: set_env(job, "NCCL_SOCKET_IFNAME", "net1"))
    assert only(violations(regs))[2] == (
        "Master pod, container 'pytorch': NCCL_SOCKET_IFNAME=net1 names net1, but a pod without it has only eth0"
    )


@pytest.mark.parametrize("value", ["net", "=net1,net2", "^lo,docker", "net2"])
def test_socket_ifname_follows_nccl_prefix_and_exclusion_rules(value: str) -> None:
    assert violations(mutate(project_stack(VNIC), JOB, lambda job: set_env(job, "NCCL_SOCKET_IFNAME", value))) == []


def test_socket_ifname_exact_match_does_not_take_prefixes() -> None:
    regs = mutate(project_stack(VNIC), JOB, lambda job: set_env(job, "NCCL_SOCKET_IFNAME", "=net"))
    assert only(violations(regs))[0] == "job-nccl-socket-interfaces"


def test_multus_short_form_and_default_interface_names() -> None:
    annotation = {rules.NETWORKS_ANNOTATION: "a, other/b@fast, c"}
    template = rules.PodTemplate("Master", "ns", {"annotations": annotation}, {})
    ref = rules.NetworkRef
    expected = [ref("ns", "a", "net1"), ref("other", "b", "fast"), ref("ns", "c", "net3")]
    assert rules.multus_networks(template) == expected
    broken = rules.PodTemplate("Master", "ns", {"annotations": {rules.NETWORKS_ANNOTATION: "[{"}}, {})
    with pytest.raises(ValueError, match="not valid JSON"):
        rules.multus_networks(broken)


# --- 6. Multus networks exist -----------------------------------------------------------


def test_nad_missing_from_the_stack() -> None:
    found = violations(without(project_stack(RDMA), "gpu-fabric-nads-net1"))
    assert found == [
        (
            "multus-networks-exist",
            JOB,
            f"{JOB}: {role} pod attaches network h100-2n-sriov-rdma-training/h100-2n-sriov-rdma-training-net1, "
            "but the stack declares no such "
            "NetworkAttachmentDefinition (the pod would stay in ContainerCreating)",
        )
        for role in ("Master", "Worker")
    ]


def test_nad_in_another_namespace_does_not_count() -> None:
    regs = mutate(project_stack(VNIC), "gpu-fabric-nads-net2", lambda i: i["metadata"].update(namespace="default"))
    found = violations(regs)
    assert [(p, n) for p, n, _ in found] == [("multus-networks-exist", JOB)] * 2  # Master and Worker
    assert "gpu-dev-training/gpu-dev-training-net2" in found[0][2]


def test_sriov_network_writes_its_nad_into_the_network_namespace() -> None:
    regs = synthetic_stack("sriov-operator-rdma")
    network = next(r.name for r in regs if r.resource.type.endswith(":SriovNetwork"))
    moved = mutate(regs, network, lambda i: i["spec"].update(networkNamespace="elsewhere"))
    assert {(p, n) for p, n, _ in violations(moved)} == {("multus-networks-exist", JOB)}


# --- 7. cluster network attachments -----------------------------------------------------


def test_instance_with_four_cluster_attachments() -> None:
    regs = mutate(
        synthetic_stack("standalone-rdma"),
        "gpu-node0-instance",
        lambda i: i.update(clusterNetworkAttachments=i["clusterNetworkAttachments"][:4]),
    )
    assert only(violations(regs)) == (
        "cluster-network-attachment-count",
        "gpu-node0-instance",
        "gpu-node0-instance: 4 cluster network attachments; IBM accepts 8, 16 or 32 per instance",
    )


def test_standalone_cluster_attachments_count_with_the_inline_ones() -> None:
    regs = mutate(
        synthetic_stack("standalone-rdma"),
        "gpu-node1-instance",
        lambda i: i.update(clusterNetworkAttachments=i["clusterNetworkAttachments"][:7]),
    )
    instance = next(r for r in regs if r.name == "gpu-node1-instance")
    token = "ibm:index/isInstanceClusterNetworkAttachment:IsInstanceClusterNetworkAttachment"
    standalone = RecordedResource(
        urn=instance.resource.urn.replace("ibm:index/isInstance:IsInstance::gpu-node1-instance", f"{token}::cnic8"),
        type=token,
        name="cnic8",
        parent=instance.resource.parent,
        custom=True,
        inputs={"instanceId": instance.resource.id, "name": "n1-cnic8"},
        dependencies=(instance.resource.urn,),
        id="att-8",
    )
    by_dependency = Registration(standalone, True, {"instanceId": [instance.resource.urn]})
    by_id = Registration(standalone, True, {})
    assert violations([*regs, by_dependency]) == []
    assert violations([*regs, by_id]) == []
    assert [v[1] for v in violations(regs)] == ["gpu-node1-instance"]


# --- 8. secondary security group --------------------------------------------------------


def test_sg_rule_from_anywhere_on_the_secondary_group() -> None:
    regs = mutate(
        synthetic_stack("standalone-vnic"),
        "gpu-net-sg-secondary-in",
        lambda i: i.update(remote="0.0.0.0/0"),
        literal=["remote"],
    )
    assert only(violations(regs)) == (
        "secondary-sg-self-only",
        "gpu-net-sg-secondary-in",
        "gpu-net-sg-secondary-in: inbound rule of the secondary group gpu-net-sg-secondary admits '0.0.0.0/0'; "
        "it may only admit members of the group itself (remote = the group's own ID)",
    )


def test_secondary_group_found_by_ids_alone() -> None:
    """Without property dependencies (a stack built elsewhere) the group's ``id`` output decides."""
    regs = [
        dataclasses.replace(r, property_dependencies={})
        for r in mutate(
            synthetic_stack("standalone-vnic"),
            "gpu-net-sg-secondary-in",
            lambda i: i.update(remote="10.0.0.0/8"),
            literal=["remote"],
        )
    ]
    assert only(violations(regs))[:2] == ("secondary-sg-self-only", "gpu-net-sg-secondary-in")


def test_secondary_group_found_through_the_vnic_attachments() -> None:
    """Renamed, the group is still the secondary one: the secondary vNICs use it."""
    regs = mutate(synthetic_stack("standalone-vnic"), "gpu-net-sg-secondary", lambda i: i.update(name="gpu-dev-data"))
    regs = mutate(regs, "gpu-net-sg-secondary-in", lambda i: i.update(remote="0.0.0.0/0"), literal=["remote"])
    assert only(violations(regs))[0] == "secondary-sg-self-only"


def test_rules_other_than_secondary_inbound_are_not_restricted() -> None:
    regs = mutate(
        synthetic_stack("standalone-vnic"),
        "gpu-net-sg-secondary-out",
        lambda i: i.update(remote="0.0.0.0/0"),
        literal=["remote"],
    )
    regs = mutate(regs, "gpu-net-sg-mgmt-members", lambda i: i.update(remote="10.0.0.0/8"), literal=["remote"])
    assert violations(regs) == []


# --- the pack itself --------------------------------------------------------------------


def test_policies_are_named_described_and_leveled() -> None:
    levels = {p.name: p.enforcement_level.value for p in rules.POLICIES if p.enforcement_level}
    assert len(levels) == len(rules.POLICIES) == 8
    assert all(len(p.description) > 40 for p in rules.POLICIES)
    assert {n for n, level in levels.items() if level == "advisory"} == {"ibm-delete-before-replace"}
    assert {p.name for p in rules.POLICIES if isinstance(p, StackValidationPolicy)} == {
        "job-rdma-consistency",
        "multus-networks-exist",
        "cluster-network-attachment-count",
        "secondary-sg-self-only",
    }


def test_unknown_name_defers_the_name_policy_to_the_update() -> None:
    """A name not known in a preview stops the policy with UnknownValueError, which the analyzer
    reports as "can't run during preview" (advisory) rather than as a violation."""
    reg = next(r for r in synthetic_stack("standalone-vnic") if r.name == "gpu-net-vpc")
    args = resource_args(mutate([reg], reg.name, lambda i: i.update(name=UNKNOWN_STRING_VALUE))[0])
    policy = next(p for p in rules.POLICIES if p.name == "ibm-explicit-names")
    with pytest.raises(UnknownValueError):
        policy.validate(args, lambda msg, urn=None: None)


def test_policy_pack_is_constructed_only_in_main() -> None:
    """``PolicyPack(...)`` serves gRPC forever: it must stay out of anything importable."""
    pack = PROJECT_ROOT / "policies"
    main = ast.parse((pack / "__main__.py").read_text())
    calls = [n for n in ast.walk(main) if isinstance(n, ast.Call)]
    assert [ast.unparse(c.func) for c in calls] == ["PolicyPack"]
    for module in sorted(pack.glob("*.py")):
        if module.name != "__main__.py":
            importable = ast.parse(module.read_text())
            assert not [
                n for n in ast.walk(importable) if isinstance(n, ast.Call) and "PolicyPack" in ast.unparse(n.func)
            ], module.name
    assert (pack / "requirements.txt").read_text().split() == ["pulumi-policy==1.21.0", "pulumi==3.272.0"]
    assert "runtime: python" in (pack / "PulumiPolicy.yaml").read_text()


def test_the_pack_imports_as_the_cli_runs_it() -> None:
    """With only the pack's directory on sys.path (the project not importable), as the CLI runs it."""
    probe = "import rules; print(sorted(p.name for p in rules.POLICIES))"
    out = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, '.'); {probe}"],
        cwd=PROJECT_ROOT / "policies",
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "ibm-explicit-names" in out and "multus-networks-exist" in out
