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
  operations left in flight, the locks) and, when a cluster is reachable, each Node's readiness.

Config is the stack file's cluster mapping, in plain text: a file with ``secure:`` values (encrypted
under another stack's secrets provider) or a stack that needs secret config is refused, with the
way out; the IBM API key comes from ``IC_API_KEY``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Any, Protocol, cast

from kubernetes import client
from kubernetes.client.exceptions import ApiException
from pulumi.automation.errors import CommandError
from rich.console import Console

from experiments.base.errors import InputError
from experiments.base.safe_text import terminal_text
from experiments.base.shapes import as_dict, as_list
from experiments.live.kube import DeadlineReached, connect, deadline_alarm

# A module reference: tests stand in for the factory there (no Pulumi CLI here).
from experiments.stacks import automation
from experiments.stacks.automation import (
    EventCounter,
    backend_env,
    cluster_config,
    inline_program,
    stack_config,
)
from experiments.stacks.backend import lock_files, read_stack_state, worker_report
from experiments.stacks.stackfile import load_stack

__all__ = ["run"]


class ManagedStack(Protocol):
    def set_all_config(self, config: Any) -> None: ...

    def up(self, *, on_event: Any) -> Any: ...

    def destroy(self, *, on_event: Any) -> Any: ...

    def cancel(self) -> None: ...


def _select(stack: Any, args: argparse.Namespace, factory: Any, work_dir: Path) -> ManagedStack:
    args.state_dir.mkdir(parents=True, exist_ok=True)
    return cast(ManagedStack, factory.create_or_select(stack.name, inline_program, backend_env(args.state_dir),
                                                       work_dir))


def _short(error: Exception) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    errors = [line.split("error:", 1)[1].strip() for line in lines if "error:" in line]
    return (errors or lines or [type(error).__name__])[-1]


def _change_text(changes: Any) -> str:
    counted = {str(getattr(op, "value", op)): int(n) for op, n in (changes or {}).items() if n}
    return ", ".join(f"{op} {n}" for op, n in sorted(counted.items())) or "no change"


def _operate(stack: Any, args: argparse.Namespace, console: Console, factory: Any) -> int:
    cluster = cluster_config(stack)
    factory = factory or automation.LocalStackFactory(secrets_provider=args.secrets_provider)
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
        except CommandError as error:
            console.print(terminal_text(f"{stack.name}: {args.stack_command} failed: {_short(error)}"), markup=False,
                          highlight=False)
            console.print(f"  see the state: python -m experiments stack workers {args.stack}", highlight=False)
            return 1
    console.print(f"{stack.name}: {args.stack_command} done ({_change_text(result.summary.resource_changes)}; "
                  f"{counter.done} step(s))", highlight=False)
    return 0


def _unlock(stack: Any, args: argparse.Namespace, console: Console, factory: Any) -> int:
    locks = lock_files(args.state_dir, stack.name)  # the locks alone: a checkpoint can be large
    if not locks:
        console.print(f"{stack.name}: not locked", highlight=False)
        return 0
    for lock in locks:
        console.print(terminal_text(f"{stack.name}: removing the lock of {lock.holder}"), markup=False,
                      highlight=False)
    factory = factory or automation.LocalStackFactory(secrets_provider=args.secrets_provider)
    factory.preflight()
    with tempfile.TemporaryDirectory(prefix="gpu-cluster-stack-") as work_dir:
        _select(stack, args, factory, Path(work_dir)).cancel()
    left = lock_files(args.state_dir, stack.name)
    if left:
        raise InputError(f"{stack.name}: {len(left)} lock file(s) still in {left[0].path.parent}")
    console.print(f"{stack.name}: unlocked", highlight=False)
    return 0


def _node_line(name: str, node: dict[str, Any] | None) -> str:
    if node is None:
        return f"node {name}: not in the cluster"
    conditions = [as_dict(c) for c in as_list(as_dict(node.get("status")).get("conditions"))]
    ready = next((c.get("status") for c in conditions if c.get("type") == "Ready"), "Unknown")
    cordoned = ", cordoned" if as_dict(node.get("spec")).get("unschedulable") is True else ""
    return f"node {name}: Ready={terminal_text(str(ready)[:20])}{cordoned}"


def _node_lines(names: list[str], args: argparse.Namespace, context: str | None) -> list[str]:
    """Each worker's Node as the cluster reports it; any failure is one line (the report stands)."""

    kube = None
    try:
        with deadline_alarm(args.timeout):
            kube = connect(args.kubeconfig, args.context or context, timeout=args.timeout)
            items = kube.items(client.CoreV1Api(kube.api).list_node, what="listing the nodes")
    except InputError as error:  # KubeError: one line, credentials redacted
        return [f"nodes: not checked ({error})"]
    except ApiException as error:
        return [f"nodes: not checked ({kube.api_error(error, 'listing the nodes') if kube else error.status})"]
    except DeadlineReached:
        return [f"nodes: not checked (--timeout {args.timeout:g} s reached)"]
    nodes = {str(as_dict(n.get("metadata")).get("name")): n for n in items}
    return [_node_line(name, nodes.get(name)) for name in names]


def _workers(stack: Any, args: argparse.Namespace, console: Console) -> int:
    state = read_stack_state(args.state_dir, stack.name)
    lines = worker_report(state)
    names = [str(n) for n in state.outputs.get("nodes") or [] if isinstance(n, str)]
    if names and not args.no_nodes and (args.kubeconfig or os.environ.get("KUBECONFIG")):
        lines += _node_lines(names, args, stack.cluster.kubernetes.context)
    for line in lines:  # names from the state and the cluster: escaped for the terminal
        console.print(terminal_text(f"{stack.name}: {line}"), markup=False, highlight=False)
    return 0


def run(args: argparse.Namespace, console: Console, factory: Any = None) -> int:
    stack = load_stack(args.stack)
    if args.stack_command == "workers":
        return _workers(stack, args, console)
    if args.stack_command == "unlock":
        return _unlock(stack, args, console, factory)
    return _operate(stack, args, console, factory)
