"""The runner's RBAC, rendered for every shipped stack and checked against Kubernetes' own rules of
evaluation (a rule matches group, resource and verb, and, where it names objects, only a request that
carries one of those names): every call a step makes is allowed, no rule allows what no call needs,
and nothing that lets the runner escalate (rewrite any SCC, create jobs or read logs anywhere, delete
a Namespace, write RBAC) is granted."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

import pytest
import yaml

from experiments.incluster.admin import in_cluster_cluster
from experiments.incluster.rbac import USER_DATA_SECRET
from experiments.incluster.render import stack_objects
from experiments.incluster.settings import InClusterSettings, SecretRef
from experiments.stacks.stackfile import load_stack, stack_from_config

from ...conftest import PROJECT_ROOT

SETTINGS = InClusterSettings(
    image="quay.io/team/gpu-cluster:1.4.0",
    namespace="gpu-cluster",
    service_account="gpu-cluster-runner",
    state_claim="gpu-cluster-state",
    state_size="5Gi",
    storage_class=None,
    api_key=SecretRef("gpu-cluster-ibm", "apikey"),
    passphrase=SecretRef("gpu-cluster-pulumi", "passphrase"),
    uid=1000,
)
CLUSTER = "gpu-cluster:cluster"
SHIPPED = sorted(p.name[len("Pulumi.") : -len(".yaml")] for p in PROJECT_ROOT.glob("Pulumi.*.yaml"))
RBAC_KINDS = {"roles", "rolebindings", "clusterroles", "clusterrolebindings"}
# Every client method the code that talks to a cluster calls: (verb, group, resource, named). A call
# added to that code without an entry here fails `test_every_client_call_the_code_makes_is_known`.
CLIENT_METHODS = {
    "patch_namespaced_custom_object": None,  # by its arguments: a PyTorchJob (run) or a MachineHealthCheck
    "get_namespaced_custom_object": None,
    "delete_namespaced_custom_object": ("delete", "kubeflow.org", "pytorchjobs", True),
    "list_namespaced_custom_object": ("list", "machine.openshift.io", "machinehealthchecks", False),
    "list_namespaced_pod": ("list", "", "pods", False),
    "read_namespaced_pod_log": ("get", "", "pods/log", True),
    "list_node": ("list", "", "nodes", False),
    "read_node": ("get", "", "nodes", True),
    "patch_node": ("patch", "", "nodes", True),
    "list_pod_for_all_namespaces": ("list", "", "pods", False),
    "create_namespaced_pod_eviction": ("create", "", "pods/eviction", True),
}
CLUSTER_CODE = ["experiments/live/jobrun.py", "experiments/live/nodes.py", "components/ops/kube_client.py"]


@dataclass(frozen=True)
class Request:
    verb: str
    group: str
    resource: str
    namespace: str | None
    name: str | None


def allowed(rbac: list[dict[str, Any]], request: Request) -> bool:
    """Kubernetes' RBAC authorizer, as documented: a ClusterRole bound cluster-wide applies everywhere,
    a Role only in its namespace; ``resourceNames`` only match a request that carries a name."""
    for role in rbac:
        if role["kind"] == "Role" and role["metadata"]["namespace"] != request.namespace:
            continue
        if role["kind"] not in ("Role", "ClusterRole"):
            continue
        for rule in role["rules"]:
            names = rule.get("resourceNames")
            if (
                request.group in rule["apiGroups"]
                and request.resource in rule["resources"]
                and request.verb in rule["verbs"]
                and (not names or request.name in names)
            ):
                return True
    return False


def runner_rbac(setup: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [o for o in setup if o["kind"] in ("Role", "ClusterRole")]


def expected_requests(stack: Any, manifests: list[dict[str, Any]]) -> list[Request]:
    """What the steps send, written from the API's side (not from rbac.py)."""
    plural = PLURAL
    return _requests(stack, manifests, plural)


PLURAL = {
    "Namespace": "namespaces",
    "ConfigMap": "configmaps",
    "Lease": "leases",
    "ServiceAccount": "serviceaccounts",
    "PersistentVolumeClaim": "persistentvolumeclaims",
    "Role": "roles",
    "RoleBinding": "rolebindings",
    "PyTorchJob": "pytorchjobs",
    "SecurityContextConstraints": "securitycontextconstraints",
    "NetworkAttachmentDefinition": "network-attachment-definitions",
    "NicClusterPolicy": "nicclusterpolicies",
}
CLUSTER_SCOPED = {"namespaces", "securitycontextconstraints", "nicclusterpolicies", "nodes"}


def _requests(stack: Any, manifests: list[dict[str, Any]], plural: dict[str, str]) -> list[Request]:
    found = [Request("list", "", "nodes", None, None)]  # stack workers
    if stack.cluster.layers != "cloud":  # the program reads the namespace setup.yaml made (Namespace.get, its awaits)
        found += [Request(v, "", "namespaces", None, stack.cluster.namespace) for v in ("get", "list", "watch")]
    for m in manifests:
        group, ns, name = m["apiVersion"].rpartition("/")[0], m["metadata"].get("namespace"), m["metadata"]["name"]
        verbs = ["get", "list", "watch", "create", "patch", "delete"]
        found += [Request(v, group, plural[m["kind"]], ns, name) for v in verbs]  # SSA: named create
        for rule in m.get("rules") or []:
            found += [
                Request(v, g, r, ns, n)
                for g in rule["apiGroups"]
                for r in rule["resources"]
                for v in rule["verbs"]
                for n in rule.get("resourceNames") or [None]
            ]
        if m["kind"] == "PyTorchJob":
            found += [Request(v, group, "pytorchjobs", ns, name) for v in ("create", "patch", "get", "delete")]
            found.append(Request("list", "", "pods", ns, None))
            for kind, spec in m["spec"]["pytorchReplicaSpecs"].items():
                found += [
                    Request("get", "", "pods/log", ns, f"{name}-{kind.lower()}-{i}")
                    for i in range(spec.get("replicas", 1))
                ]
    if stack.plan.stops:
        found += [
            Request("get", "", "nodes", None, "a-worker"),
            Request("patch", "", "nodes", None, "a-worker"),
            Request("list", "", "pods", None, None),
            Request("create", "", "pods/eviction", "any", "a-pod"),
            Request("list", "machine.openshift.io", "machines", "openshift-machine-api", None),
            Request("list", "machine.openshift.io", "machinehealthchecks", "openshift-machine-api", None),
            Request("get", "machine.openshift.io", "machinehealthchecks", "openshift-machine-api", "mhc"),
            Request("patch", "machine.openshift.io", "machinehealthchecks", "openshift-machine-api", "mhc"),
        ]
    if stack.cluster.nodes.source == "join" and stack.cluster.nodes.join.ignition == "cluster":
        found.append(Request("get", "", "secrets", *USER_DATA_SECRET))
    return found


def in_cluster_stack(stack: Any) -> Any:
    """The stack as the engines ship it: its cluster mapping with the namespace and SCC left to setup.yaml."""
    config = yaml.safe_load(stack.path.read_text())["config"]
    config[CLUSTER] = in_cluster_cluster(config[CLUSTER])
    return stack_from_config(stack.name, config, stack.path)


@pytest.fixture(scope="module")
def rendered() -> dict[str, tuple[Any, list[dict[str, Any]], list[dict[str, Any]]]]:
    """Per shipped stack: the stack, its setup.yaml objects, and what its in-cluster `up` applies (the
    program run on the stack file as the engines ship it)."""
    from experiments.state.preview import kubernetes_manifests, run_preview

    found = {}
    for name in SHIPPED:
        stack = load_stack(name)
        objects = stack_objects(
            stack, SETTINGS, name=name[:42], destroy_on_delete=False, after=[], within="1h", config_secret="cfg"
        )
        found[name] = (stack, objects.setup, kubernetes_manifests(run_preview(in_cluster_stack(stack))))
    return found


@pytest.mark.slow
def test_every_call_of_every_shipped_stack_is_allowed_and_every_rule_is_used(rendered) -> None:
    for name, (stack, setup, manifests) in rendered.items():
        rbac = runner_rbac(setup)
        requests = expected_requests(stack, manifests)
        refused = [r for r in requests if not allowed(rbac, r)]
        assert refused == [], (name, refused[:5])
        # Every rule, expanded name by name, is needed by some request (a rule nothing uses is refused).
        for role in rbac:
            where = role["metadata"].get("namespace") if role["kind"] == "Role" else None
            for rule in role["rules"]:
                for group in rule["apiGroups"]:
                    for resource in rule["resources"]:
                        for verb in rule["verbs"]:
                            for grant in rule.get("resourceNames") or [None]:
                                used = [
                                    r
                                    for r in requests
                                    if (r.verb, r.group, r.resource) == (verb, group, resource)
                                    and (grant is None or r.name == grant)
                                    and (where is None or r.namespace == where)
                                ]
                                assert used, (name, role["kind"], where, verb, group, resource, grant)


@pytest.mark.slow
def test_the_runner_can_neither_escalate_nor_reach_other_namespaces_objects(rendered) -> None:
    for name, (stack, setup, _manifests) in rendered.items():
        rbac = runner_rbac(setup)
        elsewhere = "kube-system"
        # No SCC, Namespace or RBAC object but the stack's own can be changed; no job, log or Secret elsewhere.
        for request in (
            Request("patch", "security.openshift.io", "securitycontextconstraints", None, "privileged"),
            Request("update", "security.openshift.io", "securitycontextconstraints", None, "privileged"),
            Request("create", "security.openshift.io", "securitycontextconstraints", None, None),
            Request("delete", "", "namespaces", None, stack.cluster.namespace),
            Request("delete", "", "namespaces", None, elsewhere),
            Request("create", "kubeflow.org", "pytorchjobs", elsewhere, None),
            Request("get", "", "pods/log", elsewhere, "etcd-0"),
            Request("get", "", "secrets", elsewhere, "any"),
            Request("get", "", "secrets", "openshift-machine-api", "other"),
            *[
                Request(v, "rbac.authorization.k8s.io", kind, ns, None)
                for kind in RBAC_KINDS
                for v in ("create", "update", "patch", "delete")
                for ns in (None, elsewhere)
            ],
        ):
            assert not allowed(rbac, request), (name, request)
        for role in rbac:
            for rule in role["rules"]:
                assert "*" not in str(rule), (name, rule)
                unnamed = "resourceNames" not in rule
                if role["kind"] == "ClusterRole" and unnamed:
                    for resource in rule["resources"]:
                        assert resource in ("nodes", "pods", "pods/eviction"), (name, rule)
                if set(rule["resources"]) & {"securitycontextconstraints", "namespaces", "secrets", *RBAC_KINDS}:
                    assert not unnamed, (name, rule)


@pytest.mark.slow
def test_a_join_stack_may_read_the_worker_ignition_secret_by_name_and_nothing_else(rendered) -> None:
    _, setup, _ = rendered["h100-2n-sriov-rdma-join"]
    role = next(o for o in setup if o["kind"] == "Role" and o["metadata"]["namespace"] == "openshift-machine-api")
    assert role["rules"] == [
        {"apiGroups": [""], "resources": ["secrets"], "resourceNames": ["worker-user-data"], "verbs": ["get"]}
    ]
    # The program reads that secret and nothing else (the call as written, whatever its line breaks).
    program = " ".join((PROJECT_ROOT / "components/program.py").read_text().split())
    assert f'Secret.get( "{USER_DATA_SECRET[1]}", "{"/".join(USER_DATA_SECRET)}",' in program


def test_every_client_call_the_code_makes_is_known() -> None:
    """A new API call in the code that talks to a cluster must get a rule (and an entry above)."""
    for path in CLUSTER_CODE:
        tree = ast.parse((PROJECT_ROOT / path).read_text())
        called = {
            node.attr
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and re.fullmatch(r"(create|read|list|patch|delete|replace|get)_\w+", node.attr)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr in ("_core", "_custom")
            or isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("core", "custom")
            and "_" in node.attr
        }
        unknown = called - set(CLIENT_METHODS)
        assert unknown == set(), (path, unknown)


def test_docs_list_every_rule_with_the_call_that_needs_it() -> None:
    text = (PROJECT_ROOT / "docs/in-cluster.md").read_text()
    section = text.split("**ServiceAccount and least RBAC.**", 1)[1].split("\n## ", 1)[0]
    for needed in (
        "resourceNames",
        "securitycontextconstraints",
        "namespaces",
        "pods/log",
        "pytorchjobs",
        "worker-user-data",
        "pods/eviction",
        "machinehealthchecks",
        "workflowtaskresults",
        "nodes",
        "system:auth-delegator",
        "no delete",
    ):
        assert needed in section, needed


@pytest.mark.slow
def test_no_right_on_a_namespaced_object_reaches_another_namespace(rendered) -> None:
    """The stacks' namespaces exist before the runner (setup.yaml), so its rights on the objects in them
    are Roles there: a PyTorchJob of the stack's name in another namespace, where it would run as any
    ServiceAccount there, or any other object the stack renders, is refused elsewhere."""
    for name, (stack, setup, manifests) in rendered.items():
        rbac = runner_rbac(setup)
        for m in manifests:
            if m["metadata"].get("namespace") is None:
                continue
            for verb in ("create", "patch", "get", "delete"):
                group, resource = m["apiVersion"].rpartition("/")[0], PLURAL[m["kind"]]
                request = Request(verb, group, resource, "kube-system", m["metadata"]["name"])
                assert not allowed(rbac, request), (name, request)
        job = stack.cluster.job.name
        assert not allowed(rbac, Request("create", "kubeflow.org", "pytorchjobs", "kube-system", job)), name
        assert not allowed(rbac, Request("get", "", "pods/log", "kube-system", f"{job}-master-0")), name
        for role in (r for r in rbac if r["kind"] == "ClusterRole"):
            for rule in role["rules"]:
                namespaced = set(rule["resources"]) - CLUSTER_SCOPED
                # Only the unnamed calls that must see every namespace (stack workers, the drain) stay cluster-wide.
                assert namespaced <= {"pods", "pods/eviction"} and "resourceNames" not in rule or not namespaced, (
                    name,
                    rule,
                )
        namespace = stack.cluster.namespace
        if stack.cluster.layers == "cloud":
            continue
        kinds = [(o["kind"], o["metadata"].get("namespace"), o["metadata"]["name"]) for o in setup]
        # setup.yaml makes the namespace, before the runner's Role in it, and the runner cannot change it.
        assert kinds.index(("Namespace", None, namespace)) < kinds.index(("Role", namespace, "gpu-cluster-runner"))
        for verb in ("create", "patch", "update", "delete"):
            assert not allowed(rbac, Request(verb, "", "namespaces", None, namespace)), (name, verb)


@pytest.mark.slow
def test_the_runner_cannot_change_the_scc_its_pods_use(rendered) -> None:
    """The SCC the training pods use is the administrator's (setup.yaml): the runner's stack names it in
    the job's Role binding (holding ``use`` to grant it) and can create, change or delete no SCC."""
    with_scc = 0
    for name, (_stack, setup, manifests) in rendered.items():
        rbac = runner_rbac(setup)
        named = {
            scc
            for m in manifests
            if m["kind"] == "Role"
            for rule in m["rules"]
            if "securitycontextconstraints" in rule["resources"]
            for scc in rule["resourceNames"]
        }
        assert not [m for m in manifests if m["kind"] == "SecurityContextConstraints"], name
        assert {o["metadata"]["name"] for o in setup if o["kind"] == "SecurityContextConstraints"} == named, name
        for scc in named:
            for verb in ("create", "update", "patch", "delete", "get", "escalate", "bind"):
                request = Request(verb, "security.openshift.io", "securitycontextconstraints", None, scc)
                assert not allowed(rbac, request), (name, request)
        with_scc += bool(named)
    assert with_scc >= 3


@pytest.mark.slow
@pytest.mark.parametrize("name", ["h100-2n-sriov-rdma", "h100-2n-sriov-rdma-join"])
def test_in_the_cluster_the_program_applies_what_it_does_on_a_laptop_but_the_administrators(
    rendered, name, monkeypatch
) -> None:
    """The same program run on the shipped stack file (a laptop's `pulumi up`: it creates and keeps its
    namespace, and manages its SCC) and on the engines' copy: the engines' applies the same objects but
    the Namespace, which it only reads (so destroy never deletes it), and the SCC, which setup.yaml holds
    exactly as the laptop renders it."""
    from experiments.offline.engine import IbmCloudMocks
    from experiments.state.preview import kubernetes_manifests, run_preview

    stack, setup, in_cluster = rendered[name]
    laptop = run_preview(stack)
    namespace = [r for r in laptop.result.resources if r.type == "kubernetes:core/v1:Namespace"]
    assert [(r.inputs["metadata"]["name"], r.retain_on_delete) for r in namespace] == [(stack.cluster.namespace, True)]
    laptop_manifests = kubernetes_manifests(laptop)
    admin = [m for m in laptop_manifests if m["kind"] in ("Namespace", "SecurityContextConstraints")]
    assert [m for m in laptop_manifests if m not in admin] == in_cluster
    in_setup = [o for o in setup if o["kind"] in ("Namespace", "SecurityContextConstraints")]
    assert sorted(in_setup, key=str) == sorted(admin, key=str)
    reads: list[tuple[str, str]] = []
    new_resource = IbmCloudMocks.new_resource

    def recording(self: Any, args: Any) -> Any:
        if args.resource_id and not args.typ.startswith("pulumi:providers:"):
            reads.append((args.typ, args.resource_id))
        return new_resource(self, args)

    monkeypatch.setattr(IbmCloudMocks, "new_resource", recording)
    run_preview(in_cluster_stack(stack))
    assert ("kubernetes:core/v1:Namespace", stack.cluster.namespace) in reads


def test_setup_holds_each_namespace_and_scc_once_and_refuses_two_sccs_under_one_name() -> None:
    from experiments.base.errors import InputError
    from experiments.incluster.admin import admin_objects

    scc = {"apiVersion": "security.openshift.io/v1", "kind": "SecurityContextConstraints", "metadata": {"name": "ns-a"}}
    wider = {**scc, "allowedCapabilities": ["IPC_LOCK"]}
    found = admin_objects({"one": ("ns", [scc]), "two": ("ns", [scc]), "cloud": (None, [])})
    assert [(o["kind"], o["metadata"]["name"]) for o in found] == [
        ("Namespace", "ns"),
        ("SecurityContextConstraints", "ns-a"),
    ]
    with pytest.raises(InputError, match="one and two need different SecurityContextConstraints under one name, ns-a"):
        admin_objects({"one": ("ns", [scc]), "two": ("ns", [wider])})
    # What the engines ship leaves both to setup.yaml, and keeps every other setting of the stack.
    assert in_cluster_cluster({"nodes": {"count": 2}, "kubernetes": {"context": "c"}}) == {
        "nodes": {"count": 2},
        "kubernetes": {"context": "c", "create_namespace": False, "create_scc": False},
    }
