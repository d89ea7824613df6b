"""Certificate requests and Nodes as a kubelet and the API server would make them (real PKCS#10,
signed with a real key), for the ``approve-csrs`` tests."""

from __future__ import annotations

import base64
import ipaddress
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from experiments.csr_rules import (
    CLIENT_SIGNER,
    OPENSHIFT_BOOTSTRAPPER,
    OPENSHIFT_BOOTSTRAPPER_GROUP,
    SERVING_SIGNER,
    UNINITIALIZED_TAINT,
)

KEY = ec.generate_private_key(ec.SECP256R1())
BOOTSTRAPPER_GROUPS = [OPENSHIFT_BOOTSTRAPPER_GROUP, "system:serviceaccounts", "system:authenticated"]


def request(common_name: str, organizations: tuple[str, ...] = ("system:nodes",), dns: tuple[str, ...] = (),
            ips: tuple[str, ...] = ()) -> str:
    """``spec.request``: a base64 PEM PKCS#10 request."""
    subject = x509.Name([*(x509.NameAttribute(NameOID.ORGANIZATION_NAME, o) for o in organizations),
                         x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    builder = x509.CertificateSigningRequestBuilder().subject_name(subject)
    names: list[x509.GeneralName] = [x509.DNSName(d) for d in dns]
    names += [x509.IPAddress(ipaddress.ip_address(i)) for i in ips]
    if names:
        builder = builder.add_extension(x509.SubjectAlternativeName(names), critical=False)
    pem = builder.sign(KEY, hashes.SHA256()).public_bytes(serialization.Encoding.PEM)
    return base64.b64encode(pem).decode()


def csr(name: str, *, signer: str, username: str, groups: list[str], usages: list[str], spec_request: str,
        state: str | None = None) -> dict[str, Any]:
    conditions = [{"type": state, "status": "True", "reason": "Test"}] if state else []
    return {"apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest",
            "metadata": {"name": name, "resourceVersion": "1", "creationTimestamp": "2026-11-23T10:00:00Z"},
            "spec": {"request": spec_request, "signerName": signer, "username": username, "groups": groups,
                     "usages": usages},
            "status": {"conditions": conditions} if conditions else {}}


def bootstrap_client(name: str, node: str, *, username: str = OPENSHIFT_BOOTSTRAPPER,
                     groups: list[str] | None = None, **changes: Any) -> dict[str, Any]:
    """The first client-certificate request of a joining kubelet (OpenShift's bootstrapper by default)."""
    spec_request = changes.pop("spec_request", None) or request(f"system:node:{node}")
    return csr(name, signer=CLIENT_SIGNER, username=username, groups=groups or BOOTSTRAPPER_GROUPS,
               usages=changes.pop("usages", ["digital signature", "client auth"]), spec_request=spec_request,
               **changes)


def serving(name: str, node: str, ips: tuple[str, ...], *, dns: tuple[str, ...] | None = None,
            username: str | None = None, **changes: Any) -> dict[str, Any]:
    """A registered kubelet's serving-certificate request for its name and ``ips``."""
    spec_request = changes.pop("spec_request", None) or request(
        f"system:node:{node}", dns=(node,) if dns is None else dns, ips=ips)
    return csr(name, signer=SERVING_SIGNER, username=username or f"system:node:{node}",
               groups=["system:nodes", "system:authenticated"],
               usages=changes.pop("usages", ["digital signature", "server auth"]), spec_request=spec_request,
               **changes)


def node(name: str, ip: str, *, ready: bool = False, initialized: bool = True) -> dict[str, Any]:
    """A Node as the kubelet registers it and the cloud controller manager completes it."""
    taints = [] if initialized else [{"key": UNINITIALIZED_TAINT, "value": "true", "effect": "NoSchedule"}]
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name},
            "spec": {"taints": taints},
            "status": {"addresses": [{"type": "InternalIP", "address": ip}, {"type": "Hostname", "address": name}],
                       "conditions": [{"type": "Ready", "status": "True" if ready else "False"}]}}
