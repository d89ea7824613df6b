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
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Protocol, cast

from rich.console import Console

from components.models.config import CLUSTER_KEY, PROJECT
from experiments.base.errors import StackFileError
from experiments.base.safe_text import terminal_text
from experiments.base.shapes import as_dict, as_list

__all__ = ["add_parser", "cluster_config", "run", "secret_config_needed"]

_VERBS = {
    "up": "pulumi up of the stack (rolling where the stack stops workers)",
    "destroy": "pulumi destroy of the stack",
    "unlock": "remove the locks a killed update left on the stack (pulumi cancel)",
    "workers": "report the state the stack left each worker in, and what is locked or in flight",
}


def add_parser(commands: Any) -> None:
    from experiments.live.kube import add_cluster_arguments, positive_seconds
    from experiments.sweep.cells import DEFAULT_STATE_DIR

    stack = commands.add_parser("stack", help="up, destroy, unlock or report one stack (Automation API, file backend)")
    verbs = stack.add_subparsers(dest="stack_command", required=True)
    for verb, text in _VERBS.items():
        parser = verbs.add_parser(verb, help=text)
        parser.add_argument("stack", help="stack name or stack file")
        parser.add_argument("--state-dir", type=Path, default=DEFAULT_STATE_DIR,
                            help="the file backend (default: .pulumi-state/ in the project)")
        if verb in ("up", "destroy", "unlock"):
            parser.add_argument("--secrets-provider", help="secrets provider (default: passphrase)")
        if verb == "workers":
            add_cluster_arguments(parser)
            parser.add_argument("--no-nodes", action="store_true", help="do not ask a cluster for Node states")
            parser.add_argument("--timeout", type=positive_seconds, default=60.0,
                                help="seconds the Node check may take, every request included (default 60)")


class ManagedStack(Protocol):
    def set_all_config(self, config: Any) -> None: ...

    def up(self, *, on_event: Any) -> Any: ...

    def destroy(self, *, on_event: Any) -> Any: ...

    def cancel(self) -> None: ...


def secret_config_needed(stack: Any) -> str | None:
    """Why the stack cannot run on its cluster mapping alone (the program's own secret rules), or None."""
    cluster = stack.cluster
    if cluster.layers == "kubernetes" or cluster.nodes.source == "adopt":
        return None  # no instance is created: no SSH key, no join material
    if cluster.security.ssh_key_name is None:
        return f"new nodes need {PROJECT}:sshPublicKey; name an existing key in security.ssh_key_name"
    if cluster.nodes.source == "join" and (not cluster.kubernetes.openshift or cluster.nodes.join.ignition == "secret"):
        return "joining nodes need their join secrets (kubeadm token and CA hash, or the worker ignition) as config"
    return None


def cluster_config(stack: Any) -> dict[str, Any]:
    """The stack's cluster mapping as the Automation API sets it; refused when it needs secrets."""
    from experiments.stacks.stackfile import read_yaml_file

    document = read_yaml_file(stack.path) if stack.path.is_file() else {}
    config = (document or {}).get("config") or {}
    secure = sorted(str(k) for k, v in config.items() if isinstance(v, dict) and set(v) == {"secure"})
    if secure:
        raise StackFileError(f"{stack.path}: {', '.join(secure)}: encrypted under that file's own secrets provider, "
                             "which this stack does not share; use `pulumi up -s` in the project, or drop them "
                             "(the IBM API key can come from IC_API_KEY)")
    reason = secret_config_needed(stack)
    if reason:
        raise StackFileError(f"{stack.path}: {reason}")
    return dict(json.loads(stack.engine_config[f"{PROJECT}:{CLUSTER_KEY}"]))


def _select(stack: Any, args: argparse.Namespace, factory: Any, work_dir: Path) -> ManagedStack:
    from experiments.stacks.automation import backend_env, inline_program

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
    from pulumi.automation.errors import CommandError

    from experiments.stacks.automation import EventCounter, LocalStackFactory, stack_config

    cluster = cluster_config(stack)
    factory = factory or LocalStackFactory(secrets_provider=args.secrets_provider)
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
    from experiments.stacks.automation import LocalStackFactory
    from experiments.stacks.backend import lock_files

    locks = lock_files(args.state_dir, stack.name)  # the locks alone: a checkpoint can be large
    if not locks:
        console.print(f"{stack.name}: not locked", highlight=False)
        return 0
    for lock in locks:
        console.print(terminal_text(f"{stack.name}: removing the lock of {lock.holder}"), markup=False,
                      highlight=False)
    factory = factory or LocalStackFactory(secrets_provider=args.secrets_provider)
    factory.preflight()
    with tempfile.TemporaryDirectory(prefix="gpu-cluster-stack-") as work_dir:
        _select(stack, args, factory, Path(work_dir)).cancel()
    left = lock_files(args.state_dir, stack.name)
    if left:
        raise StackFileError(f"{stack.name}: {len(left)} lock file(s) still in {left[0].path.parent}")
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
    from kubernetes import client
    from kubernetes.client.exceptions import ApiException

    from experiments.live.kube import DeadlineReached, connect, deadline_alarm

    kube = None
    try:
        with deadline_alarm(args.timeout):
            kube = connect(args.kubeconfig, args.context or context, timeout=args.timeout)
            items = kube.items(client.CoreV1Api(kube.api).list_node, what="listing the nodes")
    except StackFileError as error:  # KubeError: one line, credentials redacted
        return [f"nodes: not checked ({error})"]
    except ApiException as error:
        return [f"nodes: not checked ({kube.api_error(error, 'listing the nodes') if kube else error.status})"]
    except DeadlineReached:
        return [f"nodes: not checked (--timeout {args.timeout:g} s reached)"]
    nodes = {str(as_dict(n.get("metadata")).get("name")): n for n in items}
    return [_node_line(name, nodes.get(name)) for name in names]


def _workers(stack: Any, args: argparse.Namespace, console: Console) -> int:
    from experiments.stacks.backend import read_stack_state, worker_report

    state = read_stack_state(args.state_dir, stack.name)
    lines = worker_report(state)
    names = [str(n) for n in state.outputs.get("nodes") or [] if isinstance(n, str)]
    if names and not args.no_nodes and (args.kubeconfig or os.environ.get("KUBECONFIG")):
        lines += _node_lines(names, args, stack.cluster.kubernetes.context)
    for line in lines:  # names from the state and the cluster: escaped for the terminal
        console.print(terminal_text(f"{stack.name}: {line}"), markup=False, highlight=False)
    return 0


def run(args: argparse.Namespace, console: Console, factory: Any = None) -> int:
    from experiments.stacks.stackfile import load_stack

    stack = load_stack(args.stack)
    if args.stack_command == "workers":
        return _workers(stack, args, console)
    if args.stack_command == "unlock":
        return _unlock(stack, args, console, factory)
    return _operate(stack, args, console, factory)
