"""Every verb's arguments, in one parser; nothing here imports what the verbs run.

``build_parser()`` is the one parser of ``python -m experiments``: ``--help`` and a bad argument cost
no Pulumi import.  Each verb's parser names, as its ``verb`` default, the module that runs it (``Verb``),
imported only when it runs.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from importlib import import_module, metadata
from pathlib import Path
from typing import TYPE_CHECKING

from components.models.config import NETWORK_VARIANTS
from experiments.cli.arguments import (
    add_cluster_arguments,
    add_settings_arguments,
    output_path,
    positive_count,
    positive_rate,
    positive_seconds,
)
from experiments.incluster.settings import (
    DEFAULT_ACCOUNT,
    DEFAULT_NAMESPACE,
    DEFAULT_RUN_SECONDS,
    DEFAULT_STATE_CLAIM,
)
from experiments.sweep.cells import (
    AXES,
    DEFAULT_STATE_DIR,
    DEFAULT_ZONE,
    NICS_AS_NODES,
    PROFILE_ALIASES,
    TEARDOWNS,
)

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["DEFAULT_INIT_STACK", "STACK_VERBS", "Verb", "add_sweep_parser", "build_parser"]

DEFAULT_INIT_STACK = "dev"

STACK_VERBS = {
    "up": "pulumi up of the stack (rolling where the stack stops workers)",
    "destroy": "pulumi destroy of the stack",
    "unlock": "remove the locks a killed update left on the stack (pulumi cancel)",
    "workers": "report the state the stack left each worker in, and what is locked or in flight",
}


@dataclass(frozen=True)
class Verb:
    """What a verb's parser runs: ``experiments.cli.<module>.run``, imported when it runs."""

    module: str

    def __call__(self, args: argparse.Namespace, console: Console) -> int:
        return int(import_module(f"experiments.cli.{self.module}").run(args, console))


def _runs(parser: argparse.ArgumentParser, module: str) -> argparse.ArgumentParser:
    parser.set_defaults(verb=Verb(module))
    return parser


def _store(parser: argparse.ArgumentParser, *, suppress: bool = False) -> None:
    """``--store`` of the verbs that read or write the local results database."""
    parser.add_argument(
        "--store",
        type=Path,
        default=argparse.SUPPRESS if suppress else None,
        help="results database (default: .gpu-cluster/results.sqlite)",
    )


def _deadline(parser: argparse.ArgumentParser, seconds: int) -> None:
    """``--timeout`` of a verb that talks to the cluster until it is done."""
    parser.add_argument(
        "--timeout",
        type=positive_seconds,
        default=float(seconds),
        help=f"seconds the whole command may take, every request included (default {seconds})",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gpu-cluster", description="Command-line tools around the gpu-cluster program."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    _package(commands)
    preview = _runs(
        commands.add_parser("preview", help="run a stack's program offline and write its desired state"), "preview"
    )
    preview.add_argument("stack", help="stack name (reads Pulumi.<stack>.yaml) or path to a stack file")
    preview.add_argument("--out", type=output_path, help="output directory (default: out/<stack>)")
    preview.add_argument(
        "--training-options",
        action="store_true",
        help="also list every option the training script runs with (config.json, then defaults)",
    )
    preview.add_argument("--unknowns", action="store_true", help="computed values unknown, as pulumi preview has them")
    diff = _runs(
        commands.add_parser("diff", help="semantic diff of two stacks' desired state (exit 1 when they differ)"), "diff"
    )
    diff.add_argument("a", help="stack name or stack file")
    diff.add_argument("b", help="stack name or stack file")
    diff.add_argument("--json", action="store_true", help="print the diff as JSON")
    for rendering in (preview, diff):
        rendering.add_argument(
            "--state-dir",
            type=output_path,
            default=DEFAULT_STATE_DIR,
            help="keeps the renders in renders/ (default: .pulumi-state/ in the project)",
        )
        rendering.add_argument(
            "--no-cache", action="store_true", help="render anew: neither read nor keep a render in the state directory"
        )
    predict = _runs(
        commands.add_parser("predict", help="predicted throughput of a stack (calibrated on the study)"), "throughput"
    )
    predict.add_argument("stack", nargs="?", help="stack name or stack file")
    predict.add_argument("--json", action="store_true", help="print the prediction as JSON")
    predict.add_argument("--lab", type=Path, metavar="FILE", help="predict a lab run (its <run>.lab.json) instead")
    predict.add_argument("--one-node", type=positive_rate, metavar="RATE", help="--lab: the one-node samples/s")
    _store(predict)
    calibrate = _runs(
        commands.add_parser("calibrate", help="fit the throughput model to the study; in-sample and LOO error"),
        "throughput",
    )
    calibrate.add_argument("--save", action="store_true", help="write the fitted parameters where predict reads them")
    calibrate.add_argument("--json", action="store_true", help="print the table as JSON")
    report = _runs(commands.add_parser("report", help="Markdown table and PNG charts: measured vs predicted"), "report")
    report.add_argument("--out", type=output_path, help="output directory (default: out/report)")
    report.add_argument("--store", type=Path, help="results database whose runs the report shows")
    _runs(add_sweep_parser(commands), "sweep")
    _results(commands)
    _run(commands)
    _approve_csrs(commands)
    _stack(commands)
    _pko(commands)
    _transfer(commands)
    return parser


def _version() -> str:
    """The installed distribution's version (a checkout without an install says so)."""
    try:
        return metadata.version("gpu-cluster")
    except metadata.PackageNotFoundError:
        return "(not installed: run from a checkout)"


def _package(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The verbs around the package itself: ``init`` (a project of the user's own) and ``package-schema``
    (the component package's schema, for other Pulumi languages)."""
    init = _runs(
        commands.add_parser("init", help="write a Pulumi project of your own: Pulumi.yaml, __main__.py, a stack"),
        "init",
    )
    init.add_argument(
        "directory",
        type=Path,
        nargs="?",
        metavar="DIR",
        help="the project's directory (created if absent); a project of this tool there gets the stack added",
    )
    init.add_argument("--list", action="store_true", help="list the shipped stacks and where they are installed")
    init.add_argument(
        "--from",
        dest="from_stack",
        default=DEFAULT_INIT_STACK,
        metavar="STACK",
        help=f"the shipped stack to start from (default {DEFAULT_INIT_STACK})",
    )
    _runs(
        commands.add_parser(
            "package-schema", help="print the component package's schema (what `pulumi package get-schema` prints)"
        ),
        "package_schema",
    )


def _results(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    results = _runs(
        commands.add_parser("results", help="recorded runs beside the study and the model; 'add' records one"),
        "results",
    )
    _store(results)
    results.add_argument("--json", action="store_true", help="print the runs as JSON")
    verbs = results.add_subparsers(dest="results_command")
    add = _runs(verbs.add_parser("add", help="record a run from log files collected elsewhere"), "results_add")
    add.add_argument("stack", help="stack name or stack file the run deployed (a stack of this project)")
    add.add_argument(
        "--log", type=Path, action="append", required=True, metavar="FILE", help="a pod's log (repeat for every pod)"
    )
    add.add_argument(
        "--gpus",
        type=positive_count,
        metavar="N",
        help="the run used N GPUs, fewer than the stack's job (a proof of the job's path, e.g. on "
        "one GPU): recorded as an N-GPU proof, listed apart from the model and the study",
    )
    add.add_argument(
        "--lab", type=Path, metavar="FILE", help="its <run>.lab.json: a lab run (emulated nodes, one host)"
    )
    # Unset unless given here, so that `results --store X add ...` keeps X as well.
    _store(add, suppress=True)


def _run(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = _runs(
        commands.add_parser("run", help="start a deployed stack's training job, follow it, record its throughput"),
        "run",
    )
    run.add_argument("stack", help="stack name or stack file (deployed with pulumi up)")
    add_cluster_arguments(run)
    run.add_argument("--benchmark", action="store_true", help="run the stack's NCCL benchmark job instead")
    _deadline(run, 3600)
    run.add_argument("--poll", type=positive_seconds, default=10.0, help="seconds between status checks (default 10)")
    run.add_argument("--out", type=output_path, help="where pod logs go (default: out/runs/<stack>)")
    _store(run)


def _approve_csrs(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    approve = _runs(
        commands.add_parser(
            "approve-csrs", help="approve the pending certificate requests of a join stack's nodes, and only those"
        ),
        "csr",
    )
    approve.add_argument("stack", help="stack name or stack file (nodes.source: join, nodes.join.approve_csrs: true)")
    add_cluster_arguments(approve)
    approve.add_argument(
        "--stack-outputs",
        type=Path,
        metavar="FILE",
        help="`pulumi stack output --json` of the stack: IBM's instance creation times and NIC "
        "addresses (joinNodes), checked against the requests",
    )
    approve.add_argument("--watch", action="store_true", help="repeat until every stack node is Ready")
    _deadline(approve, 1800)
    approve.add_argument(
        "--poll", type=positive_seconds, default=10.0, help="--watch: seconds between rounds (default 10)"
    )
    approve.add_argument("--dry-run", action="store_true", help="show the verdicts, approve nothing")


def _stack(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    stack = _runs(
        commands.add_parser("stack", help="up, destroy, unlock or report one stack (Automation API, file backend)"),
        "stack",
    )
    verbs = stack.add_subparsers(dest="stack_command", required=True)
    for verb, text in STACK_VERBS.items():
        parser = verbs.add_parser(verb, help=text)
        parser.add_argument("stack", help="stack name or stack file")
        parser.add_argument(
            "--state-dir", type=output_path, help="the file backend (default: .pulumi-state/ in the project)"
        )
        if verb in ("up", "destroy", "unlock"):
            parser.add_argument("--secrets-provider", help="secrets provider (default: passphrase)")
        if verb == "workers":
            add_cluster_arguments(parser)
            parser.add_argument("--no-nodes", action="store_true", help="do not ask a cluster for Node states")
            parser.add_argument(
                "--timeout",
                type=positive_seconds,
                default=60.0,
                help="seconds the Node check may take, every request included (default 60)",
            )


def _pko(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    pko = _runs(
        commands.add_parser("pko", help="write a Pulumi Kubernetes Operator Stack that keeps a stack converged"),
        "incluster",
    )
    pko.add_argument("stack", help="stack name or stack file")
    pko.add_argument("--out", type=output_path, required=True, metavar="DIR", help="directory for the YAML files")
    pko.add_argument(
        "--on-delete",
        choices=("destroy", "keep"),
        required=True,
        help="deleting the Stack object destroys the cloud resources (destroy) or leaves them (keep)",
    )
    pko.add_argument("--name", help="the Stack object's name (default: the stack's; at most 42 characters)")
    pko.add_argument(
        "--after",
        action="append",
        default=[],
        metavar="STACK",
        help="a Stack (in the same namespace) that must have succeeded first; repeat for several",
    )
    pko.add_argument("--within", default="1h", help="how recent that success must be (default 1h)")
    pko.add_argument(
        "--config-secret",
        metavar="NAME",
        help="Secret holding the stack's secret config, one key per config key (default <name>-config)",
    )
    add_settings_arguments(pko, image_required=True)


def _transfer(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = _runs(
        commands.add_parser("export-results", help="print (or write) recorded runs as one checked JSON document"),
        "transfer",
    )
    _store(export)
    export.add_argument("--stack", help="only this stack's runs")
    export.add_argument("--last", type=int, metavar="N", help="only the N most recent runs")
    export.add_argument("--out", type=output_path, default=Path("-"), help="file to write (default: - for stdout)")
    pull = _runs(
        commands.add_parser("pull-results", help="import runs from an export or another store, idempotently"),
        "transfer",
    )
    pull.add_argument("source", nargs="?", help="export document, - for stdin, or a results database file")
    pull.add_argument("--store", type=Path, help="local results database (default: .gpu-cluster/results.sqlite)")
    remote = pull.add_argument_group("--from-cluster: read the in-cluster store through a short pod")
    remote.add_argument("--from-cluster", action="store_true", help="export on the cluster's state PVC, then import")
    remote.add_argument(
        "--namespace", default=DEFAULT_NAMESPACE, help=f"namespace of the state PVC (default {DEFAULT_NAMESPACE})"
    )
    remote.add_argument(
        "--state-claim", default=DEFAULT_STATE_CLAIM, help=f"the state PVC (default {DEFAULT_STATE_CLAIM})"
    )
    remote.add_argument("--image", help="the project image (the one the workflow ran)")
    remote.add_argument("--service-account", default=DEFAULT_ACCOUNT, help="the pod's ServiceAccount")
    add_cluster_arguments(remote)
    remote.add_argument(
        "--timeout",
        type=positive_seconds,
        default=300.0,
        help="seconds the command may take, every request included (default 300)",
    )


SWEEP_DESCRIPTION = """One stack per cell of profile x variant x nodes x NICs, from flags or a matrix file (same axes,
plus an optional zone and base: mapping). Cells a profile cannot run are skipped with the validation
message. Each valid cell is rendered offline first (its fingerprint), then previewed, brought up
(--up) or left at that (--offline); --engine argo writes a Workflow that runs the cells in the cluster."""


def add_sweep_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "sweep",
        help="one stack per cell of profile x variant x nodes x NICs: preview (or up) each",
        description=SWEEP_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--matrix",
        type=Path,
        metavar="FILE",
        help=f"YAML file with the axes ({', '.join(AXES)}), optional zone and base: mapping",
    )
    parser.add_argument(
        "--profile", nargs="+", metavar="P", help=f"instance profiles: {', '.join(PROFILE_ALIASES)} or full names"
    )
    parser.add_argument("--variant", nargs="+", metavar="V", help=f"network variants: {', '.join(NETWORK_VARIANTS)}")
    parser.add_argument("--nodes", nargs="+", metavar="N", help="node counts")
    parser.add_argument(
        "--nics",
        nargs="+",
        metavar="K",
        help=f"NICs per node the job uses, or '{NICS_AS_NODES}' for one per node (default 1; always 0 for pod)",
    )
    parser.add_argument("--zone", help=f"IBM Cloud zone (default: the matrix's or base's, else {DEFAULT_ZONE})")
    parser.add_argument(
        "--base",
        metavar="STACK",
        help="start every cell from this stack's cluster settings (name or Pulumi.<stack>.yaml)",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--offline", action="store_true", help="render every cell with the mock engine instead of Pulumi (needs no CLI)"
    )
    mode.add_argument(
        "--up",
        action="store_true",
        help="run `pulumi up` for every cell instead of preview: creates cloud resources, no prompt",
    )
    parser.add_argument(
        "--state-dir",
        type=output_path,
        default=DEFAULT_STATE_DIR,
        help="local file backend of the sweep stacks (default: .pulumi-state/ in the project)",
    )
    parser.add_argument(
        "--secrets-provider",
        help="secrets provider of new stacks (default: passphrase, "
        "from PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE)",
    )
    keys = parser.add_mutually_exclusive_group()
    keys.add_argument(
        "--ssh-public-key-file",
        type=Path,
        metavar="FILE",
        help="public key the nodes accept; each cell creates a key from it (preview, or --up of one cell)",
    )
    keys.add_argument(
        "--ssh-key-name",
        metavar="NAME",
        help="an SSH key that exists in the region: every cell uses it (IBM refuses a second key with the "
        "same fingerprint, so --up of several cells needs this)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of the table")
    parser.add_argument(
        "--out",
        type=output_path,
        metavar="FILE",
        help="also write the results as JSON to FILE (with --engine argo: the DIR of the YAML files)",
    )
    _add_engine_arguments(parser)
    return parser


def _add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    """The in-cluster options (the positional SPEC is the matrix file)."""
    parser.add_argument("spec", nargs="?", type=Path, metavar="SPEC", help="matrix file (the same as --matrix)")
    parser.add_argument(
        "--engine",
        choices=("local", "argo"),
        default="local",
        help="local: run the cells from here (default); argo: write an Argo Workflow that runs "
        "them in the cluster (--out DIR)",
    )
    argo = parser.add_argument_group("--engine argo")
    argo.add_argument(
        "--teardown",
        choices=TEARDOWNS,
        help="after a cell's run: destroy (default), keep-last (the last cell of each chain stays) "
        "or keep; a matrix file may say teardown: too",
    )
    argo.add_argument(
        "--run-timeout",
        type=int,
        default=DEFAULT_RUN_SECONDS,
        metavar="SECONDS",
        help=f"each cell's run --timeout (default {DEFAULT_RUN_SECONDS})",
    )
    argo.add_argument("--submit", action="store_true", help="also create the objects and the Workflow, and follow it")
    add_cluster_arguments(argo)  # with --submit
    argo.add_argument(
        "--poll", type=positive_seconds, default=15.0, help="with --submit: seconds between reads (default 15)"
    )
    argo.add_argument(
        "--timeout",
        type=positive_seconds,
        metavar="SECONDS",
        help="with --submit: seconds the command may take, every request included (default: the "
        "workflow's longest run by its step deadlines); the workflow keeps running after it",
    )
    add_settings_arguments(parser)
