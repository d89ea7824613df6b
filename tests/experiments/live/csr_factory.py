"""Certificate requests and Nodes as a kubelet and the API server would make them (real PKCS#10,
signed with a real key), for the ``approve-csrs`` tests."""

from __future__ import annotations

import base64
import ipaddress
from datetime import UTC, datetime, timedelta
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from experiments.live.csr_rules import (
    CLIENT_SIGNER,
    OPENSHIFT_BOOTSTRAPPER,
    OPENSHIFT_BOOTSTRAPPER_GROUP,
    SERVING_SIGNER,
    UNINITIALIZED_TAINT,
)

KEY = ec.generate_private_key(ec.SECP256R1())
BOOTSTRAPPER_GROUPS = [OPENSHIFT_BOOTSTRAPPER_GROUP, "system:serviceaccounts", "system:authenticated"]


def request(
    common_name: str,
    organizations: tuple[str, ...] = ("system:nodes",),
    dns: tuple[str, ...] = (),
    ips: tuple[str, ...] = (),
) -> str:
    """``spec.request``: a base64 PEM PKCS#10 request."""
    subject = x509.Name(
        [
            *(x509.NameAttribute(NameOID.ORGANIZATION_NAME, o) for o in organizations),
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
        ]
    )
    builder = x509.CertificateSigningRequestBuilder().subject_name(subject)
    names: list[x509.GeneralName] = [x509.DNSName(d) for d in dns]
    names += [x509.IPAddress(ipaddress.ip_address(i)) for i in ips]
    if names:
        builder = builder.add_extension(x509.SubjectAlternativeName(names), critical=False)
    pem = builder.sign(KEY, hashes.SHA256()).public_bytes(serialization.Encoding.PEM)
    return base64.b64encode(pem).decode()


def stamp(age: timedelta = timedelta(minutes=1)) -> str:
    """A creation time ``age`` ago, as the API server writes it."""
    return (datetime.now(UTC) - age).strftime("%Y-%m-%dT%H:%M:%SZ")


def csr(
    name: str,
    *,
    signer: str,
    username: str,
    groups: list[str],
    usages: list[str],
    spec_request: str,
    state: str | None = None,
    age: timedelta = timedelta(minutes=1),
) -> dict[str, Any]:
    conditions = [{"type": state, "status": "True", "reason": "Test"}] if state else []
    return {
        "apiVersion": "certificates.k8s.io/v1",
        "kind": "CertificateSigningRequest",
        "metadata": {"name": name, "resourceVersion": "1", "creationTimestamp": stamp(age)},
        "spec": {
            "request": spec_request,
            "signerName": signer,
            "username": username,
            "groups": groups,
            "usages": usages,
        },
        "status": {"conditions": conditions} if conditions else {},
    }


def bootstrap_client(
    name: str, node: str, *, username: str = OPENSHIFT_BOOTSTRAPPER, groups: list[str] | None = None, **changes: Any
) -> dict[str, Any]:
    """The first client-certificate request of a joining kubelet (OpenShift's bootstrapper by default)."""
    spec_request = changes.pop("spec_request", None) or request(f"system:node:{node}")
    return csr(
        name,
        signer=CLIENT_SIGNER,
        username=username,
        groups=groups or BOOTSTRAPPER_GROUPS,
        usages=changes.pop("usages", ["digital signature", "client auth"]),
        spec_request=spec_request,
        **changes,
    )


def serving(
    name: str,
    node: str,
    ips: tuple[str, ...],
    *,
    dns: tuple[str, ...] | None = None,
    username: str | None = None,
    **changes: Any,
) -> dict[str, Any]:
    """A registered kubelet's serving-certificate request for its name and ``ips``."""
    spec_request = changes.pop("spec_request", None) or request(
        f"system:node:{node}", dns=(node,) if dns is None else dns, ips=ips
    )
    return csr(
        name,
        signer=SERVING_SIGNER,
        username=username or f"system:node:{node}",
        groups=["system:nodes", "system:authenticated"],
        usages=changes.pop("usages", ["digital signature", "server auth"]),
        spec_request=spec_request,
        **changes,
    )


def node(name: str, ip: str, *, ready: bool = False, initialized: bool = True) -> dict[str, Any]:
    """A Node as the kubelet registers it and the cloud controller manager completes it."""
    taints = [] if initialized else [{"key": UNINITIALIZED_TAINT, "value": "true", "effect": "NoSchedule"}]
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name},
        "spec": {"taints": taints},
        "status": {
            "addresses": [{"type": "InternalIP", "address": ip}, {"type": "Hostname", "address": name}],
            "conditions": [{"type": "Ready", "status": "True" if ready else "False"}],
        },
    }


# --- hand-built DER: what no library would write, signed with a real key ------------------------


def tlv(tag: int, content: bytes, *, long_length: bool = False) -> bytes:
    """One DER element; ``long_length`` writes a short length in the long form (BER, not DER)."""
    size = len(content)
    if size < 0x80 and not long_length:
        length = bytes([size])
    else:
        raw = size.to_bytes(max(1, (size.bit_length() + 7) // 8), "big")
        length = bytes([0x80 | len(raw)]) + raw
    return bytes([tag]) + length + content


def seq(*parts: bytes) -> bytes:
    return tlv(0x30, b"".join(parts))


def der_set(*parts: bytes) -> bytes:
    return tlv(0x31, b"".join(sorted(parts)))


def oid(text: str) -> bytes:
    arcs = [int(a) for a in text.split(".")]
    out = bytearray([40 * arcs[0] + arcs[1]])
    for arc in arcs[2:]:
        chunk = [arc & 0x7F]
        while arc > 0x7F:
            arc >>= 7
            chunk.append(0x80 | (arc & 0x7F))
        out += bytes(reversed(chunk))
    return tlv(0x06, bytes(out))


def utf8(text: str) -> bytes:
    return tlv(0x0C, text.encode())


CN, O_ = "2.5.4.3", "2.5.4.10"
EXTENSION_REQUEST, MS_EXTENSION_REQUEST = "1.2.840.113549.1.9.14", "1.3.6.1.4.1.311.2.1.14"
SAN = "2.5.29.17"


def rdn(attribute: str, value: bytes) -> bytes:
    return der_set(seq(oid(attribute), value))


def node_subject(node: str) -> bytes:
    return seq(rdn(O_, utf8("system:nodes")), rdn(CN, utf8(f"system:node:{node}")))


def san_extension(*dns: str, ips: tuple[str, ...] = ()) -> bytes:
    names = b"".join(tlv(0x82, d.encode()) for d in dns) + b"".join(
        tlv(0x87, ipaddress.ip_address(i).packed) for i in ips
    )
    return seq(oid(SAN), tlv(0x04, seq(names)))


def attribute(kind: str, *extensions: bytes) -> bytes:
    return seq(oid(kind), der_set(seq(*extensions)))


def signed_request(
    subject: bytes,
    attributes: list[bytes],
    *,
    attributes_tag: int = 0xA0,
    trailing: bytes = b"",
    info: bytes | None = None,
) -> bytes:
    """A PKCS#10 request with the given parts, really signed (ECDSA P-256, SHA-256) by ``KEY``."""
    spki = KEY.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    body = (
        info
        if info is not None
        else seq(tlv(0x02, b"\x00"), subject, spki, tlv(attributes_tag, b"".join(sorted(attributes))))
    )
    signature = KEY.sign(body, ec.ECDSA(hashes.SHA256()))
    return seq(body, seq(oid("1.2.840.10045.4.3.2")), tlv(0x03, b"\x00" + signature)) + trailing


def spki_der() -> bytes:
    return KEY.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def pem(der: bytes, label: str = "CERTIFICATE REQUEST") -> str:
    body = base64.b64encode(der).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "\n".join([f"-----BEGIN {label}-----", *lines, f"-----END {label}-----"]) + "\n"


def as_spec_request(text: str | bytes) -> str:
    """``spec.request`` as the API returns it: base64 of the PEM bytes."""
    return base64.b64encode(text.encode() if isinstance(text, str) else text).decode()
