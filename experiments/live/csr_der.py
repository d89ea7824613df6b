"""A certificate request exactly as a kubelet writes it, or nothing: the strict reading of
``spec.request`` that ``csr_rules`` trusts.

The API server (Go: ``encoding/pem`` then ``x509.ParseCertificateRequest``) and ``cryptography``
disagree on lenient input: Go takes the first PEM block and skips text around it, merges several
``extensionRequest`` attributes, and reads the last of several common names; ``cryptography``
looks for its block differently and also honours Microsoft's extension-request attribute. A
request one of them reads differently from the other could show the approver one node and the
signer another. So only the form both read alike is accepted:

* ``spec.request`` is canonical base64 of exactly one ``CERTIFICATE REQUEST`` PEM block: the
  ``BEGIN`` line, 64-character lines of base64, the ``END`` line, one optional final newline,
  nothing before or after;
* its DER re-encodes to the same bytes (definite, minimal lengths; minimal integers; canonical
  booleans, bit strings and identifiers; ``SET OF`` in DER order; no constructed strings);
* the subject is two single-valued RDNs, ``O`` and ``CN``, as UTF8String or PrintableString;
* the attributes are none, or exactly one PKCS#9 ``extensionRequest`` with one value, whose
  extensions are distinct and only ``subjectAltName``.

A module of its own by concept, not size: a DER reader that knows nothing of nodes or approval.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

__all__ = ["CsrParts", "StrictReadError", "read_strict"]

PEM_BEGIN, PEM_END = "-----BEGIN CERTIFICATE REQUEST-----", "-----END CERTIFICATE REQUEST-----"
_PEM_LINE = re.compile(r"[A-Za-z0-9+/]{1,64}={0,2}")
_SEQUENCE, _SET, _INTEGER, _BOOLEAN, _BIT_STRING, _NULL, _OID = 0x30, 0x31, 0x02, 0x01, 0x03, 0x05, 0x06
_ATTRIBUTES = 0xA0
_STRINGS = {0x0C: "UTF8String", 0x13: "PrintableString"}
MAX_REQUEST = 64 * 1024


def _oid(text: str) -> bytes:
    arcs = [int(a) for a in text.split(".")]
    out = bytearray([40 * arcs[0] + arcs[1]])
    for arc in arcs[2:]:
        chunk = [arc & 0x7F]
        while arc > 0x7F:
            arc >>= 7
            chunk.append(0x80 | (arc & 0x7F))
        out += bytes(reversed(chunk))
    return bytes(out)


EXTENSION_REQUEST = _oid("1.2.840.113549.1.9.14")
COMMON_NAME, ORGANIZATION = _oid("2.5.4.3"), _oid("2.5.4.10")
SUBJECT_ALT_NAME = _oid("2.5.29.17")


class StrictReadError(ValueError):
    """Why the request is not in the one form both parsers read alike."""


@dataclass(frozen=True)
class _Node:
    tag: int
    content: bytes
    children: tuple[_Node, ...]

    def encode(self) -> bytes:
        body = b"".join(c.encode() for c in self.children) if self.tag & 0x20 else self.content
        size = len(body)
        length = (
            bytes([size])
            if size < 0x80
            else bytes([0x80 | ((size.bit_length() + 7) // 8)]) + size.to_bytes((size.bit_length() + 7) // 8, "big")
        )
        return bytes([self.tag]) + length + body


@dataclass(frozen=True)
class CsrParts:
    der: bytes
    subject: dict[str, str]
    """``O`` and ``CN``, each exactly once."""
    extension_oids: tuple[bytes, ...]


def _parse(data: bytes, pos: int, depth: int) -> tuple[_Node, int]:
    if depth > 32 or pos + 2 > len(data):
        raise StrictReadError("the DER is truncated or nested too deep")
    tag, first = data[pos], data[pos + 1]
    if tag & 0x1F == 0x1F:
        raise StrictReadError("the DER uses a multi-byte tag")
    pos += 2
    if first < 0x80:
        size = first
    else:
        count = first & 0x7F
        if count == 0 or count > 4 or pos + count > len(data):
            raise StrictReadError("the DER has an indefinite or oversized length")
        size = int.from_bytes(data[pos : pos + count], "big")
        pos += count
    end = pos + size
    if end > len(data):
        raise StrictReadError("the DER is truncated")
    content = data[pos:end]
    children: list[_Node] = []
    if tag & 0x20:
        if tag & 0xC0 == 0 and tag not in (_SEQUENCE, _SET):
            raise StrictReadError("the DER has a constructed string")
        inner = pos
        while inner < end:
            child, inner = _parse(data, inner, depth + 1)
            children.append(child)
        if tag in (_SET, _ATTRIBUTES):
            encoded = [c.encode() for c in children]
            if encoded != sorted(encoded):
                raise StrictReadError("a SET OF is not in DER order")
    else:
        _check_primitive(tag, content)
    return _Node(tag, content, tuple(children)), end


def _check_primitive(tag: int, content: bytes) -> None:
    if tag == _INTEGER and (
        not content
        or len(content) > 1
        and (content[0] == 0 and content[1] < 0x80 or content[0] == 0xFF and content[1] >= 0x80)
    ):
        raise StrictReadError("the DER has a non-minimal integer")
    if tag == _BOOLEAN and content not in (b"\x00", b"\xff"):
        raise StrictReadError("the DER has a non-canonical boolean")
    if tag == _NULL and content:
        raise StrictReadError("the DER has a non-empty NULL")
    if tag == _BIT_STRING and (
        not content
        or content[0] > 7
        or len(content) == 1
        and content[0]
        or len(content) > 1
        and content[-1] & ((1 << content[0]) - 1)
    ):
        raise StrictReadError("the DER has a non-canonical bit string")
    if tag == _OID and (
        not content
        or content[-1] & 0x80
        or any(b == 0x80 and (i == 0 or not content[i - 1] & 0x80) for i, b in enumerate(content))
    ):
        raise StrictReadError("the DER has a non-canonical object identifier")


def _pem_body(request: str) -> bytes:
    try:
        pem = base64.b64decode(request, validate=True)
    except (binascii.Error, ValueError):
        raise StrictReadError("spec.request is not base64") from None
    if base64.b64encode(pem).decode("ascii") != request:
        raise StrictReadError("spec.request is not canonical base64")
    try:
        text = pem.decode("ascii")
    except UnicodeDecodeError:
        raise StrictReadError("spec.request is not a PEM certificate request (non-ASCII bytes)") from None
    lines = text.removesuffix("\n").split("\n")
    if len(lines) < 3 or lines[0] != PEM_BEGIN or lines[-1] != PEM_END:
        raise StrictReadError(
            "spec.request is not exactly one CERTIFICATE REQUEST PEM block (a BEGIN line, "
            "base64, an END line, nothing else)"
        )
    body = lines[1:-1]
    if not all(_PEM_LINE.fullmatch(line) for line in body) or any(len(line) != 64 for line in body[:-1]):
        raise StrictReadError(
            "the PEM block's body is not 64-character lines of base64 (headers, other blocks or stray text in it)"
        )
    try:
        der = base64.b64decode("".join(body), validate=True)
    except (binascii.Error, ValueError):
        raise StrictReadError("the PEM block's body is not base64") from None
    if base64.b64encode(der).decode("ascii") != "".join(body):
        raise StrictReadError("the PEM block's body is not canonical base64")
    return der


def _subject(name: _Node) -> dict[str, str]:
    subject: dict[str, str] = {}
    for rdn in name.children:
        if rdn.tag != _SET or len(rdn.children) != 1 or len(rdn.children[0].children) != 2:
            raise StrictReadError("the subject has a multi-valued or malformed name")
        oid, value = rdn.children[0].children
        key = {COMMON_NAME: "CN", ORGANIZATION: "O"}.get(oid.content) if oid.tag == _OID else None
        if key is None or key in subject:
            raise StrictReadError("the subject is not exactly one O and one CN")
        if value.tag not in _STRINGS:
            raise StrictReadError(f"the subject's {key} is not a UTF8String or PrintableString")
        try:
            subject[key] = value.content.decode("utf-8")
        except UnicodeDecodeError:
            raise StrictReadError(f"the subject's {key} is not UTF-8") from None
    if set(subject) != {"CN", "O"}:
        raise StrictReadError("the subject is not exactly one O and one CN")
    return subject


def _extension_oids(attributes: _Node) -> tuple[bytes, ...]:
    if not attributes.children:
        return ()
    if len(attributes.children) != 1:
        raise StrictReadError(
            f"the request has {len(attributes.children)} attributes; a kubelet's has at most one extensionRequest"
        )
    attribute = attributes.children[0]
    if len(attribute.children) != 2 or attribute.children[0].content != EXTENSION_REQUEST:
        raise StrictReadError("the request's attribute is not the PKCS#9 extensionRequest")
    values = attribute.children[1]
    if values.tag != _SET or len(values.children) != 1 or values.children[0].tag != _SEQUENCE:
        raise StrictReadError("the extensionRequest attribute does not hold exactly one list of extensions")
    oids = tuple(ext.children[0].content if ext.children else b"" for ext in values.children[0].children)
    if len(set(oids)) != len(oids):
        raise StrictReadError("the request repeats an extension")
    if any(oid != SUBJECT_ALT_NAME for oid in oids):
        raise StrictReadError("the request asks for an extension other than subjectAltName")
    return oids


def read_strict(request: object) -> CsrParts:
    """The request's DER and subject, when ``request`` (``spec.request``) has the strict form."""
    if not isinstance(request, str) or not request:
        raise StrictReadError("spec.request is missing")
    if len(request) > MAX_REQUEST:
        raise StrictReadError(f"spec.request is over {MAX_REQUEST} characters")
    der = _pem_body(request)
    root, end = _parse(der, 0, 0)
    if end != len(der) or root.encode() != der:
        raise StrictReadError("the request is not DER (trailing bytes or a non-minimal length)")
    if root.tag != _SEQUENCE or [c.tag for c in root.children] != [_SEQUENCE, _SEQUENCE, _BIT_STRING]:
        raise StrictReadError("the request is not a PKCS#10 CertificationRequest")
    info = root.children[0]
    if [c.tag for c in info.children] != [_INTEGER, _SEQUENCE, _SEQUENCE, _ATTRIBUTES] or info.children[
        0
    ].content != b"\x00":
        raise StrictReadError("the request's info is not version 1 with subject, key and attributes")
    return CsrParts(der=der, subject=_subject(info.children[1]), extension_oids=_extension_oids(info.children[3]))
