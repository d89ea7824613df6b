"""An Automation API script: preview (or ``--up``) one experiment from a stack file, the program inline.

The project's program (``components.pulumi_program``) reads the stack's config; the script hands it the
stack file's settings as that config, and the secrets from the environment. Stacks live in a local file
backend (``--state-dir``), encrypted with ``PULUMI_CONFIG_PASSPHRASE``.

Every way it can fail ends in one line: exit 2 for what stops it before the preview or update (a bad stack
file, no Pulumi CLI, no passphrase, a CLI that cannot create or select the stack), exit 1 for a preview or
update that failed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from pulumi import automation as auto
from pulumi.automation.errors import CommandError

from components import pulumi_program
from experiments.base.errors import InputError
from experiments.base.safe_text import terminal_text
from experiments.stacks.automation import short_error
from experiments.stacks.preflight import CliUse, pulumi_command, require_secrets_provider
from experiments.stacks.stackfile import load_stack

# The CLI's messages name this script; it has no --secrets-provider of its own.
SCRIPT = CliUse("examples/automation.py", secrets_flag=False)


def inline() -> None:
    pulumi_program()


def stack_for(stack_file: str, state_dir: Path) -> auto.Stack:
    """The Automation API stack of ``stack_file`` (a name or a path), its config set from the file."""
    stack = load_stack(stack_file)  # validated and planned offline first: a bad file fails here, not mid-update
    command = pulumi_command(SCRIPT)  # the CLI, checked as the Automation API checks it
    require_secrets_provider(None, use=SCRIPT)  # `stack init` would prompt for the passphrase
    workspace = auto.LocalWorkspaceOptions(
        env_vars={"PULUMI_BACKEND_URL": state_dir.resolve().as_uri()},
        project_settings=auto.ProjectSettings(name="gpu-cluster", runtime="python"),
        pulumi_command=command,
    )
    try:
        created = auto.create_or_select_stack(
            stack_name=stack.name, project_name="gpu-cluster", program=inline, opts=workspace
        )
        cluster = json.loads(stack.engine_config["gpu-cluster:cluster"])
        config = {"gpu-cluster:cluster": auto.ConfigValue(value=json.dumps(cluster))}
        if key := os.environ.get("SSH_PUBLIC_KEY"):
            config["gpu-cluster:sshPublicKey"] = auto.ConfigValue(value=key, secret=True)
        created.set_all_config(config)
    except FileNotFoundError:  # the CLI left PATH after the check
        raise InputError(SCRIPT.missing()) from None
    except CommandError as error:  # the backend, the passphrase, ...: the CLI's own line says which
        raise InputError(
            terminal_text(f"{stack.name}: the Pulumi CLI could not open the stack: {short_error(error)}")
        ) from None
    return created


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stack", help="stack name or stack file")
    parser.add_argument("--state-dir", type=Path, default=Path(".pulumi-state"))
    parser.add_argument("--up", action="store_true", help="deploy instead of preview")
    args = parser.parse_args(argv)
    try:
        stack = stack_for(args.stack, args.state_dir)
    except InputError as error:  # the project's one-line messages
        print(f"error: {error}", file=sys.stderr)
        return 2
    operation = "up" if args.up else "preview"
    try:
        print(stack.up(on_output=print).summary if args.up else stack.preview(on_output=print).change_summary)
    # RuntimeError: the Automation API's own, for an operation that ended without a summary event
    except (CommandError, RuntimeError) as error:
        print(terminal_text(f"error: {stack.name}: {operation} failed: {short_error(error)}"), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
