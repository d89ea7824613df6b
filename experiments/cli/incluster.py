"""``sweep SPEC --engine argo --out DIR [--submit]`` and ``pko STACK --out DIR``: arguments and files.

Everything is rendered and checked in memory first; only then is ``DIR`` written (``setup.yaml``:
the objects applied once; ``workflow.yaml`` or ``stack.yaml``). Bad input writes nothing.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import yaml
from rich.console import Console

from experiments.base.errors import InputError
from experiments.base.owned_files import (
    check_out_dir,
    check_owned_dir,
    check_owned_files,
    replace_owned_files,
)
from experiments.incluster.pko import check_duration, check_stack_name
from experiments.incluster.render import Rendered, stack_objects, sweep_objects
from experiments.incluster.settings import check_dns_label, settings_from_args
from experiments.incluster.submit import submit_and_follow, workflow_seconds
from experiments.live.kube import DeadlineReached, connect, deadline_alarm
from experiments.stacks.stackfile import check_stack_name as pulumi_stack_name
from experiments.stacks.stackfile import load_stack
from experiments.sweep.matrix import check_plans, plan_cells, spec_from_args

__all__ = ["refuse_engine_flags", "run", "run_argo"]


def refuse_engine_flags(args: argparse.Namespace) -> None:
    """The local engine ignores nothing silently: in-cluster options need ``--engine argo``."""
    for flag in ("submit", "teardown", "image"):
        if getattr(args, flag):
            raise InputError(f"--{flag}: only with --engine argo")


def _yaml(objects: list[dict[str, Any]]) -> str:
    return yaml.safe_dump_all(objects, sort_keys=False, default_flow_style=False)


def _write(out: Path, rendered: Rendered, main_file: str) -> list[Path]:
    return replace_owned_files(out, {"setup.yaml": _yaml(rendered.setup), main_file: _yaml([rendered.main])})


def _check_out(out: Path | None, main_file: str, flag: str = "--out") -> Path:
    """A directory this tool may write ``setup.yaml`` and ``main_file`` into: new, empty or its own
    (an index of ours), and neither file one the tool did not write, nor a link."""
    if out is None:
        raise InputError(f"{flag}: required with --engine argo (the directory for setup.yaml and {main_file})")
    check_out_dir(out, flag)  # an existing non-directory included
    check_owned_dir(out, flag)
    check_owned_files(out, ["setup.yaml", main_file], flag)
    return out


def run_argo(args: argparse.Namespace, console: Console) -> int:
    for flag, given in (
        ("--up", args.up),
        ("--offline", args.offline),
        ("--json", args.json),
        ("--ssh-public-key-file", args.ssh_public_key_file is not None),
    ):
        if given:
            raise InputError(
                f"{flag}: not with --engine argo (every cell runs up in the cluster; a cell carries "
                "no secret, so name an existing key with --ssh-key-name)"
            )
    if not 60 <= args.run_timeout <= 7 * 24 * 3600:
        raise InputError(f"--run-timeout {args.run_timeout}: between 60 s and a week")
    if args.timeout is not None and not args.submit:
        raise InputError("--timeout: only with --submit (it bounds following the workflow)")
    out = _check_out(args.out, "workflow.yaml")
    settings = settings_from_args(args)
    spec = spec_from_args(args)
    plans = plan_cells(spec)
    check_plans(spec, plans, "--engine argo")
    rendered = sweep_objects(plans, settings, teardown=args.teardown or spec.teardown, run_seconds=args.run_timeout)
    if not args.submit:
        return _write_argo(out, rendered, plans, settings, console)

    timeout = args.timeout or float(workflow_seconds(rendered.main))
    with deadline_alarm(timeout):
        # Reached before anything is written: an unreachable cluster leaves no files either.
        try:
            kube = connect(args.kubeconfig, args.context, timeout=timeout)
        except DeadlineReached:
            raise InputError(
                f"--timeout {timeout:g} s reached while connecting: nothing was written or submitted"
            ) from None
        _write_argo(out, rendered, plans, settings, console, submit=True)
        return submit_and_follow(rendered, kube, console=console, poll=args.poll)


def _write_argo(
    out: Path, rendered: Rendered, plans: Any, settings: Any, console: Console, submit: bool = False
) -> int:
    for plan in plans:
        if plan.stack is None:
            console.print(f"skipped {plan.cell.name}: {plan.reason}")
    for number, chain in enumerate(rendered.chains):
        console.print(f"chain-{number}: {' -> '.join(chain)}")
    for path in _write(out, rendered, "workflow.yaml"):
        console.print(f"wrote {path}")
    if not submit:
        console.print(
            f"next: kubectl apply -f {out / 'setup.yaml'} && argo submit --wait --log -n "
            f"{settings.namespace} {out / 'workflow.yaml'}"
        )
    return 0


def run(args: argparse.Namespace, console: Console) -> int:
    out = _check_out(args.out, "stack.yaml")
    settings = settings_from_args(args)
    stack = load_stack(args.stack)
    pulumi_stack_name(stack.name, str(stack.path), pulumi=True)  # spec.stack: what the CLI in the pod takes
    if refused := stack.up_refusals:  # the operator would retry a refused update forever
        raise InputError(f"{args.stack}: the Stack would fail at every update: {refused[0]}")
    name = check_stack_name(args.name or stack.name, "--name" if args.name else "stack name")
    after = [check_stack_name(other, "--after") for other in args.after]
    if name in after:
        raise InputError(f"--after {name}: a Stack cannot wait for itself")
    secret = check_dns_label(args.config_secret or f"{name}-config", "--config-secret")
    rendered = stack_objects(
        stack,
        settings,
        name=name,
        destroy_on_delete=args.on_delete == "destroy",
        after=after,
        within=check_duration(args.within, "--within"),
        config_secret=secret,
    )
    for path in _write(out, rendered, "stack.yaml"):
        console.print(f"wrote {path}")
    console.print(f"next: kubectl apply -f {out / 'setup.yaml'} -f {out / 'stack.yaml'}")
    return 0
