"""An Automation API script: preview (or ``--up``) one experiment from a stack file, the program inline.

The project's program (``components.pulumi_program``) reads the stack's config; the script hands it the
stack file's settings as that config, and the secrets from the environment. Stacks live in a local file
backend (``--state-dir``), encrypted with ``PULUMI_CONFIG_PASSPHRASE``.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from pulumi import automation as auto

from components import pulumi_program
from experiments.stacks.stackfile import load_stack


def inline() -> None:
    pulumi_program()


def stack_for(stack_file: str, state_dir: Path) -> auto.Stack:
    """The Automation API stack of ``stack_file`` (a name or a path), its config set from the file."""
    stack = load_stack(stack_file)  # validated and planned offline first: a bad file fails here, not mid-update
    workspace = auto.LocalWorkspaceOptions(
        env_vars={"PULUMI_BACKEND_URL": state_dir.resolve().as_uri()},
        project_settings=auto.ProjectSettings(name="gpu-cluster", runtime="python"),
    )
    created = auto.create_or_select_stack(
        stack_name=stack.name, project_name="gpu-cluster", program=inline, opts=workspace
    )
    cluster = json.loads(stack.engine_config["gpu-cluster:cluster"])
    config = {"gpu-cluster:cluster": auto.ConfigValue(value=json.dumps(cluster))}
    if key := os.environ.get("SSH_PUBLIC_KEY"):
        config["gpu-cluster:sshPublicKey"] = auto.ConfigValue(value=key, secret=True)
    created.set_all_config(config)
    return created


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stack", help="stack name or stack file")
    parser.add_argument("--state-dir", type=Path, default=Path(".pulumi-state"))
    parser.add_argument("--up", action="store_true", help="deploy instead of preview")
    args = parser.parse_args(argv)
    stack = stack_for(args.stack, args.state_dir)
    result = stack.up(on_output=print) if args.up else stack.preview(on_output=print)
    print(result.summary if args.up else result.change_summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
