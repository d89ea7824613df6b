"""What the package promises a consumer in another language (issue 36 item 4): the roll-out consent as a
boolean or an id, the roll-out record as an output, secrets kept secret, and inputs it cannot use refused with a
stack file's message instead of dropped."""

from __future__ import annotations

import json
from typing import Any

import pulumi
import pytest
from pulumi.errors import InputPropertiesError
from pulumi.provider.server import ComponentInitError

from components.package import TOKEN, provider
from components.package.package_provider import NOT_PLAIN
from experiments.offline.engine import EngineResult, mask_secrets, run_offline
from experiments.stacks.stackfile import StackFile, load_stack

from ...conftest import RecordingMocks, standalone_config

TYPED_SECTIONS = ("nodes", "network", "security")
"""The cluster's typed sections, camelCased by the schema; the others pass through with a stack file's keys."""


def _camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(part.title() for part in rest)


def package_inputs(cluster: dict[str, Any], **secrets: Any) -> dict[str, Any]:
    """A stack file's cluster mapping as another language's SDK sends it: the typed keys camelCased."""
    sent = {
        _camel(key): {_camel(k): v for k, v in value.items()} if key in TYPED_SECTIONS else value
        for key, value in cluster.items()
    }
    return {"cluster": sent, **secrets}


def construct(inputs: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = {}

    @pulumi.runtime.test
    def program() -> Any:
        result = provider().construct("exp", TOKEN, inputs)
        return pulumi.Output.all(**result.state).apply(state.update)

    program()
    return state


KEY = "ssh-ed25519 AAAA test"


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (lambda i: i["cluster"].update(namePrefx="x"), "cluster.namePrefx: unknown key; did you mean namePrefix?"),
        (
            lambda i: i["cluster"]["network"].update(vpcCidrr="10.1.0.0/16"),
            "cluster.network.vpcCidrr: unknown key; did you mean vpcCidr?",
        ),
        (
            lambda i: i["cluster"]["network"].update(vpc_cidr="10.1.0.0/16"),
            "cluster.network.vpc_cidr: unknown key; did you mean vpcCidr?",
        ),
        (lambda i: i.update(ssh_public_key=KEY), "ssh_public_key: unknown key; did you mean sshPublicKey?"),
        (lambda i: i["cluster"]["nodes"].update(colour="red"), "cluster.nodes.colour: unknown key"),
    ],
)
def test_an_unknown_key_is_refused_with_the_stack_files_message(mocks: RecordingMocks, change: Any, line: str) -> None:
    inputs = package_inputs(standalone_config(), sshPublicKey=KEY)
    change(inputs)
    with pytest.raises(InputPropertiesError) as refused:
        construct(inputs)
    assert refused.value.message.split("\n") == ["GpuCluster exp: invalid inputs:", line]
    assert refused.value.errors == []  # no per-property details: the engine would print their values
    assert mocks.registered == []  # refused before the component registered anything


def test_every_unknown_key_is_named_at_once(mocks: RecordingMocks) -> None:
    inputs = package_inputs(standalone_config(), sshPublicKy=KEY)
    inputs["cluster"]["namePrefx"] = "x"
    inputs["cluster"]["network"]["nicsPerNod"] = 1
    with pytest.raises(InputPropertiesError) as refused:
        construct(inputs)
    assert sorted(refused.value.message.split("\n")[1:]) == [
        "cluster.namePrefx: unknown key; did you mean namePrefix?",
        "cluster.network.nicsPerNod: unknown key; did you mean nicsPerNode?",
        "sshPublicKy: unknown key; did you mean sshPublicKey?",
    ]


def _output(value: Any) -> pulumi.Output[Any]:
    """An input that depends on a resource, as ``ProviderServicer._select_value`` hands one over."""
    return pulumi.Output.from_input(value)


@pytest.mark.parametrize(
    ("place", "path"),
    [
        (lambda i: i.update(cluster=_output(i["cluster"])), "cluster"),
        (lambda i: i["cluster"]["nodes"].update(count=_output(2.0)), "cluster.nodes.count"),
        (lambda i: i["cluster"].update(tags=["a", _output("b")]), "cluster.tags"),
    ],
)
def test_a_cluster_that_depends_on_a_resource_is_refused_with_a_message(
    mocks: RecordingMocks, place: Any, path: str
) -> None:
    inputs = package_inputs(standalone_config(), sshPublicKey=KEY)
    place(inputs)
    with pytest.raises(InputPropertiesError) as refused:
        construct(inputs)
    assert refused.value.message.split("\n")[1:] == [f"{path}: {NOT_PLAIN}"]
    assert "Missing required input" not in refused.value.message


def test_secret_inputs_may_be_outputs_and_stay_secret_in_state(mocks: RecordingMocks) -> None:
    inputs = package_inputs(standalone_config(), sshPublicKey=_output(KEY))  # as a consumer's secret arrives
    construct(inputs)
    (key,) = [r for r in mocks.registered if r.typ == "ibm:index/isSshKey:IsSshKey"]
    assert mask_secrets(key.inputs)["publicKey"] == "[secret]"
    plain = construct(package_inputs(standalone_config(), sshPublicKey=KEY))  # a plain string: made secret too
    assert plain["nodes"] == ["t-node0", "t-node1"]
    keys = [r for r in mocks.registered if r.typ == "ibm:index/isSshKey:IsSshKey"]
    assert [mask_secrets(r.inputs)["publicKey"] for r in keys] == ["[secret]", "[secret]"]


ADOPT = "h100-2n-sriov-rdma"


@pytest.fixture(scope="module")
def adopt() -> StackFile:
    return load_stack(ADOPT)


def _consumer_run(stack: StackFile, consent: Any, outputs: dict[str, Any] | None, dry_run: bool) -> EngineResult:
    """A consumer's program: one GpuCluster of the stack's settings, its appliedRollout exported as the stack's."""
    cluster = json.loads(stack.engine_config["gpu-cluster:cluster"])
    cluster["nodes"]["allow_instance_stop"] = consent

    def program() -> dict[str, Any]:
        state = provider().construct("exp", TOKEN, package_inputs(cluster)).state
        return {key: state[key] for key in ("appliedRollout",) if key in state}

    return run_offline(
        program,
        project="consumer",
        stack="dev",
        config={},
        secret_keys=None,
        cluster=stack.simulated,
        dry_run=dry_run,
        stack_outputs=outputs,
    )


@pytest.mark.slow  # the whole adopting stack's program, under the offline engine
def test_the_roll_out_is_an_output_and_a_consumer_that_exports_it_stops_nothing_again(adopt: StackFile) -> None:
    rollout = adopt.plan.rollout
    first = _consumer_run(adopt, True, None, dry_run=False)
    (warning,) = first.diagnostics
    assert warning.startswith("warning: pulumi up STOPS 2 adopted worker(s)")
    assert first.outputs["appliedRollout"] == rollout
    # The consumer exported it as its stack's appliedRollout: the next run reads it back (a StackReference of
    # the consumer's own stack) and says that nothing stops.
    (again,) = _consumer_run(adopt, True, first.outputs, dry_run=True).diagnostics
    assert again.startswith(f"info: pulumi up stops no worker: {rollout}")


@pytest.mark.slow  # the whole adopting stack's program, under the offline engine
def test_a_later_roll_out_takes_its_id_as_consent(adopt: StackFile) -> None:
    """The union: a roll-out id reaches the component as a stack file's string consent does (same checks)."""
    rollout = adopt.plan.rollout
    with pytest.raises(ComponentInitError, match=f"rollout-0badc0de names another roll-out; this one is {rollout}"):
        _consumer_run(adopt, "rollout-0badc0de", None, dry_run=False)
    result = _consumer_run(adopt, rollout, None, dry_run=False)
    assert result.outputs["appliedRollout"] == rollout
    (selection,) = [r for r in result.resources if r.name.endswith("-selection")]
    assert selection.inputs["consent"] == rollout  # what the selection step compares with the next roll-out


@pytest.mark.slow  # the whole adopting stack's program, under the offline engine
def test_the_api_key_and_kubeconfig_are_secret_wherever_they_go(adopt: StackFile) -> None:
    """Given as plain strings (a consumer whose SDK predates ``secret: true``): no registration holds them."""
    cluster = json.loads(adopt.engine_config["gpu-cluster:cluster"])
    api_key, kubeconfig = "ibm-key-0123456789", "apiVersion: v1\nkind: Config\n"

    def program() -> dict[str, Any]:
        provider().construct("exp", TOKEN, package_inputs(cluster, ibmcloudApiKey=api_key, kubeconfig=kubeconfig))
        return {}

    result = run_offline(
        program, project="consumer", stack="dev", config={}, secret_keys=None, cluster=adopt.simulated, dry_run=True
    )
    assert not [
        r.name for r in result.resources if api_key in json.dumps(r.inputs) or "kind: Config" in json.dumps(r.inputs)
    ]
    providers = {r.type: r.inputs for r in result.resources if r.type.startswith("pulumi:providers:")}
    assert providers["pulumi:providers:ibm"]["ibmcloudApiKey"] == "[secret]"
    assert providers["pulumi:providers:kubernetes"]["kubeconfig"] == "[secret]"


def test_the_package_provider_is_the_sdks_where_inference_suffices() -> None:
    """PackageProvider repeats ComponentProvider.__init__ for its analyzer: a new SDK that sets more there, or
    infers otherwise, shows here first."""
    from pulumi.provider.experimental.component import ComponentProvider

    from components.package.package_provider import PackageProvider

    from .plain_component import Plain

    sdk = ComponentProvider([Plain], "pkg", version="1.0.0")
    ours = PackageProvider([Plain], "pkg", "1.0.0", set())
    assert set(vars(ours)) == set(vars(sdk))
    assert json.loads(ours.schema or "") == json.loads(sdk.schema or "")


SECRET_TEXT = "Zx9-secret-value-Qw7"
"""Planted in each wrong-form secret: no refusal may print it."""


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (lambda i: i["cluster"].update(nodes=[1, 2]), "cluster.nodes: expected a mapping, got a list"),
        (lambda i: i["cluster"].update(nodes="two"), "cluster.nodes: expected a mapping, got text"),
        (lambda i: i["cluster"].update(nodes=2.0), "cluster.nodes: expected a mapping, got a number"),
        (lambda i: i["cluster"].update(network=[]), "cluster.network: expected a mapping, got a list"),
        (lambda i: i.update(cluster="dev"), "cluster: expected a mapping, got text"),
        (lambda i: i.update(cluster=[1]), "cluster: expected a mapping, got a list"),
        (lambda i: i["cluster"]["nodes"].update(count="2"), "cluster.nodes.count: expected a whole number, got text"),
        (
            lambda i: i["cluster"]["nodes"].update(count=2.5),
            "cluster.nodes.count: expected a whole number, got a number",
        ),
        (
            lambda i: i["cluster"]["nodes"].update(count=True),
            "cluster.nodes.count: expected a whole number, got true/false",
        ),
        (
            lambda i: i["cluster"]["nodes"].update(count=float("inf")),
            "cluster.nodes.count: expected a whole number, got a number that is not finite",
        ),
        (
            lambda i: i["cluster"]["nodes"].update(count=float("nan")),
            "cluster.nodes.count: expected a whole number, got a number that is not finite",
        ),
        (lambda i: i["cluster"].update(tags={"a": "b"}), "cluster.tags: expected a list, got a mapping"),
        (lambda i: i["cluster"].update(tags=["a", 1.0]), "cluster.tags: item 1: expected text, got a number"),
        (
            lambda i: i["cluster"]["nodes"].update(hosts={"w0": "7"}),
            "cluster.nodes.hosts: w0: expected a whole number, got text",
        ),
        (lambda i: i.update(sshPublicKey={"key": SECRET_TEXT}), "sshPublicKey: expected text, got a mapping"),
        (lambda i: i.update(sshPublicKey=[SECRET_TEXT]), "sshPublicKey: expected text, got a list"),
        (lambda i: i.update(sshPublicKey=12345.0), "sshPublicKey: expected text, got a number"),
        (lambda i: i.update(ibmcloudApiKey={"apikey": SECRET_TEXT}), "ibmcloudApiKey: expected text, got a mapping"),
        (lambda i: i.update(kubeconfig=[SECRET_TEXT]), "kubeconfig: expected text, got a list"),
        (lambda i: i.update(sshPublicKeys=SECRET_TEXT), "sshPublicKeys: unknown key; did you mean sshPublicKey?"),
    ],
)
def test_an_input_of_the_wrong_form_is_refused_in_one_line_without_its_value(
    mocks: RecordingMocks, change: Any, line: str
) -> None:
    """Before: a list or text where a mapping is due read as an empty mapping ("Missing required input
    'cluster.nodes.profile'"), an infinite count was an OverflowError, a mapping as sshPublicKey failed inside an
    apply, and a mapping as ibmcloudApiKey reached the IBM provider, whose type check printed the secret."""
    inputs = package_inputs(standalone_config(), sshPublicKey=KEY)
    change(inputs)
    with pytest.raises(InputPropertiesError) as refused:
        construct(inputs)
    assert refused.value.message.split("\n") == ["GpuCluster exp: invalid inputs:", line]
    assert SECRET_TEXT not in refused.value.message
    assert mocks.registered == []


@pytest.mark.parametrize("consent", ["rollout-XYZ", "rollout-1234567", "rollout-DEADBEEF", 7.0, "true"])
def test_a_consent_of_the_wrong_form_names_the_expected_form(mocks: RecordingMocks, consent: Any) -> None:
    inputs = package_inputs(standalone_config(), sshPublicKey=KEY)
    inputs["cluster"]["nodes"]["allowInstanceStop"] = consent
    with pytest.raises(ComponentInitError) as refused:
        construct(inputs)
    message = str(refused.value)
    assert message.split("\n")[0] == "GpuCluster exp: invalid inputs:"
    (line,) = message.split("\n")[1:]
    assert line.endswith(
        "is not a consent: set true (the stack's first roll-out) or the roll-out's id exactly as "
        "the preview prints it, rollout- and 8 lowercase hex digits (e.g. rollout-0a1b2c3d)"
    )


@pytest.mark.parametrize(
    ("secret", "value", "line"),
    [
        ("ibmcloudApiKey", {"apikey": SECRET_TEXT}, "ibmcloudApiKey: expected text, got a mapping"),
        ("sshPublicKey", {"key": SECRET_TEXT}, "sshPublicKey: expected text, got a mapping"),
        ("kubeconfig", [SECRET_TEXT], "kubeconfig: expected text, got a list"),
    ],
)
def test_a_secret_of_the_wrong_form_known_only_later_is_refused_without_its_value(
    mocks: RecordingMocks, secret: str, value: Any, line: str
) -> None:
    """A consumer's secret arrives as an Output: its form is checked when it resolves.  Before: a mapping as the
    API key reached the IBM provider, whose type check printed it ('... property `ibmcloud_api_key`: {...}')."""
    inputs = package_inputs(standalone_config(), sshPublicKey=KEY)
    inputs[secret] = pulumi.Output.secret(value)
    with pytest.raises(Exception) as refused:  # noqa: PT011 - the SDK re-raises the apply's error as it is
        construct(inputs)
    assert str(refused.value) == line
    assert SECRET_TEXT not in str(refused.value)
