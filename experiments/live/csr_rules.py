"""Which pending certificate requests belong to a ``join`` stack's nodes, and may be approved.

A node that joins outside the machine API has no Machine, so OpenShift's machine approver leaves
its CSRs pending. ``approve-csrs`` approves them, but only those that pass the checks below, the
checks of the approver (``pkg/controller/csr_check.go``) with the stack's node list and IBM's
facts about its instances in place of the Machine objects; every other request is left alone
(never denied: a person or another approver may still decide).

* **The request itself** must be in the one strict form both the API server and this tool read
  alike (``csr_der``), carry a valid signature, and name ``CN=system:node:<n>``, ``O=system:nodes``
  with ``n`` exactly (byte for byte, no case folding) one of the stack's node names.
* **Client certificate, first boot** (signer ``kube-apiserver-client-kubelet``): requested by the
  bootstrap identity with exactly its groups (OpenShift: the ``node-bootstrapper`` service account
  and the three groups the approver requires; kubeadm: a ``system:bootstrap:<token>`` user in the
  bootstrappers' groups), no alternative names, client usages only, no Node ``n`` registered yet,
  and created within ``BOOTSTRAP_WINDOW`` after IBM created the instance (``createdAt`` of the
  stack's outputs); without that time, within ``BOOTSTRAP_WINDOW`` before now.
* **Client certificate renewal**: requested by ``system:node:<n>`` itself, groups exactly the
  node's, for a registered Node.
* **Serving certificate** (signer ``kubelet-serving``): requested by ``system:node:<n>`` for
  ``CN`` = that user, server usages only, DNS names that are the node's name or its Node's host
  names (exact bytes), and IP addresses that IBM gave the instance's NICs (the stack's outputs) or,
  without them, the Node's addresses once the cloud controller manager set them (OpenShift: the
  ``uninitialized`` taint is gone). The Node's own status is written by its kubelet, so IBM's
  addresses are preferred.

Apart from the facts (``csr_facts``) and the rounds (``csr_approval``) by concept: judging is pure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from cryptography import x509
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from experiments.base.safe_text import terminal_text
from experiments.base.shapes import as_dict
from experiments.live.csr_der import StrictReadError, read_strict
from experiments.live.csr_facts import (
    UNINITIALIZED_TAINT,
    Context,
    Instance,
    NodeFacts,
    created_at,
    csr_state,
    is_node_name,
    node_facts,
)

__all__ = [
    "BOOTSTRAP_WINDOW",
    "CLIENT_SIGNER",
    "NODE_USER_PREFIX",
    "OPENSHIFT_BOOTSTRAPPER",
    "SERVING_SIGNER",
    "UNINITIALIZED_TAINT",
    "Context",
    "Instance",
    "NodeFacts",
    "Verdict",
    "created_at",
    "csr_state",
    "is_node_name",
    "judge",
    "node_facts",
]

CLIENT_SIGNER = "kubernetes.io/kube-apiserver-client-kubelet"
SERVING_SIGNER = "kubernetes.io/kubelet-serving"
NODE_USER_PREFIX = "system:node:"
NODE_GROUP = "system:nodes"
AUTHENTICATED = "system:authenticated"
NODE_GROUPS = frozenset({NODE_GROUP, AUTHENTICATED})
OPENSHIFT_BOOTSTRAPPER = "system:serviceaccount:openshift-machine-config-operator:node-bootstrapper"
OPENSHIFT_BOOTSTRAPPER_GROUP = "system:serviceaccounts:openshift-machine-config-operator"
OPENSHIFT_BOOTSTRAPPER_GROUPS = frozenset({OPENSHIFT_BOOTSTRAPPER_GROUP, "system:serviceaccounts", AUTHENTICATED})
KUBEADM_BOOTSTRAP_USER = re.compile(r"system:bootstrap:[a-z0-9]{6}")
KUBEADM_BOOTSTRAP_GROUP = "system:bootstrappers"
CLIENT_USAGES = frozenset({"digital signature", "key encipherment", "client auth"})
SERVING_USAGES = frozenset({"digital signature", "key encipherment", "server auth"})
BOOTSTRAP_WINDOW = timedelta(hours=2)
"""The approver's ``maxMachineDelta``: a kubelet asks within this of its machine's creation."""
CLOCK_SKEW = timedelta(seconds=10)

Kind = Literal["client", "serving", "other"]


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
    created: datetime | None = None


class _Refused(Exception):
    pass


def _parse(request: object) -> tuple[x509.CertificateSigningRequest, dict[str, str]]:
    try:
        parts = read_strict(request)
        parsed = x509.load_der_x509_csr(parts.der)
    except StrictReadError as error:
        raise _Refused(str(error)) from None
    except ValueError:
        raise _Refused("the request is not a certificate request cryptography can read") from None
    if not parsed.is_signature_valid:
        raise _Refused("the request's signature does not verify")
    key = parsed.public_key()
    if not (
        isinstance(key, rsa.RSAPublicKey)
        and key.key_size >= 2048
        or isinstance(key, ed25519.Ed25519PublicKey)
        or isinstance(key, ec.EllipticCurvePublicKey)
        and key.curve.name in ("secp256r1", "secp384r1")
    ):
        raise _Refused("the request's key is not RSA of 2048 bits or more, ECDSA P-256/P-384 or Ed25519")
    return parsed, parts.subject


def _alternative_names(parsed: x509.CertificateSigningRequest) -> list[x509.GeneralName]:
    try:
        return list(parsed.extensions.get_extension_for_class(x509.SubjectAlternativeName).value)
    except x509.ExtensionNotFound:
        return []


def _check_usages(usages: Any, allowed: frozenset[str], needed: str) -> None:
    if not isinstance(usages, list) or not all(isinstance(u, str) for u in usages) or len(set(usages)) != len(usages):
        raise _Refused("spec.usages is not a list of distinct names")
    asked = set(usages)
    if needed not in asked or not asked <= allowed or "digital signature" not in asked:
        raise _Refused(
            f"usages {sorted(asked)} are not a kubelet's ({needed}, digital signature"
            f"{', key encipherment' if 'key encipherment' in allowed else ''})"
        )


def _bootstrap_identity(username: str, groups: set[str], openshift: bool) -> None:
    if openshift:
        if username != OPENSHIFT_BOOTSTRAPPER or groups != OPENSHIFT_BOOTSTRAPPER_GROUPS:
            raise _Refused(
                f"asked by {username} (groups {sorted(groups)}): a first client certificate must be "
                f"asked by {OPENSHIFT_BOOTSTRAPPER} with exactly the groups "
                f"{sorted(OPENSHIFT_BOOTSTRAPPER_GROUPS)}"
            )
        return
    extra = {
        g
        for g in groups
        if g not in (AUTHENTICATED, KUBEADM_BOOTSTRAP_GROUP) and not g.startswith(KUBEADM_BOOTSTRAP_GROUP + ":")
    }
    if not KUBEADM_BOOTSTRAP_USER.fullmatch(username) or KUBEADM_BOOTSTRAP_GROUP not in groups or extra:
        raise _Refused(
            f"asked by {username} (groups {sorted(groups)}): a first client certificate must be asked "
            f"by a system:bootstrap:<token> user in group {KUBEADM_BOOTSTRAP_GROUP} and no other "
            "but bootstrappers' groups"
        )


def _bootstrap_window(node: str, created: datetime | None, context: Context) -> str:
    if created is None:
        raise _Refused("metadata.creationTimestamp is missing or not a time")
    instance = context.instances.get(node)
    if instance is not None and instance.created_at is not None:
        start, anchor = instance.created_at - CLOCK_SKEW, f"IBM created the instance at {instance.created_at:%H:%M:%SZ}"
        end = instance.created_at + BOOTSTRAP_WINDOW
    else:
        start, anchor = (
            context.now - BOOTSTRAP_WINDOW,
            "the instance's creation time is unknown (no createdAt in --stack-outputs), so the window ends now",
        )
        end = context.now + CLOCK_SKEW
    if not start <= created <= end:
        raise _Refused(
            f"created at {created:%Y-%m-%dT%H:%M:%SZ}, outside the {BOOTSTRAP_WINDOW} bootstrap window ({anchor})"
        )
    return (
        ""
        if instance is not None and instance.created_at is not None
        else " (no instance creation time: asked within the last 2 h)"
    )


def _client(
    spec: Mapping[str, Any], names: list[x509.GeneralName], node: str, created: datetime | None, context: Context
) -> str:
    username, groups = spec["username"], set(spec["groups"])
    _check_usages(spec.get("usages"), CLIENT_USAGES, "client auth")
    if names:
        raise _Refused("a kubelet's client certificate has no alternative names")
    if username == NODE_USER_PREFIX + node:
        if groups != NODE_GROUPS:
            raise _Refused(f"groups {sorted(groups)} are not exactly a node's {sorted(NODE_GROUPS)}")
        if node not in context.nodes:
            raise _Refused(f"renewal by {username}, but no Node {node} is registered")
        return "client certificate renewal, asked by the node itself"
    _bootstrap_identity(username, groups, context.openshift)
    if node in context.nodes:
        raise _Refused(
            f"Node {node} is already registered, so this bootstrap request is not its kubelet's "
            f"(if the Node is stale, `oc delete node {node}` first)"
        )
    return "first client certificate of a joining node" + _bootstrap_window(node, created, context)


def _serving(spec: Mapping[str, Any], names: list[x509.GeneralName], node: str, context: Context) -> str:
    username, groups = spec["username"], set(spec["groups"])
    _check_usages(spec.get("usages"), SERVING_USAGES, "server auth")
    if username != NODE_USER_PREFIX + node:
        raise _Refused(f"asked by {username}, not by {NODE_USER_PREFIX}{node} itself")
    if groups != NODE_GROUPS:
        raise _Refused(f"groups {sorted(groups)} are not exactly a node's {sorted(NODE_GROUPS)}")
    facts = context.nodes.get(node)
    if facts is None:
        raise _Refused(f"no Node {node} is registered yet")
    instance = context.instances.get(node)
    ibm_ips = instance.ips if instance is not None else None
    if ibm_ips is None and context.openshift and not facts.initialized:
        raise _Refused(
            f"the cloud controller manager has not initialized Node {node} yet (its addresses are "
            "still the kubelet's own claim)"
        )
    own_ips, source = (ibm_ips, "IBM's addresses of its NICs") if ibm_ips is not None else (facts.ips, "its Node's")
    own_names = facts.host_names | {node}
    for name in names:
        if isinstance(name, x509.DNSName):
            if name.value not in own_names:
                raise _Refused(f"DNS name {name.value} is not one of Node {node}'s ({', '.join(sorted(own_names))})")
        elif isinstance(name, x509.IPAddress):
            if str(name.value) not in own_ips:
                raise _Refused(
                    f"IP address {name.value} is not one of {node}'s ({source}: {', '.join(sorted(own_ips)) or 'none'})"
                )
        else:
            raise _Refused("a kubelet's serving certificate has only DNS and IP names")
    if not names:
        return "serving certificate without alternative names"
    return f"serving certificate; its names are the node's own ({source})"


def _spec(csr: Mapping[str, Any]) -> dict[str, Any]:
    spec = csr.get("spec")
    if not isinstance(spec, dict):
        raise _Refused("spec is missing")
    username, groups = spec.get("username"), spec.get("groups")
    if not isinstance(username, str) or not isinstance(groups, list) or not all(isinstance(g, str) for g in groups):
        raise _Refused("spec.username or spec.groups is missing or malformed")
    return spec


def judge(csr: Mapping[str, Any], context: Context) -> Verdict:
    """Whether ``csr`` (its JSON form) is a pending request of one of the stack's nodes that passes
    the checks. Total: whatever the request holds, the answer is a verdict (unreadable → pending)."""
    metadata, spec = as_dict(csr.get("metadata")), as_dict(csr.get("spec"))
    name = terminal_text(metadata.get("name", "(unnamed)"))
    signer = spec.get("signerName")
    kind: Kind = "client" if signer == CLIENT_SIGNER else "serving" if signer == SERVING_SIGNER else "other"
    requester, state, created = terminal_text(spec.get("username", "")), csr_state(csr), created_at(csr)

    def verdict(node: str | None, approve: bool, reason: str) -> Verdict:
        return Verdict(
            csr=name,
            kind=kind,
            node=node,
            requester=requester,
            state=state,
            approve=approve,
            reason=terminal_text(reason),
            created=created,
        )

    try:
        parsed, subject = _parse(spec.get("request"))
    except _Refused as refusal:
        return verdict(None, False, str(refusal))
    except Exception as error:  # a request no check foresaw: left pending, the round goes on
        return verdict(None, False, f"the request could not be read ({type(error).__name__})")
    common_name = subject["CN"]
    node = common_name[len(NODE_USER_PREFIX) :] if common_name.startswith(NODE_USER_PREFIX) else ""
    if node not in context.stack_nodes or not is_node_name(node):
        return verdict(None, False, "not for one of the stack's nodes")
    if state != "pending":
        return verdict(node, False, state.lower())
    try:
        checked = _spec(csr)
        if subject["O"] != NODE_GROUP:
            raise _Refused(f"subject O={subject['O']} is not {NODE_GROUP}")
        names = _alternative_names(parsed)
        if kind == "client":
            reason = _client(checked, names, node, created, context)
        elif kind == "serving":
            reason = _serving(checked, names, node, context)
        else:
            raise _Refused(f"signer {signer or '(none)'} is not a kubelet's")
    except _Refused as refusal:
        return verdict(node, False, str(refusal))
    except Exception as error:
        return verdict(node, False, f"the request could not be checked ({type(error).__name__})")
    return verdict(node, True, reason)
