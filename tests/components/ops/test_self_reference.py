"""The StackReference a stack makes of itself (``components.ops.applied``) names it on every backend (issue 36
item 5).  Each backend's parser is restated here from pulumi/pulumi's source (commit 1b59498), as the engine's
built-in provider runs it on the name the program gives (``readStackReference`` -> ``GetStackOutputs`` ->
the backend's ``ParseStackReference``):

- Pulumi Cloud: ``pkg/backend/httpstate/backend.go``, ``parseStackName`` and ``ParseStackReference``;
- the file backend, project layout: ``pkg/backend/diy/store.go``, ``projectReferenceStore.ParseReference``;
- the file backend, legacy layout: ``legacyReferenceStore.ParseReference``, which is ``tokens.ParseStackName``
  (``sdk/go/common/tokens/stack_name.go``: alphanumerics, ``-``, ``_`` and ``.`` only).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pulumi
import pytest

from components.ops.applied import DIY_ORGANIZATION, applied_rollout, this_stack

from ...conftest import RecordingMocks

PROJECT = "gpu-cluster"
STACK = "h100-2n-sriov-rdma"
_STACK_NAME = re.compile(r"[A-Za-z0-9_.-]{1,100}")


class Refused(Exception):
    """The backend's parser refused the name (the engine fails the StackReference read)."""


def _stack_name(name: str) -> str:
    if not _STACK_NAME.fullmatch(name):
        raise Refused(f"a stack name may only contain alphanumeric, hyphens, underscores, or periods: {name}")
    return name


def pulumi_cloud(reference: str, *, default_org: str, project: str) -> tuple[str, str, str]:
    """owner/project/stack; the owner left out is the default organization, the project the current one."""
    parts = reference.split("/")
    if len(parts) > 3:
        raise Refused(f"could not parse stack name '{reference}'")
    owner, name = (parts[0], parts[-1]) if len(parts) > 1 else (default_org, parts[0])
    return owner, parts[1] if len(parts) == 3 else project, _stack_name(name)


def file_backend(reference: str, *, project: str) -> tuple[str, str, str]:
    """The project layout: the organization must be ``organization``; the project left out is the current one."""
    parts = reference.split("/")
    organization = parts[0] if len(parts) > 1 else DIY_ORGANIZATION
    if organization != DIY_ORGANIZATION:
        raise Refused("organization name must be 'organization'")
    return organization, parts[1] if len(parts) == 3 else project, _stack_name(parts[-1])


def legacy_file_backend(reference: str) -> str:
    """Stacks have no project or organization: the name is the stack name, as it is."""
    return _stack_name(reference)


@pytest.fixture
def program_on() -> Iterator[object]:
    """Set up the program's runtime as a backend's engine does: its organization, project and stack."""

    def _on(organization: str) -> RecordingMocks:
        recording = RecordingMocks()
        pulumi.runtime.set_mocks(recording, project=PROJECT, stack=STACK, organization=organization, preview=True)
        return recording

    yield _on
    pulumi.runtime.settings.reset_options()


def test_on_pulumi_cloud_the_name_is_fully_qualified_and_names_the_stacks_own_organization(program_on) -> None:
    program_on("acme-research")
    name = this_stack()
    assert name == f"acme-research/{PROJECT}/{STACK}"
    # The user's default organization is another one: only the qualified name reaches this stack.
    assert pulumi_cloud(name, default_org="acme", project=PROJECT) == ("acme-research", PROJECT, STACK)
    assert pulumi_cloud(STACK, default_org="acme", project=PROJECT) == ("acme", PROJECT, STACK)
    assert pulumi_cloud(f"{PROJECT}/{STACK}", default_org="acme", project=PROJECT)[0] == PROJECT  # an owner


def test_on_the_file_backend_the_bare_name_is_this_projects_stack_in_both_layouts(program_on) -> None:
    program_on(DIY_ORGANIZATION)  # what the file backend says in either layout (pkg/backend/diy/state.go)
    name = this_stack()
    assert name == STACK
    assert file_backend(name, project=PROJECT) == (DIY_ORGANIZATION, PROJECT, STACK)
    assert legacy_file_backend(name) == STACK


def test_the_qualified_name_the_program_used_to_give_fails_in_the_legacy_layout() -> None:
    qualified = f"{DIY_ORGANIZATION}/{PROJECT}/{STACK}"
    assert file_backend(qualified, project="other") == (DIY_ORGANIZATION, PROJECT, STACK)
    with pytest.raises(Refused, match="may only contain alphanumeric"):
        legacy_file_backend(qualified)


@pytest.mark.parametrize(
    ("organization", "reads"), [("acme-research", f"acme-research/{PROJECT}/{STACK}"), (DIY_ORGANIZATION, STACK)]
)
def test_the_program_reads_the_reference_by_that_name(program_on, organization: str, reads: str) -> None:
    recording = program_on(organization)

    @pulumi.runtime.test
    def program() -> pulumi.Output[object]:
        return applied_rollout()

    program()
    (reference,) = [r for r in recording.registered if r.typ == "pulumi:pulumi:StackReference"]
    assert reference.resource_id == reads  # the read's ID: the name the engine's built-in provider parses
