"""The component package: its schema (what `pulumi package get-schema` prints) and GpuCluster constructed
through the SDK's own component provider (``ComponentProvider.construct``) under mocks."""

from __future__ import annotations

import ast
import json
from typing import Any, get_type_hints

import pulumi
import pytest
import yaml
from pulumi.provider.experimental.component import ComponentProvider
from pulumi.provider.server import ComponentInitError
from pulumi.runtime import settings as pulumi_settings

from components.models.config import ClusterConfig, NetworkConfig, NodesConfig, SecurityConfig
from components.models.inputs import ClusterInputs, NetworkInputs, NodesInputs, SecurityInputs
from components.package import PACKAGE, TOKEN, package_schema, provider
from experiments.cli.main import main

from ...conftest import PROJECT_ROOT, RecordingMocks, standalone_config
from ..models.test_public_key_form import BODY, PRIVATE, PRIVATE_KEYS


def test_the_schema_names_the_component_its_inputs_outputs_and_descriptions() -> None:
    schema = package_schema()
    assert schema["name"] == PACKAGE
    resource = schema["resources"][TOKEN]
    assert resource["isComponent"] is True and resource["description"]
    assert resource["requiredInputs"] == ["cluster"]
    assert set(resource["inputProperties"]) == {
        "cluster",
        "sshPublicKey",
        "ibmcloudApiKey",
        "kubeconfig",
        "workerIgnition",
        "kubeadmToken",
        "kubeadmCaCertHash",
    }
    assert {"namePrefix", "nodes", "instanceIds", "vpcId", "trainingJob"} <= set(resource["properties"])
    cluster = schema["types"][f"{PACKAGE}:index:ClusterInputs"]
    assert sorted(cluster["required"]) == ["network", "nodes", "zone"]
    nodes = schema["types"][f"{PACKAGE}:index:NodesInputs"]["properties"]
    assert nodes["count"]["type"] == "integer"
    every = [
        *resource["inputProperties"].values(),
        *resource["properties"].values(),
        *(p for t in schema["types"].values() for p in t["properties"].values()),
    ]
    assert all(p.get("description") for p in every)


@pytest.mark.parametrize(
    ("inputs", "model"),
    [
        (ClusterInputs, ClusterConfig),
        (NodesInputs, NodesConfig),
        (NetworkInputs, NetworkConfig),
        (SecurityInputs, SecurityConfig),
    ],
)
def test_the_input_shape_has_the_stack_files_keys(inputs: type, model: type) -> None:
    assert sorted(get_type_hints(inputs)) == sorted(model.model_fields)


def test_package_schema_prints_the_providers_schema(capsys) -> None:
    assert main(["package-schema"]) == 0
    assert json.loads(capsys.readouterr().out) == package_schema()


def test_package_schema_shows_the_consent_union_the_secrets_and_the_roll_out_output(capsys) -> None:
    """What inference cannot say, added (issue 36 item 4): a typed SDK takes ``true`` or a roll-out id, sends the
    six secrets as secrets, and hands the consumer the roll-out to export."""
    assert main(["package-schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    consent = schema["types"][f"{PACKAGE}:index:NodesInputs"]["properties"]["allowInstanceStop"]
    assert consent["oneOf"] == [{"type": "boolean"}, {"type": "string"}]
    assert not {"type", "$ref"} & set(consent) and "rollout-<8 hex digits>" in consent["description"]
    resource = schema["resources"][TOKEN]
    secret = sorted(name for name, spec in resource["inputProperties"].items() if spec.get("secret"))
    assert secret == sorted(
        ["sshPublicKey", "ibmcloudApiKey", "kubeconfig", "workerIgnition", "kubeadmToken", "kubeadmCaCertHash"]
    )
    assert resource["properties"]["appliedRollout"]["type"] == "string"
    assert "appliedRollout" not in resource["required"]  # only a stack that stops workers has one
    assert "Export it as the stack output appliedRollout" in " ".join(
        resource["properties"]["appliedRollout"]["description"].split()
    )


def _camel(value: Any) -> Any:
    """The inputs as another language's SDK sends them: camelCase keys of typed fields, numbers as floats."""
    if isinstance(value, dict):
        return {"".join([k.split("_")[0], *(p.title() for p in k.split("_")[1:])]): _camel(v) for k, v in value.items()}
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def construct(mocks: RecordingMocks, inputs: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = {}

    @pulumi.runtime.test
    def program() -> Any:
        result = provider().construct("exp", TOKEN, inputs)  # the provider serve() serves
        state.update(result.state)
        return pulumi.Output.all(**{k: v for k, v in result.state.items()}).apply(state.update)

    program()
    return state


def test_the_provider_constructs_gpu_cluster_from_a_stack_files_settings(mocks: RecordingMocks) -> None:
    cluster = standalone_config(**{"nodes.count": 2, "network.nics_per_node": 1})
    state = construct(mocks, {"cluster": _camel(cluster), "sshPublicKey": "ssh-ed25519 AAAA test"})
    assert state["nodes"] == ["t-node0", "t-node1"] and state["namePrefix"] == "t"
    assert len(state["instanceIds"]) == 2 and state["vpcId"]
    instances = [r for r in mocks.registered if r.typ == "ibm:index/isInstance:IsInstance"]
    assert sorted(r.inputs["name"] for r in instances) == ["t-node0", "t-node1"]
    # Every resource is the component's: none but the component right under the stack (a URN's type names its parent's).
    types = [urn.split("::")[2] for urn in pulumi_settings.get_monitor().get_registered_resources()]
    assert len(types) > 10 and [t for t in types if t.startswith("pulumi:pulumi:Stack$")] == [
        f"pulumi:pulumi:Stack${TOKEN}"
    ]
    assert {"pulumi:providers:ibm", "gpu-cluster:cluster:GpuCluster"} <= {
        t.split("$")[1] for t in types if t.startswith(f"{TOKEN}$")
    }


def test_bad_inputs_fail_with_the_stack_files_message(mocks: RecordingMocks) -> None:
    cluster = standalone_config(layers="both")  # standalone nodes need layers: cloud
    with pytest.raises(ComponentInitError, match=r"invalid inputs:\n.*nodes.source"):
        construct(mocks, {"cluster": _camel(cluster), "sshPublicKey": "ssh-ed25519 AAAA test"})


def test_a_missing_secret_is_named(mocks: RecordingMocks) -> None:
    with pytest.raises(ComponentInitError, match="ssh_public_key: required"):
        construct(mocks, {"cluster": _camel(standalone_config())})


def test_a_private_key_input_is_refused_unquoted(mocks: RecordingMocks) -> None:
    cluster = _camel(standalone_config())
    with pytest.raises(ComponentInitError) as raised:
        construct(mocks, {"cluster": cluster, "sshPublicKey": PRIVATE_KEYS["pkcs1-rsa"]})
    assert f"gpu-cluster:sshPublicKey: {PRIVATE}" in str(raised.value) and BODY not in str(raised.value)
    assert [r.typ for r in mocks.registered] == [TOKEN]  # the component, nothing under it


def test_a_private_key_known_only_later_is_refused_when_it_resolves(mocks: RecordingMocks) -> None:
    """An input from another resource (an Output) is held to the rule once known: the key resource never gets it."""
    cluster = _camel(standalone_config())
    with pytest.raises(Exception) as raised:  # noqa: PT011 - the engine's own wrapper of the apply's error
        construct(mocks, {"cluster": cluster, "sshPublicKey": pulumi.Output.secret(PRIVATE_KEYS["ec"])})
    assert PRIVATE in str(raised.value) and BODY not in str(raised.value)
    keys = [r for r in mocks.registered if r.typ == "ibm:index/isSshKey:IsSshKey"]
    assert all(BODY not in json.dumps(r.inputs, default=str) for r in keys)


def test_the_plugin_folder_runs_the_package_provider() -> None:
    folder = PROJECT_ROOT / "provider"
    assert yaml.safe_load((folder / "PulumiPlugin.yaml").read_text()) == {"runtime": "python"}
    main = ast.parse((folder / "__main__.py").read_text())
    calls = [ast.unparse(node) for node in ast.walk(main) if isinstance(node, ast.Call)]
    assert calls == ["serve()"] and "from components.package import serve" in ast.unparse(main)
    requirements = [
        line for line in (folder / "requirements.txt").read_text().splitlines() if line and not line.startswith("#")
    ]
    assert requirements == ["../sdks/ibm", ".."]
    assert all((folder / line / "pyproject.toml").is_file() for line in requirements)
    assert isinstance(provider(), ComponentProvider)
