"""Forged certificate requests, built by hand and signed with a real key: each stays pending with
its reason, where the Kubernetes API server (Go) and ``cryptography`` could read it differently or
where OpenShift's machine approver would refuse it."""

from __future__ import annotations

import base64
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from experiments.live.csr_rules import CLIENT_SIGNER, Context, Instance, judge, node_facts

from .csr_factory import (
    BOOTSTRAPPER_GROUPS,
    CN,
    EXTENSION_REQUEST,
    MS_EXTENSION_REQUEST,
    O_,
    as_spec_request,
    attribute,
    bootstrap_client,
    der_set,
    node,
    node_subject,
    oid,
    pem,
    rdn,
    request,
    san_extension,
    seq,
    serving,
    signed_request,
    spki_der,
    tlv,
    utf8,
)

NODE_1, NODE_2 = "h100-study-q8wzt-h100-join-1", "h100-study-q8wzt-h100-join-2"
STACK_NODES = frozenset({NODE_1, NODE_2})
IP_1 = "10.241.64.21"


def judged(csr: dict[str, Any], *nodes: dict[str, Any], **context: Any) -> Any:
    registered = {n["metadata"]["name"]: node_facts(n) for n in nodes}
    return judge(
        csr, Context(stack_nodes=STACK_NODES, nodes=registered, openshift=True, now=datetime.now(UTC), **context)
    )


def client_with(der: bytes | None = None, *, text: str | None = None) -> dict[str, Any]:
    body = text if text is not None else pem(der or b"")
    return bootstrap_client("forged", NODE_1, spec_request=as_spec_request(body))


def serving_with(der: bytes) -> dict[str, Any]:
    return serving("forged", NODE_1, (IP_1,), spec_request=as_spec_request(pem(der)))


def test_the_hand_built_requests_are_approved_when_nothing_is_forged() -> None:
    """The builder's plain requests pass: each refusal below is the forgery's doing."""
    assert judged(client_with(signed_request(node_subject(NODE_1), []))).approve
    names = attribute(EXTENSION_REQUEST, san_extension(NODE_1, ips=(IP_1,)))
    plain_serving = signed_request(node_subject(NODE_1), [names])
    assert judged(serving_with(plain_serving), node(NODE_1, IP_1)).approve


@pytest.mark.parametrize(
    ("attributes", "reason"),
    [
        # Go merges both lists (the second adds the attacker's name); cryptography reads one
        (
            [
                attribute(EXTENSION_REQUEST, san_extension(NODE_1, ips=(IP_1,))),
                attribute(EXTENSION_REQUEST, san_extension("kubernetes.default.svc")),
            ],
            "the request has 2 attributes",
        ),
        # Microsoft's extension request first: cryptography honours it, Go ignores it
        (
            [
                attribute(MS_EXTENSION_REQUEST, san_extension(NODE_1, ips=(IP_1,))),
                attribute(EXTENSION_REQUEST, san_extension("kubernetes.default.svc")),
            ],
            "the request has 2 attributes",
        ),
        (
            [attribute(MS_EXTENSION_REQUEST, san_extension(NODE_1, ips=(IP_1,)))],
            "the request's attribute is not the PKCS#9 extensionRequest",
        ),
        (
            [attribute(EXTENSION_REQUEST, san_extension(NODE_1), san_extension("kubernetes.default.svc"))],
            "the request repeats an extension",
        ),
        (
            [attribute(EXTENSION_REQUEST, seq(oid("2.5.29.19"), tlv(0x04, seq(tlv(0x01, b"\xff")))))],
            "an extension other than subjectAltName",
        ),
        (
            [seq(oid(EXTENSION_REQUEST), der_set(seq(san_extension(NODE_1)), seq(san_extension("x.example"))))],
            "does not hold exactly one list of extensions",
        ),
    ],
)
def test_attribute_forgeries_stay_pending(attributes, reason) -> None:
    result = judged(serving_with(signed_request(node_subject(NODE_1), attributes)), node(NODE_1, IP_1))
    assert not result.approve and reason in result.reason, result.reason


def _info(subject: bytes, attributes: bytes = tlv(0xA0, b"")) -> bytes:
    return seq(tlv(0x02, b"\x00"), subject, spki_der(), attributes)


@pytest.mark.parametrize(
    ("der", "reason"),
    [
        # Go keeps the last CN, a first-CN reader the first
        (
            signed_request(
                seq(
                    rdn(O_, utf8("system:nodes")),
                    rdn(CN, utf8(f"system:node:{NODE_1}")),
                    rdn(CN, utf8("system:node:master-0")),
                ),
                [],
            ),
            "not exactly one O and one CN",
        ),
        (
            signed_request(
                seq(der_set(seq(oid(O_), utf8("system:nodes")), seq(oid(CN), utf8(f"system:node:{NODE_1}")))), []
            ),
            "multi-valued",
        ),
        (
            signed_request(
                seq(rdn(O_, utf8("system:nodes")), rdn(CN, tlv(0x1E, f"system:node:{NODE_1}".encode("utf-16-be")))), []
            ),
            "not a UTF8String or PrintableString",
        ),
        # BER, not DER: a short length written in the long form, inside the signed part
        (
            signed_request(
                b"",
                [],
                info=seq(
                    tlv(0x02, b"\x00"),
                    tlv(0x30, node_subject(NODE_1)[2:], long_length=True),
                    spki_der(),
                    tlv(0xA0, b""),
                ),
            ),
            "not DER",
        ),
        (signed_request(node_subject(NODE_1), [], trailing=b"\x00\x00"), "not DER"),
        (
            signed_request(b"", [], info=seq(tlv(0x02, b"\x00\x00"), node_subject(NODE_1), spki_der(), tlv(0xA0, b""))),
            "non-minimal integer",
        ),
        (signed_request(b"", [], info=_info(node_subject(NODE_1))[:-2] + b"\xa0\x80\x00\x00"), "indefinite"),
        (
            signed_request(b"", [], info=seq(tlv(0x02, b"\x01"), node_subject(NODE_1), spki_der(), tlv(0xA0, b""))),
            "version 1",
        ),
    ],
)
def test_subject_and_encoding_forgeries_stay_pending(der, reason) -> None:
    result = judged(client_with(der))
    assert not result.approve and reason in result.reason, result.reason


GOOD = pem(signed_request(node_subject(NODE_1), []))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (GOOD + pem(signed_request(node_subject("master-0"), [])), "PEM block"),
        (pem(signed_request(node_subject("master-0"), [])) + GOOD, "PEM block"),
        ("junk before the block\n" + GOOD, "PEM block"),
        (GOOD.replace("-----END CERTIFICATE REQUEST-----", "-----END CERTIFICATE REQUEST-----junk"), "PEM block"),
        (GOOD.replace("-----END CERTIFICATE REQUEST-----", "-----END CERTIFICATE-----"), "PEM block"),
        (GOOD.replace("CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST"), "PEM block"),
        (GOOD.replace("-----\n", "-----\nProc-Type: 4,ENCRYPTED\n\n", 1), "PEM block"),
        (GOOD.replace("\n", "\r\n"), "PEM block"),
        (GOOD + "\n", "PEM block"),
    ],
)
def test_pem_forgeries_stay_pending(text, reason) -> None:
    result = judged(client_with(text=text))
    assert not result.approve and reason in result.reason, result.reason


def test_request_base64_must_be_canonical() -> None:
    spec_request = base64.encodebytes(GOOD.encode()).decode()  # with line breaks Go's decoder skips
    result = judged(bootstrap_client("forged", NODE_1, spec_request=spec_request))
    assert not result.approve and "not base64" in result.reason


@pytest.mark.parametrize("dns", [NODE_1.upper(), NODE_1.replace("h", "H", 1), NODE_1 + "."])
def test_names_compare_as_exact_bytes(dns) -> None:
    result = judged(serving("s", NODE_1, (IP_1,), dns=(dns,)), node(NODE_1, IP_1))
    assert not result.approve and f"DNS name {dns} is not one of Node {NODE_1}'s" in result.reason


def test_a_kelvin_sign_host_name_is_not_the_nodes() -> None:
    """A Node status that claims a host name with the Kelvin sign (it folds to ``k``) adds no name."""
    kelvin = node(NODE_1, IP_1)
    kelvin["status"]["addresses"].append({"type": "Hostname", "address": "\u212aelvin.example"})
    assert node_facts(kelvin).host_names == frozenset({NODE_1})
    result = judged(serving("s", NODE_1, (IP_1,), dns=(NODE_1, "kelvin.example")), kelvin)
    assert not result.approve and "DNS name kelvin.example is not one of" in result.reason


def test_the_bootstrapper_must_have_exactly_its_groups() -> None:
    extra = judged(bootstrap_client("c", NODE_1, groups=[*BOOTSTRAPPER_GROUPS, "system:masters"]))
    assert not extra.approve and "with exactly the groups" in extra.reason
    fewer = judged(bootstrap_client("c", NODE_1, groups=BOOTSTRAPPER_GROUPS[:2]))
    assert not fewer.approve and "with exactly the groups" in fewer.reason


def test_a_bootstrap_request_must_follow_the_instances_creation() -> None:
    old = bootstrap_client("c", NODE_1, age=timedelta(hours=3))
    result = judged(old)
    assert not result.approve and "outside the 2:00:00 bootstrap window" in result.reason
    assert "no createdAt in --stack-outputs" in result.reason
    made_long_ago = {NODE_1: Instance(created_at=datetime.now(UTC) - timedelta(hours=5))}
    late = judged(bootstrap_client("c", NODE_1), instances=made_long_ago)
    assert not late.approve and "IBM created the instance at" in late.reason
    before = judged(
        bootstrap_client("c", NODE_1, age=timedelta(minutes=30)),
        instances={NODE_1: Instance(created_at=datetime.now(UTC) - timedelta(minutes=10))},
    )
    assert not before.approve and "outside the" in before.reason
    fresh = judged(
        bootstrap_client("c", NODE_1, age=timedelta(minutes=5)),
        instances={NODE_1: Instance(created_at=datetime.now(UTC) - timedelta(minutes=10))},
    )
    assert fresh.approve and fresh.reason == "first client certificate of a joining node"


def test_serving_ips_are_checked_against_ibms_addresses() -> None:
    """The kubelet writes its Node's addresses itself; IBM's NIC addresses (stack outputs) decide."""
    claimed = node(NODE_1, "10.241.64.99")
    result = judged(
        serving("s", NODE_1, ("10.241.64.99",)), claimed, instances={NODE_1: Instance(ips=frozenset({IP_1}))}
    )
    assert not result.approve
    assert result.reason == f"IP address 10.241.64.99 is not one of {NODE_1}'s (IBM's addresses of its NICs: {IP_1})"
    # before the cloud controller manager initialized the Node, IBM's addresses are still IBM's
    ok = judged(
        serving("s", NODE_1, (IP_1,)),
        node(NODE_1, "10.241.64.99", initialized=False),
        instances={NODE_1: Instance(ips=frozenset({IP_1}))},
    )
    assert ok.approve and "IBM's addresses of its NICs" in ok.reason


@pytest.mark.parametrize(
    "poison",
    [
        {"metadata": {"name": "p"}, "spec": {"request": 5}},
        {"metadata": {"name": "p"}, "spec": None},
        {"metadata": None},
        {
            "metadata": {"name": "p"},
            "spec": {
                "request": request(f"system:node:{NODE_1}"),
                "username": ["x"],
                "groups": "system:nodes",
                "usages": {"a": 1},
                "signerName": CLIENT_SIGNER,
            },
        },
        {
            "metadata": {"name": "p", "creationTimestamp": 7},
            "spec": {
                "request": request(f"system:node:{NODE_1}"),
                "username": "system:serviceaccount:openshift-machine-config-operator:node-bootstrapper",
                "groups": BOOTSTRAPPER_GROUPS,
                "usages": ["client auth", 3],
                "signerName": CLIENT_SIGNER,
            },
            "status": {"conditions": ["Approved"]},
        },
    ],
)
def test_a_request_nothing_foresaw_is_a_pending_verdict_not_a_crash(poison) -> None:
    result = judged(poison)
    assert result.approve is False and result.reason
