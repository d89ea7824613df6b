"""The stand-in pulumi_ibm SDK against the reference surface (tests/fixtures/ibm_reference.json).

The fixture is extracted from the IBM provider research note by tools/extract_ibm_reference.py:
tokens, class names and the Python-name -> camelCase wire-name tree of every input. These tests
check the SDK's declared metadata against it *and* what actually reaches the engine under mocks.
"""

from __future__ import annotations

import base64
import inspect
import json
import typing
from importlib import resources
from pathlib import Path
from typing import Any

import pulumi
import pulumi._types as pulumi_types  # the metadata the runtime itself translates names with
import pulumi_ibm as ibm
import pytest
from pulumi.runtime.mocks import MockMonitor
from pulumi.type_token import get_type_token
from pulumi_ibm import _utilities

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REFERENCE = json.loads((FIXTURES / "ibm_reference.json").read_text(encoding="utf-8"))
RESOURCES: dict[str, dict[str, Any]] = REFERENCE["resources"]
FUNCTIONS: dict[str, dict[str, Any]] = REFERENCE["functions"]
TYPES: dict[str, dict[str, Any]] = REFERENCE["types"]

EXPECTED_PARAMETER = {"remote": {"url": "registry.opentofu.org/ibm-cloud/ibm", "version": "2.5.0"}}


# --------------------------------------------------------------------------- mocks


class RecordingMocks(pulumi.runtime.Mocks):
    """Echoes inputs as state (plus canned outputs) and records every resource and invoke."""

    def __init__(self) -> None:
        self.resources: list[pulumi.runtime.MockResourceArgs] = []
        self.calls: list[pulumi.runtime.MockCallArgs] = []
        self.state_overrides: dict[str, dict[str, Any]] = {}
        self.call_results: dict[str, dict[str, Any]] = {}

    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict]:
        self.resources.append(args)
        return f"{args.name}-id", {**args.inputs, **self.state_overrides.get(args.name, {})}

    def call(self, args: pulumi.runtime.MockCallArgs) -> dict:
        self.calls.append(args)
        return self.call_results.get(args.token, {})

    def inputs_of(self, name: str) -> dict[str, Any]:
        matches = [r.inputs for r in self.resources if r.name == name]
        assert len(matches) == 1, f"expected one registration of {name!r}, got {len(matches)}"
        return matches[0]


class RecordingMonitor(MockMonitor):
    """MockMonitor that also keeps the raw RegisterPackage / RegisterResource requests."""

    def __init__(self, mocks: pulumi.runtime.Mocks) -> None:
        super().__init__(mocks)
        self.package_requests: list[Any] = []
        self.resource_package_refs: dict[str, str] = {}

    def RegisterPackage(self, request):  # noqa: N802 - gRPC method name
        self.package_requests.append(request)
        return super().RegisterPackage(request)

    def RegisterResource(self, request):  # noqa: N802 - gRPC method name
        if request.type != "pulumi:pulumi:Stack":
            self.resource_package_refs[request.name] = request.packageRef
        return super().RegisterResource(request)


@pytest.fixture
def mocks():
    recording = RecordingMocks()
    monitor = RecordingMonitor(recording)
    pulumi.runtime.set_mocks(recording, project="gpucluster", stack="test", preview=False, monitor=monitor)
    recording.monitor = monitor
    yield recording
    pulumi.runtime.settings.reset_options()


def run(program) -> None:
    """Run a program under the active mocks and wait for every registration."""
    pulumi.runtime.test(program)()


# --------------------------------------------------------------------------- sample data from the reference


def _scalar(name: str, type_name: str) -> Any:
    if type_name == "bool":
        return True
    if type_name == "int":
        return 7
    if type_name == "Sequence[str]":
        return [f"{name}-0", f"{name}-1"]
    if type_name == "Mapping[str, str]":
        return {"user_key_stays": f"{name}-v"}  # map keys are data, never translated
    return f"{name}-v"


def sample(fields: dict[str, dict[str, Any]], typed: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """(python kwargs, expected wire dict) with every field of an input shape populated."""
    kwargs: dict[str, Any] = {}
    wire: dict[str, Any] = {}
    for name, field in fields.items():
        nested = field.get("nested_type")
        if nested is None:
            kwargs[name] = wire[field["wire"]] = _scalar(name, field["type"])
            continue
        child_kwargs, child_wire = sample(TYPES[nested]["fields"], typed)
        value = getattr(ibm, nested)(**child_kwargs) if typed else child_kwargs
        if field["type"].startswith("Sequence["):
            kwargs[name], wire[field["wire"]] = [value], [child_wire]
        else:
            kwargs[name], wire[field["wire"]] = value, child_wire
    return kwargs, wire


def minimal(fields: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Only the required fields (recursively), as snake_case dicts."""
    kwargs: dict[str, Any] = {}
    for name, field in fields.items():
        if not field["required"]:
            continue
        nested = field.get("nested_type")
        if nested is None:
            kwargs[name] = _scalar(name, field["type"])
        else:
            child = minimal(TYPES[nested]["fields"])
            kwargs[name] = [child] if field["type"].startswith("Sequence[") else child
    return kwargs


def wire_names(fields: dict[str, dict[str, Any]]) -> dict[str, str]:
    return {name: field["wire"] for name, field in fields.items()}


# --------------------------------------------------------------------------- (1) declared surface


def test_fixture_covers_the_brief() -> None:
    assert len(RESOURCES) == 18 and len(FUNCTIONS) == 10
    assert RESOURCES["IsSecurityGroupRule"]["args_class"] == "IsSecurityGroupRuleInitArgs"
    assert RESOURCES["IsInstance"]["inputs"]["availability"]["children"]["class_"]["wire"] == "class"
    assert REFERENCE["collisions"]["IsInstanceNetworkAttachmentVirtualNetworkInterfaceArgs"] == {
        "winner": "IsInstanceNetworkAttachment",
        "shadowed": ["IsInstance"],
    }


@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_resource_class_token_and_args(name: str) -> None:
    ref = RESOURCES[name]
    cls = getattr(ibm, name)
    args_cls = getattr(ibm, ref["args_class"])
    assert get_type_token(cls) == ref["token"]
    assert cls.__module__ == f"pulumi_ibm.{ref['module']}"
    assert pulumi_types.is_input_type(args_cls)
    # Every reference input, and nothing else, with its camelCase wire name.
    assert pulumi_types.input_type_py_to_pulumi_names(args_cls) == wire_names(ref["inputs"])


@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_resource_constructor_signatures(name: str) -> None:
    ref = RESOURCES[name]
    kwargs_overload = typing.get_overloads(getattr(ibm, name).__init__)[0]
    overload_params = inspect.signature(kwargs_overload).parameters
    keyword_only = {n for n, p in overload_params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY}
    assert keyword_only == set(ref["inputs"])

    required = {n for n, f in ref["inputs"].items() if f["required"]}
    params = inspect.signature(getattr(ibm, ref["args_class"]).__init__).parameters
    assert {n for n, p in params.items() if p.default is inspect.Parameter.empty and n != "__self__"} == required


@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_resource_output_getters(name: str) -> None:
    ref = RESOURCES[name]
    getters = pulumi_types.resource_py_to_pulumi_names(getattr(ibm, name))
    expected = {**wire_names(ref["inputs"]), **{k: v["wire"] for k, v in ref["outputs"].items()}}
    assert getters == expected


@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_top_level_nested_inputs_resolve_to_reference_types(name: str) -> None:
    ref = RESOURCES[name]
    types = pulumi_types.input_type_types(getattr(ibm, ref["args_class"]))
    for field in ref["inputs"].values():
        if "nested_type" not in field:
            continue
        resolved = types[field["wire"]]
        if field["is_list"]:
            (resolved,) = typing.get_args(resolved)
            resolved = pulumi_types.unwrap_type(resolved)
        assert resolved is getattr(ibm, field["nested_type"])


@pytest.mark.parametrize("type_name", sorted(TYPES))
def test_nested_input_types(type_name: str) -> None:
    shape = TYPES[type_name]
    cls = getattr(ibm, type_name)
    assert pulumi_types.input_type_py_to_pulumi_names(cls) == wire_names(shape["fields"])
    # The TypedDict twin accepts the same snake_case keys with the same required set.
    typed_dict = getattr(ibm, f"{type_name}Dict")
    assert set(typed_dict.__annotations__) == set(shape["fields"])
    assert set(typed_dict.__required_keys__) == {n for n, f in shape["fields"].items() if f["required"]}
    # Children point at the (effective) nested type classes.
    types = pulumi_types.input_type_types(cls)
    for field in shape["fields"].values():
        if "nested_type" in field:
            resolved = types[field["wire"]]
            if field["type"].startswith("Sequence["):
                resolved = pulumi_types.unwrap_type(typing.get_args(resolved)[0])
            assert resolved is getattr(ibm, field["nested_type"])


@pytest.mark.parametrize("type_name", sorted(TYPES))
def test_nested_output_types(type_name: str) -> None:
    shape = TYPES[type_name]
    cls = getattr(ibm.outputs, type_name.removesuffix("Args"))
    assert pulumi_types.is_output_type(cls)
    names = pulumi_types._py_to_pulumi_names_from_py_properties(cls)
    expected = {**wire_names(shape["fields"]), **{k: v["wire"] for k, v in shape["computed_only"].items()}}
    assert names == expected


def test_collided_types_take_the_standalone_shape() -> None:
    vni = pulumi_types.input_type_py_to_pulumi_names(ibm.IsInstanceNetworkAttachmentVirtualNetworkInterfaceArgs)
    assert vni["primary_ip"] == "primaryIp" and "primary_ips" not in vni
    cni = pulumi_types.input_type_py_to_pulumi_names(ibm.IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceArgs)
    assert cni == {"name": "name", "primary_ip": "primaryIp", "subnet": "subnet"}
    assert "address" in pulumi_types.input_type_py_to_pulumi_names(
        ibm.IsInstanceClusterNetworkAttachmentClusterNetworkInterfacePrimaryIpArgs
    )


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_function_surface(name: str) -> None:
    ref = FUNCTIONS[name]
    params = inspect.signature(getattr(ibm, name)).parameters
    assert set(params) - {"opts"} == set(ref["args"])
    assert {n for n, p in params.items() if p.default is inspect.Parameter.empty} == {
        n for n, a in ref["args"].items() if a["required"]
    }
    assert set(inspect.signature(getattr(ibm, f"{name}_output")).parameters) == set(params)
    result_cls = getattr(ibm, ref["result_class"])
    getters = pulumi_types._py_to_pulumi_names_from_py_properties(result_cls)
    expected = {"id": "id", **{k: a["wire"] for k, a in ref["args"].items()}}
    expected.update({k: v["wire"] for k, v in ref["outputs"].items()})
    assert getters == expected
    assert issubclass(getattr(ibm, f"Awaitable{ref['result_class']}"), result_cls)


def test_provider_surface() -> None:
    assert get_type_token(ibm.Provider) == "pulumi:providers:ibm"
    names = pulumi_types.input_type_py_to_pulumi_names(ibm.ProviderArgs)
    for arg, wire in {
        "ibmcloud_api_key": "ibmcloudApiKey",
        "region": "region",
        "zone": "zone",
        "resource_group": "resourceGroup",
        "max_retries": "maxRetries",
        "ibmcloud_timeout": "ibmcloudTimeout",
        "visibility": "visibility",
    }.items():
        assert names[arg] == wire


# --------------------------------------------------------------------------- (2) wire names at the engine


@pytest.mark.parametrize("typed", [False, True], ids=["dicts", "typed-args"])
@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_every_input_reaches_the_engine_camel_cased(mocks: RecordingMocks, name: str, typed: bool) -> None:
    ref = RESOURCES[name]
    kwargs, expected = sample(ref["inputs"], typed)
    cls = getattr(ibm, name)
    if typed:
        run(lambda: cls("res", getattr(ibm, ref["args_class"])(**kwargs)))
    else:
        run(lambda: cls("res", **kwargs))
    (registered,) = mocks.resources
    assert registered.typ == ref["token"]
    assert registered.custom
    assert registered.inputs == expected


def _gpu_node(**overrides: Any) -> dict[str, Any]:
    args: dict[str, Any] = {
        "name": "gpu-node-0",
        "profile": "gx3d-160x1792x8h100",
        "image": "r014-img",
        "vpc": "r014-vpc",
        "zone": "us-east-3",
        "keys": ["r014-key"],
        "availability": {"class_": "standard"},
        "metadata_service": {"enabled": True, "response_hop_limit": 2},
        "primary_network_attachment": {
            "name": "eth0",
            "virtual_network_interface": {
                "subnet": "sn-mgmt",
                "security_groups": ["sg-1"],
                "allow_ip_spoofing": False,
                "primary_ip": {"auto_delete": True},
            },
        },
        "cluster_network_attachments": [
            {
                "name": f"cna-{i}",
                "cluster_network_interface": {
                    "name": f"gpu-node-0-cni-{i}",
                    "subnet": {"id": f"cn-sn-{i}"},
                    "primary_ip": {"address": f"10.{i}.0.4"},
                },
            }
            for i in range(2)
        ],
        "timeouts": {"create": "60m"},
    }
    args.update(overrides)
    return args


def test_instance_nested_dicts_are_camel_cased(mocks: RecordingMocks) -> None:
    run(lambda: ibm.IsInstance("node", **_gpu_node()))
    sent = mocks.inputs_of("node")
    vni = sent["primaryNetworkAttachment"]["virtualNetworkInterface"]
    assert vni["securityGroups"] == ["sg-1"]
    assert vni["allowIpSpoofing"] is False
    assert vni["primaryIp"] == {"autoDelete": True}
    first = sent["clusterNetworkAttachments"][0]["clusterNetworkInterface"]
    assert first["subnet"]["id"] == "cn-sn-0"
    assert first["primaryIp"]["address"] == "10.0.0.4"
    assert sent["availability"] == {"class": "standard"}
    assert sent["metadataService"] == {"enabled": True, "responseHopLimit": 2}
    assert sent["timeouts"] == {"create": "60m"}
    assert not any("_" in key for key in _all_keys(sent)), sorted(k for k in _all_keys(sent) if "_" in k)


def test_instance_typed_args_match_dicts(mocks: RecordingMocks) -> None:
    typed = ibm.IsInstanceArgs(
        **_gpu_node(
            primary_network_attachment=ibm.IsInstancePrimaryNetworkAttachmentArgs(
                name="eth0",
                virtual_network_interface=ibm.IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceArgs(
                    subnet="sn-mgmt",
                    security_groups=["sg-1"],
                    allow_ip_spoofing=False,
                    primary_ip=ibm.IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgs(
                        auto_delete=True
                    ),
                ),
            ),
            cluster_network_attachments=[
                ibm.IsInstanceClusterNetworkAttachmentArgs(
                    name=f"cna-{i}",
                    cluster_network_interface=ibm.IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceArgs(
                        name=f"gpu-node-0-cni-{i}",
                        subnet=ibm.IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceSubnetArgs(id=f"cn-sn-{i}"),
                        primary_ip={"address": f"10.{i}.0.4"},
                    ),
                )
                for i in range(2)
            ],
        )
    )

    def program() -> None:
        ibm.IsInstance("typed", typed)
        ibm.IsInstance("dicts", **_gpu_node())

    run(program)
    assert mocks.inputs_of("typed") == mocks.inputs_of("dicts")


def test_instance_network_attachment_vni_prototype(mocks: RecordingMocks) -> None:
    run(
        lambda: ibm.IsInstanceNetworkAttachment(
            "nic1",
            instance="inst-1",
            name="eth1",
            virtual_network_interface={
                "name": "vni-1",
                "subnet": "sn-data",
                "security_groups": ["sg-1"],
                "allow_ip_spoofing": True,
                "auto_delete": True,
                "enable_infrastructure_nat": True,
                "protocol_state_filtering_mode": "auto",
                "primary_ip": {"address": "10.1.0.5", "auto_delete": True, "name": "ip-1"},
                "ips": [{"reserved_ip": "rip-2"}],
            },
        )
    )
    assert mocks.inputs_of("nic1")["virtualNetworkInterface"] == {
        "name": "vni-1",
        "subnet": "sn-data",
        "securityGroups": ["sg-1"],
        "allowIpSpoofing": True,
        "autoDelete": True,
        "enableInfrastructureNat": True,
        "protocolStateFilteringMode": "auto",
        "primaryIp": {"address": "10.1.0.5", "autoDelete": True, "name": "ip-1"},
        "ips": [{"reservedIp": "rip-2"}],
    }


def test_instance_network_attachments_use_the_standalone_vni_shape(mocks: RecordingMocks) -> None:
    """IsInstance.network_attachments[] shares its VNI type with IsInstanceNetworkAttachment."""
    run(
        lambda: ibm.IsInstance(
            "node",
            **_gpu_node(
                network_attachments=[
                    {"name": "eth1", "virtual_network_interface": {"subnet": "sn-2", "primary_ip": {"address": "x"}}}
                ]
            ),
        )
    )
    attachment = mocks.inputs_of("node")["networkAttachments"][0]
    assert attachment == {"name": "eth1", "virtualNetworkInterface": {"subnet": "sn-2", "primaryIp": {"address": "x"}}}


def test_keys_a_collided_type_does_not_declare_pass_through_untranslated(mocks: RecordingMocks) -> None:
    """Mirrors the generated SDK: `auto_delete` is not in the winning CNI shape, so it is not renamed."""
    attachment = {"name": "cna-0", "cluster_network_interface": {"subnet": {"id": "s"}, "auto_delete": True}}
    run(lambda: ibm.IsInstance("node", **_gpu_node(cluster_network_attachments=[attachment])))
    cni = mocks.inputs_of("node")["clusterNetworkAttachments"][0]["clusterNetworkInterface"]
    assert cni == {"subnet": {"id": "s"}, "auto_delete": True}


def test_cluster_network_objects(mocks: RecordingMocks) -> None:
    def program() -> None:
        cn = ibm.IsClusterNetwork(
            "cn",
            name="gpu-cn",
            profile="hopper-1",
            zone="us-east-3",
            vpc={"id": "r014-vpc"},
            subnet_prefixes={"cidr": "10.0.0.0/9"},
            resource_group="rg-1",
        )
        subnet = ibm.IsClusterNetworkSubnet(
            "cn-sn-0", name="gpu-cn-sn-0", cluster_network_id=cn.id, total_ipv4_address_count=64
        )
        ibm.IsClusterNetworkInterface(
            "cni",
            cluster_network_id=cn.id,
            subnet={"id": subnet.cluster_network_subnet_id},
            primary_ip={"address": "a"},
        )

    run(program)
    assert mocks.inputs_of("cn")["vpc"] == {"id": "r014-vpc"}
    assert mocks.inputs_of("cn")["subnetPrefixes"] == {"cidr": "10.0.0.0/9"}
    assert mocks.inputs_of("cn-sn-0") == {
        "name": "gpu-cn-sn-0",
        "clusterNetworkId": "cn-id",
        "totalIpv4AddressCount": 64,
    }
    assert mocks.inputs_of("cni")["primaryIp"] == {"address": "a"}


def test_nested_outputs_come_back_as_output_types(mocks: RecordingMocks) -> None:
    mocks.state_overrides["node"] = {
        "primaryNetworkAttachment": {"name": "eth0", "primaryIps": [{"address": "10.240.0.4", "id": "rip-1"}]},
        "gpus": [{"count": 8, "model": "H100", "manufacturer": "nvidia", "memory": 80}],
    }
    seen: dict[str, Any] = {}

    def program():
        node = ibm.IsInstance("node", **_gpu_node())
        return pulumi.Output.all(
            node.primary_network_attachment.apply(lambda a: a.primary_ips[0].address),
            node.gpus.apply(lambda gpus: (gpus[0].count, gpus[0].model)),
        ).apply(lambda values: seen.update(values=values))

    run(program)
    assert seen["values"] == ["10.240.0.4", (8, "H100")]


def test_map_inputs_keep_user_keys(mocks: RecordingMocks) -> None:
    run(lambda: ibm.IsPublicGateway("pgw", vpc="v", zone="z", floating_ip={"id": "fip-1"}))
    assert mocks.inputs_of("pgw")["floatingIp"] == {"id": "fip-1"}


def test_provider_registers_with_secret_key_and_json_numbers(mocks: RecordingMocks) -> None:
    run(lambda: ibm.Provider("ibm", ibmcloud_api_key="key", region="us-east", max_retries=3))
    (registered,) = mocks.resources
    assert registered.typ == "pulumi:providers:ibm"
    assert registered.inputs["region"] == "us-east"
    assert registered.inputs["maxRetries"] == "3"
    api_key = registered.inputs["ibmcloudApiKey"]
    assert api_key["value"] == "key" and len(api_key) == 2  # wrapped in the secret signature


def test_static_get_reads_by_id(mocks: RecordingMocks) -> None:
    run(lambda: ibm.IsVpc.get("existing", "r014-vpc-1"))
    (read,) = mocks.resources
    assert read.typ == "ibm:index/isVpc:IsVpc"
    assert read.resource_id == "r014-vpc-1"


# --------------------------------------------------------------------------- (3) required properties


REQUIRED = [
    (name, prop) for name, ref in sorted(RESOURCES.items()) for prop, f in ref["inputs"].items() if f["required"]
]


@pytest.mark.parametrize(("name", "missing"), REQUIRED, ids=[f"{n}.{p}" for n, p in REQUIRED])
def test_missing_required_property_raises(mocks: RecordingMocks, name: str, missing: str) -> None:
    ref = RESOURCES[name]
    kwargs = minimal(ref["inputs"])
    kwargs.pop(missing)
    with pytest.raises(TypeError, match=f"Missing required property '{missing}'"):
        getattr(ibm, name)("res", **kwargs)


@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_required_properties_are_enough(mocks: RecordingMocks, name: str) -> None:
    run(lambda: getattr(ibm, name)("res", **minimal(RESOURCES[name]["inputs"])))
    assert [r.typ for r in mocks.resources] == [RESOURCES[name]["token"]]


def test_unknown_keyword_is_rejected(mocks: RecordingMocks) -> None:
    with pytest.raises(TypeError, match="primary_network_attachments"):
        ibm.IsInstance("node", primary_network_attachments={})


# --------------------------------------------------------------------------- (4) parameterized package


def _assert_ibm_package(request: Any) -> None:
    assert request.name == "terraform-provider"
    assert request.version == _utilities.BRIDGE_PLUGIN_VERSION
    assert request.parameterization.name == "ibm"
    assert request.parameterization.version == "2.5.0"
    assert json.loads(request.parameterization.value) == EXPECTED_PARAMETER


def test_resources_and_invokes_share_one_package_registration(mocks: RecordingMocks) -> None:
    def program() -> None:
        vpc = ibm.IsVpc("vpc", name="gpu-vpc")
        ibm.IsSubnet("sn", vpc=vpc.id, zone="us-east-3", total_ipv4_address_count=256)
        ibm.get_resource_group(name="Default")

    run(program)
    (request,) = mocks.monitor.package_requests
    _assert_ibm_package(request)
    assert mocks.monitor.resource_package_refs == {"vpc": "mock-uuid", "sn": "mock-uuid"}


def test_a_new_monitor_gets_its_own_registration(mocks: RecordingMocks) -> None:
    run(lambda: ibm.IsVpc("first"))
    second = RecordingMocks()
    second.monitor = RecordingMonitor(second)
    pulumi.runtime.set_mocks(second, project="gpucluster", stack="test", preview=False, monitor=second.monitor)
    run(lambda: ibm.IsVpc("second"))
    assert len(mocks.monitor.package_requests) == 1
    (request,) = second.monitor.package_requests
    _assert_ibm_package(request)
    assert second.monitor.resource_package_refs == {"second": "mock-uuid"}


def test_plugin_json_matches_the_registration() -> None:
    plugin = json.loads(resources.files("pulumi_ibm").joinpath("pulumi-plugin.json").read_text(encoding="utf-8"))
    assert plugin["resource"] is True
    assert plugin["name"] == "terraform-provider"
    assert plugin["version"] == _utilities.BRIDGE_PLUGIN_VERSION
    assert plugin["parameterization"]["name"] == "ibm"
    assert plugin["parameterization"]["version"] == "2.5.0"
    assert plugin["parameterization"]["value"] == _utilities.PARAMETER_VALUE
    assert json.loads(base64.b64decode(plugin["parameterization"]["value"])) == EXPECTED_PARAMETER


# --------------------------------------------------------------------------- (5) functions


def test_get_resource_group_invokes_with_camel_case(mocks: RecordingMocks) -> None:
    mocks.call_results["ibm:index/getResourceGroup:getResourceGroup"] = {
        "id": "rg-123",
        "isDefault": True,
        "accountId": "acct",
    }
    result = ibm.get_resource_group(is_default=True)
    (call,) = mocks.calls
    assert call.token == "ibm:index/getResourceGroup:getResourceGroup"
    assert call.args == {"isDefault": True}
    assert (result.id, result.is_default, result.account_id) == ("rg-123", True, "acct")


def test_get_is_image_and_instance_profile(mocks: RecordingMocks) -> None:
    mocks.call_results["ibm:index/getIsImage:getIsImage"] = {"id": "r014-img", "os": "ubuntu-24-04-amd64"}
    mocks.call_results["ibm:index/getIsInstanceProfile:getIsInstanceProfile"] = {
        "id": "gx3d-160x1792x8h100",
        "name": "gx3d-160x1792x8h100",
        "family": "gpu",
        "gpuCounts": [{"type": "fixed", "value": 8}],
        "networkAttachmentCounts": [{"max": 15, "min": 1, "type": "range"}],
        "clusterNetworkAttachmentCounts": [{"type": "enum", "values": [8, 16, 32]}],
        "supportedClusterNetworkProfiles": [{"name": "hopper-1"}],
    }
    image = ibm.get_is_image(name="ibm-ubuntu-24-04", visibility="public")
    profile = ibm.get_is_instance_profile(name="gx3d-160x1792x8h100")
    assert [(c.token, c.args) for c in mocks.calls] == [
        ("ibm:index/getIsImage:getIsImage", {"name": "ibm-ubuntu-24-04", "visibility": "public"}),
        ("ibm:index/getIsInstanceProfile:getIsInstanceProfile", {"name": "gx3d-160x1792x8h100"}),
    ]
    assert (image.id, image.os) == ("r014-img", "ubuntu-24-04-amd64")
    assert profile.gpu_counts[0].value == 8
    assert profile.network_attachment_counts[0].max == 15
    assert list(profile.cluster_network_attachment_counts[0].values) == [8, 16, 32]
    assert profile.supported_cluster_network_profiles[0].name == "hopper-1"


def test_get_is_ssh_key_by_name(mocks: RecordingMocks) -> None:
    # Not in ibm-provider.md: names from the provider's data source (tools/ibm_reference_supplement.md).
    token = "ibm:index/getIsSshKey:getIsSshKey"
    mocks.call_results[token] = {
        "id": "r014-key",
        "name": "team-key",
        "publicKey": "ssh-ed25519 AAAA",
        "fingerprint": "SHA256:abc",
        "type": "ed25519",
        "resourceGroup": "rg-1",
    }
    key = ibm.get_is_ssh_key(name="team-key", resource_group="rg-1")
    assert [(c.token, c.args) for c in mocks.calls] == [(token, {"name": "team-key", "resourceGroup": "rg-1"})]
    assert (key.id, key.public_key, key.fingerprint, key.resource_group) == (
        "r014-key",
        "ssh-ed25519 AAAA",
        "SHA256:abc",
        "rg-1",
    )


def test_get_is_ssh_key_by_id(mocks: RecordingMocks) -> None:
    # The data source takes exactly one of name and id (ExactlyOneOf); a lookup by ID sends only `id`.
    token = "ibm:index/getIsSshKey:getIsSshKey"
    mocks.call_results[token] = {
        "id": "r014-key",
        "name": "team-key",
        "createdAt": "2026-01-01T00:00:00Z",
        "resourceGroupName": "rg-1",
        "accessTags": ["env:dev"],
        "length": 256,
    }
    key = ibm.get_is_ssh_key(id="r014-key")
    assert [(c.token, c.args) for c in mocks.calls] == [(token, {"id": "r014-key"})]
    assert (key.name, key.created_at, key.resource_group_name, list(key.access_tags), key.length) == (
        "team-key",
        "2026-01-01T00:00:00Z",
        "rg-1",
        ["env:dev"],
        256,
    )


def test_ipi_worker_lookups(mocks: RecordingMocks) -> None:
    # The lookups that adopting an OpenShift IPI cluster's workers relies on (ibm-provider.md §3, §4.4):
    # every worker of the cluster's VPC, one worker by name, the VPC and a subnet by their IPI names.
    instances = "ibm:index/getIsInstances:getIsInstances"
    worker = {
        "id": "0757_1",
        "name": "mini-scale-cjzbq-worker-2-4k44l",
        "profile": "gx3d-160x1792x8h100",
        "zone": "us-east-3",
        "primaryNetworkInterfaces": [{"id": "0757-nic", "subnet": "0757-sub"}],
        "networkAttachments": [],
        "primaryNetworkAttachments": [],
    }
    mocks.call_results[instances] = {"instances": [worker]}
    mocks.call_results["ibm:index/getIsInstance:getIsInstance"] = {**worker, "status": "running"}
    mocks.call_results["ibm:index/getIsVpc:getIsVpc"] = {"id": "r014-vpc", "name": "mini-scale-cjzbq-vpc"}
    found = ibm.get_is_instances(vpc_name="mini-scale-cjzbq-vpc")
    one = ibm.get_is_instance(name="mini-scale-cjzbq-worker-2-4k44l")
    vpc = ibm.get_is_vpc(name="mini-scale-cjzbq-vpc")
    ibm.get_is_subnet(name="mini-scale-cjzbq-subnet-compute-us-east-3")
    ibm.get_is_security_group(name="mini-scale-cjzbq-sg-cp-internal")
    assert [(c.token.rsplit(":", 1)[1], c.args) for c in mocks.calls] == [
        ("getIsInstances", {"vpcName": "mini-scale-cjzbq-vpc"}),
        ("getIsInstance", {"name": "mini-scale-cjzbq-worker-2-4k44l"}),
        ("getIsVpc", {"name": "mini-scale-cjzbq-vpc"}),
        ("getIsSubnet", {"name": "mini-scale-cjzbq-subnet-compute-us-east-3"}),
        ("getIsSecurityGroup", {"name": "mini-scale-cjzbq-sg-cp-internal"}),
    ]
    assert found.instances[0]["primaryNetworkInterfaces"][0]["subnet"] == "0757-sub"
    assert (one.status, one.profile, one.zone) == ("running", "gx3d-160x1792x8h100", "us-east-3")
    assert one.primary_network_interfaces[0]["id"] == "0757-nic" and one.network_attachments == []
    assert vpc.id == "r014-vpc"


def test_output_variant_resolves_typed_result(mocks: RecordingMocks) -> None:
    token = "ibm:index/getIsClusterNetworkProfile:getIsClusterNetworkProfile"
    mocks.call_results[token] = {
        "family": "hopper",
        "zones": [{"name": "us-east-3"}, {"name": "eu-de-2"}],
        "supportedInstanceProfiles": [{"name": "gx3d-160x1792x8h100"}],
    }
    seen: list[Any] = []

    def program():
        result = ibm.get_is_cluster_network_profile_output(name="hopper-1")
        return result.apply(lambda r: seen.append(([z.name for z in r.zones], r.family)))

    run(program)
    assert [(c.token, c.args) for c in mocks.calls] == [(token, {"name": "hopper-1"})]
    assert seen == [(["us-east-3", "eu-de-2"], "hopper")]
    (request,) = mocks.monitor.package_requests
    _assert_ibm_package(request)


def _all_keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _all_keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _all_keys(v)}
    return set()


def test_output_types_are_dicts_so_the_runtime_sees_unknowns_nested_in_them() -> None:
    """As the generated SDKs define them (``pulumi_kubernetes``' ``ObjectMeta(dict)``): ``contains_unknowns`` walks
    dicts only, so a plain class would hide an unknown nested field and an ``apply`` would run on it in a preview."""
    from pulumi.output import Unknown
    from pulumi_ibm import outputs

    types = [t for t in vars(outputs).values() if isinstance(t, type) and pulumi_types.is_output_type(t)]
    assert len(types) == len(outputs.__all__) and all(issubclass(t, dict) for t in types)
    nic = outputs.IsInstancePrimaryNetworkInterface(subnet="0757-subnet", primary_ip=Unknown())
    assert (
        pulumi.contains_unknowns(nic)
        and nic.subnet == "0757-subnet"
        and dict(nic)
        == {
            "subnet": "0757-subnet",
            "primary_ip": nic.primary_ip,
        }
    )
