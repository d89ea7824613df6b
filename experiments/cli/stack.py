"""``python -m experiments stack up|destroy|unlock|workers STACK``: one stack through the Automation API.

The verbs an in-cluster step calls, usable by hand as well. Each takes a stack file (or name) and a
file backend (``--state-dir``); the stack is the sweep's kind (inline program, the cluster mapping as
config), so a cell created by ``sweep --up`` is the same stack as one created here.

* ``up``: the program's own ``up``, rolling and resumable as the components make it;
* ``destroy``: ``pulumi destroy`` of the stack;
* ``unlock``: removes the locks a killed CLI left (``pulumi cancel``, which on the file backend deletes
  the stack's lock files); safe only when no update of the stack still runs, which is why the
  in-cluster exit handler holds the cell's locks while it calls it;
* ``workers``: what state the stack left each worker in (the checkpoint's stop/start actions, the
  operations left in flight, the locks) and, when a cluster is reachable, each Node's readiness
  (``live.nodes``).

Config is the stack file's cluster mapping, in plain text: a file with ``secure:`` values (encrypted
under another stack's secrets provider) or a stack that needs secret config is refused, with the
way out; the IBM API key comes from ``IC_API_KEY``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Any, cast

from pulumi.automation.errors import CommandError
from rich.console import Console

from experiments.base.errors import InputError
from experiments.base.safe_text import terminal_text
from experiments.base.shapes import as_list
from experiments.live.nodes import node_lines

# A module reference: tests stand in for the factory there (no Pulumi CLI here).
from experiments.stacks import automation
from experiments.stacks.automation import (
    EventCounter,
    ManagedStack,
    backend_env,
    change_text,
    cluster_config,
    inline_program,
    short_error,
    stack_config,
)
from experiments.stacks.backend import lock_files, read_stack_state, worker_report
from experiments.stacks.stackfile import check_stack_name, load_stack
from experiments.sweep.cells import DEFAULT_STATE_DIR

__all__ = ["run"]


def _factory(args: argparse.Namespace, factory: Any) -> Any:
    use = automation.CliUse(f"`stack {args.stack_command}`")  # its messages name the verb, with no --offline
    return factory or automation.LocalStackFactory(secrets_provider=args.secrets_provider, use=use)


def _select(stack: Any, args: argparse.Namespace, factory: Any, work_dir: Path) -> ManagedStack:
    """The stack, created if new; a CLI that cannot (a backend or passphrase problem) is exit 2 with its line."""
    try:
        args.state_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"--state-dir {args.state_dir}: cannot create it ({error.strerror or error})") from None
    try:
        return cast(
            ManagedStack, factory.create_or_select(stack.name, inline_program, backend_env(args.state_dir), work_dir)
        )
    except CommandError as error:
        raise InputError(
            terminal_text(f"{stack.name}: `stack {args.stack_command}` could not open the stack: {short_error(error)}")
        ) from None


def _operate(stack: Any, args: argparse.Namespace, console: Console, factory: Any) -> int:
    cluster = cluster_config(stack)
    factory = _factory(args, factory)
    factory.preflight()
    counter = EventCounter()
    with tempfile.TemporaryDirectory(prefix="gpu-cluster-stack-") as work_dir:
        managed = _select(stack, args, factory, Path(work_dir))
        try:
            managed.set_all_config(stack_config(cluster, None))
            if args.stack_command == "up":
                result = managed.up(on_event=counter)
            else:
                result = managed.destroy(on_event=counter)
        # RuntimeError: the Automation API's own, for an update that ended without a summary (_stack.py)
        except (CommandError, RuntimeError) as error:
            console.print(terminal_text(f"{stack.name}: {args.stack_command} failed: {short_error(error)}"))
            console.print(f"  see the state: python -m experiments stack workers {args.stack}")
            return 1
    console.print(
        f"{stack.name}: {args.stack_command} done ({change_text(result.summary.resource_changes)}; "
        f"{counter.done} step(s))"
    )
    return 0


def _unlock(stack: Any, args: argparse.Namespace, console: Console, factory: Any) -> int:
    locks = lock_files(args.state_dir, stack.name)  # the locks alone: a checkpoint can be large
    if not locks:
        console.print(f"{stack.name}: not locked")
        return 0
    for lock in locks:
        console.print(terminal_text(f"{stack.name}: removing the lock of {lock.holder}"))
    factory = _factory(args, factory)
    factory.preflight()
    with tempfile.TemporaryDirectory(prefix="gpu-cluster-stack-") as work_dir:
        managed = _select(stack, args, factory, Path(work_dir))
        try:
            managed.cancel()
        except CommandError as error:
            console.print(terminal_text(f"{stack.name}: unlock failed: {short_error(error)}"))
            return 1
    left = lock_files(args.state_dir, stack.name)
    if left:
        raise InputError(f"{stack.name}: {len(left)} lock file(s) still in {left[0].path.parent}")
    console.print(f"{stack.name}: unlocked")
    return 0


def _workers(stack: Any, args: argparse.Namespace, console: Console) -> int:
    state = read_stack_state(args.state_dir, stack.name)
    lines = worker_report(state)
    names = [n for n in as_list(state.outputs.get("nodes")) if isinstance(n, str)]  # foreign: any shape
    if names and not args.no_nodes and (args.kubeconfig or os.environ.get("KUBECONFIG")):
        lines += node_lines(names, args.kubeconfig, args.context or stack.cluster.kubernetes.context, args.timeout)
    for line in lines:  # names from the state and the cluster: escaped for the terminal
        console.print(terminal_text(f"{stack.name}: {line}"))
    return 0


def run(args: argparse.Namespace, console: Console, factory: Any = None) -> int:
    if args.state_dir is None:
        args.state_dir = DEFAULT_STATE_DIR
    elif args.stack_command in ("workers", "unlock") and not args.state_dir.is_dir():
        # Only read: a mistyped backend would report a stack never deployed, or not locked.
        raise InputError(f"--state-dir {args.state_dir}: no such directory (the file backend of the stack's up)")
    stack = load_stack(args.stack)
    check_stack_name(stack.name, str(stack.path), pulumi=True)  # it names the backend's lock and checkpoint paths
    if args.stack_command == "workers":
        return _workers(stack, args, console)
    if args.stack_command == "unlock":
        return _unlock(stack, args, console, factory)
    return _operate(stack, args, console, factory)
