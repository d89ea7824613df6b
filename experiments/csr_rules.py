"""Which pending certificate requests belong to a ``join`` stack's nodes, and may be approved.

A node that joins outside the machine API has no Machine, so OpenShift's machine approver leaves
its CSRs pending. ``approve-csrs`` approves them, but only those that pass the checks below; every
other request is left alone (never denied: a person or another approver may still decide).

* **Client certificate, first boot** (signer ``kube-apiserver-client-kubelet``): requested by the
  bootstrap identity (OpenShift: the ``node-bootstrapper`` service account; kubeadm: a
  ``system:bootstrap:<token>`` user), for ``CN=system:node:<n>``, ``O=system:nodes`` with ``n`` one of
  the stack's node names, no alternative names, client usages only, and no Node ``n`` registered
  yet: a bootstrap request for an existing node cannot come from that node's kubelet.
* **Client certificate renewal**: requested by ``system:node:<n>`` itself (the API server
  authenticated it with its current certificate), for the same subject.
* **Serving certificate** (signer ``kubelet-serving``): requested by ``system:node:<n>`` for
  ``CN`` = that user, server usages only, and alternative names that are the Node's own: its name
  and the host names and IPs in its ``status.addresses``. On IBM Cloud those addresses are set by
  the cloud controller manager from the instance's primary NIC, so on OpenShift the request waits
  until the manager has initialized the Node (its ``uninitialized`` taint is gone).

The parsed CSR (``cryptography``) is the authority for the subject and names; ``spec`` for who
asked. These are the checks OpenShift's machine approver makes, with the stack's node list in
place of the Machine objects.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from cryptography import x509
from cryptography.x509.oid import NameOID

__all__ = ["CLIENT_SIGNER", "SERVING_SIGNER", "NodeFacts", "Verdict", "judge", "node_facts"]

CLIENT_SIGNER = "kubernetes.io/kube-apiserver-client-kubelet"
SERVING_SIGNER = "kubernetes.io/kubelet-serving"
NODE_USER_PREFIX = "system:node:"
NODE_GROUP = "system:nodes"
AUTHENTICATED = "system:authenticated"
OPENSHIFT_BOOTSTRAPPER = "system:serviceaccount:openshift-machine-config-operator:node-bootstrapper"
OPENSHIFT_BOOTSTRAPPER_GROUP = "system:serviceaccounts:openshift-machine-config-operator"
KUBEADM_BOOTSTRAP_PREFIX = "system:bootstrap:"
KUBEADM_BOOTSTRAP_GROUP = "system:bootstrappers"
UNINITIALIZED_TAINT = "node.cloudprovider.kubernetes.io/uninitialized"
CLIENT_USAGES = frozenset({"digital signature", "key encipherment", "client auth"})
SERVING_USAGES = frozenset({"digital signature", "key encipherment", "server auth"})
HOST_ADDRESS_TYPES = frozenset({"Hostname", "InternalDNS", "ExternalDNS"})
IP_ADDRESS_TYPES = frozenset({"InternalIP", "ExternalIP"})

Kind = Literal["client", "serving", "other"]


@dataclass(frozen=True)
class NodeFacts:
    """What the checks need of a registered Node."""

    name: str
    ready: bool
    initialized: bool
    """False while the cloud provider's ``uninitialized`` taint is on the Node."""
    host_names: frozenset[str]
    ips: frozenset[str]


@dataclass(frozen=True)
class Verdict:
    csr: str
    kind: Kind
    node: str | None
    """The stack node the request is for; None when it names none of them."""
    requester: str
    state: str
    """``pending``, ``Approved``, ``Denied`` or ``Failed`` (``csr_state``)."""
    approve: bool
    reason: str


def node_facts(node: Mapping[str, Any]) -> NodeFacts:
    """The facts of a Node object (its JSON form)."""
    status = node.get("status") or {}
    addresses = [(a.get("type"), a.get("address", "")) for a in status.get("addresses") or []]
    conditions = {c.get("type"): c.get("status") for c in status.get("conditions") or []}
    taints = {t.get("key") for t in (node.get("spec") or {}).get("taints") or []}
    return NodeFacts(
        name=node["metadata"]["name"],
        ready=conditions.get("Ready") == "True",
        initialized=UNINITIALIZED_TAINT not in taints,
        host_names=frozenset(address.rstrip(".").lower() for kind, address in addresses if kind in HOST_ADDRESS_TYPES),
        ips=frozenset(_ip(address) for kind, address in addresses if kind in IP_ADDRESS_TYPES),
    )


def _ip(address: str) -> str:
    """The canonical text of an address, so that ``10.0.0.1`` and a SAN's parsed form compare equal."""
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return address


def csr_state(csr: Mapping[str, Any]) -> str:
    """``pending``, or the type of the condition that ended it (``Approved``, ``Denied``, ``Failed``)."""
    for condition in (csr.get("status") or {}).get("conditions") or []:
        if condition.get("type") in ("Approved", "Denied", "Failed") and condition.get("status", "True") == "True":
            return str(condition["type"])
    return "pending"


class _Refused(Exception):
    pass


def _parse(request: str) -> x509.CertificateSigningRequest:
    try:
        parsed = x509.load_pem_x509_csr(base64.b64decode(request, validate=True))
    except (binascii.Error, ValueError):
        raise _Refused("spec.request is not a PEM certificate request") from None
    if not parsed.is_signature_valid:
        raise _Refused("the request's signature does not verify")
    return parsed


def _subject(parsed: x509.CertificateSigningRequest) -> tuple[str, list[str]]:
    common_names = parsed.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    organizations = parsed.subject.get_attributes_for_oid(NameOID.ORGANIZATION_NAME)
    return (str(common_names[0].value) if len(common_names) == 1 else "",
            [str(o.value) for o in organizations])


def _alternative_names(parsed: x509.CertificateSigningRequest) -> x509.SubjectAlternativeName | None:
    try:
        return parsed.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return None


def _check_usages(usages: Iterable[str], allowed: frozenset[str], needed: str) -> None:
    asked = set(usages)
    if needed not in asked or not asked <= allowed or "digital signature" not in asked:
        raise _Refused(f"usages {sorted(asked)} are not a kubelet's ({needed}, digital signature"
                       f"{', key encipherment' if 'key encipherment' in allowed else ''})")


def _client(spec: Mapping[str, Any], parsed: x509.CertificateSigningRequest, node: str,
            nodes: Mapping[str, NodeFacts], openshift: bool) -> str:
    username, groups = spec.get("username", ""), set(spec.get("groups") or [])
    _check_usages(spec.get("usages") or [], CLIENT_USAGES, "client auth")
    if _alternative_names(parsed) is not None:
        raise _Refused("a kubelet's client certificate has no alternative names")
    if username == NODE_USER_PREFIX + node:
        if node not in nodes:
            raise _Refused(f"renewal by {username}, but no Node {node} is registered")
        return "client certificate renewal, asked by the node itself"
    if openshift:
        bootstrap = username == OPENSHIFT_BOOTSTRAPPER and OPENSHIFT_BOOTSTRAPPER_GROUP in groups
        identity = f"{OPENSHIFT_BOOTSTRAPPER} (group {OPENSHIFT_BOOTSTRAPPER_GROUP})"
    else:
        bootstrap = username.startswith(KUBEADM_BOOTSTRAP_PREFIX) and KUBEADM_BOOTSTRAP_GROUP in groups
        identity = f"a {KUBEADM_BOOTSTRAP_PREFIX}<token> user (group {KUBEADM_BOOTSTRAP_GROUP})"
    if not bootstrap:
        raise _Refused(f"asked by {username}: a first client certificate must be asked by {identity}")
    if node in nodes:
        raise _Refused(f"Node {node} is already registered, so this bootstrap request is not its kubelet's "
                       f"(if the Node is stale, `oc delete node {node}` first)")
    return "first client certificate of a joining node"


def _serving(spec: Mapping[str, Any], parsed: x509.CertificateSigningRequest, node: str,
             nodes: Mapping[str, NodeFacts], openshift: bool) -> str:
    username, groups = spec.get("username", ""), set(spec.get("groups") or [])
    _check_usages(spec.get("usages") or [], SERVING_USAGES, "server auth")
    if username != NODE_USER_PREFIX + node:
        raise _Refused(f"asked by {username}, not by {NODE_USER_PREFIX}{node} itself")
    if not {NODE_GROUP, AUTHENTICATED} <= groups:
        raise _Refused(f"groups {sorted(groups)} lack {NODE_GROUP} and {AUTHENTICATED}")
    facts = nodes.get(node)
    if facts is None:
        raise _Refused(f"no Node {node} is registered yet")
    if openshift and not facts.initialized:
        raise _Refused(f"the cloud controller manager has not initialized Node {node} yet (its addresses are "
                       "still the kubelet's own claim)")
    names = _alternative_names(parsed)
    if names is None:
        return "serving certificate without alternative names"
    if names.get_values_for_type(x509.RFC822Name) or names.get_values_for_type(x509.UniformResourceIdentifier):
        raise _Refused("a kubelet's serving certificate has no e-mail or URI names")
    own_names = facts.host_names | {node.lower()}
    for dns in names.get_values_for_type(x509.DNSName):
        if dns.rstrip(".").lower() not in own_names:
            raise _Refused(f"DNS name {dns} is not one of Node {node}'s ({', '.join(sorted(own_names))})")
    for ip in names.get_values_for_type(x509.IPAddress):
        if str(ip) not in facts.ips:
            raise _Refused(f"IP address {ip} is not one of Node {node}'s ({', '.join(sorted(facts.ips)) or 'none'})")
    return "serving certificate; its names are the Node's own addresses"


def judge(csr: Mapping[str, Any], stack_nodes: frozenset[str], nodes: Mapping[str, NodeFacts],
          openshift: bool) -> Verdict:
    """Whether ``csr`` (its JSON form) is a pending request of one of ``stack_nodes`` that passes the
    checks; ``nodes`` are the registered Nodes among them."""
    name, spec = csr["metadata"]["name"], csr.get("spec") or {}
    signer = spec.get("signerName", "")
    kind: Kind = "client" if signer == CLIENT_SIGNER else "serving" if signer == SERVING_SIGNER else "other"
    requester, state = str(spec.get("username", "")), csr_state(csr)

    def verdict(node: str | None, approve: bool, reason: str) -> Verdict:
        return Verdict(csr=name, kind=kind, node=node, requester=requester, state=state, approve=approve,
                       reason=reason)

    try:
        parsed = _parse(spec.get("request", ""))
    except _Refused as refusal:
        return verdict(None, False, str(refusal))
    common_name, organizations = _subject(parsed)
    node = common_name[len(NODE_USER_PREFIX):] if common_name.startswith(NODE_USER_PREFIX) else ""
    if node not in stack_nodes:
        return verdict(None, False, "not for one of the stack's nodes")
    if state != "pending":
        return verdict(node, False, state.lower())
    try:
        if organizations != [NODE_GROUP]:
            raise _Refused(f"subject O={organizations} is not [{NODE_GROUP}]")
        if kind == "client":
            reason = _client(spec, parsed, node, nodes, openshift)
        elif kind == "serving":
            reason = _serving(spec, parsed, node, nodes, openshift)
        else:
            raise _Refused(f"signer {signer or '(none)'} is not a kubelet's")
    except _Refused as refusal:
        return verdict(node, False, str(refusal))
    return verdict(node, True, reason)
