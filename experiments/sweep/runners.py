"""Running cells: offline through the mock engine, or through the Automation API (preview or up).

Before the Automation API deploys anything, the rules a real cluster sets: cells that ``--up``
leaves deployed side by side must not share workers, and IBM takes one SSH key per fingerprint.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pulumi.automation.errors import CommandError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from components.models.secret_rules import public_key_form_problem
from experiments.base.bounded import read_regular_file
from experiments.stacks.automation import (
    EventCounter,
    StackFactory,
    backend_env,
    inline_program,
    run_stack,
    short_error,
    stack_config,
)
from experiments.stacks.coexistence import conflicts
from experiments.stacks.stackfile import (
    StackFile,
)
from experiments.state.identity import preview_fingerprint, with_neutral_prefix
from experiments.state.preview import run_preview
from experiments.state.summary import NotModelled, summarize
from experiments.sweep.cells import CellPlan, CellResult, SweepSpecError


@dataclass(frozen=True)
class Rendering:
    resources: int
    fingerprint: str
    predicted_samples_per_s: float | None


def render_offline(stack: StackFile) -> Rendering:
    # Rendered once, under the neutral prefix: the fingerprint is the one results are filed under,
    # and the prefix renames resources without adding or removing any.
    preview = run_preview(with_neutral_prefix(stack))
    return Rendering(
        resources=len(preview.result.resources),
        fingerprint=preview_fingerprint(preview),
        predicted_samples_per_s=_predicted(stack),
    )


def _predicted(stack: StackFile) -> float | None:
    try:
        return summarize(stack.name, stack.cluster).prediction.samples_per_s
    except NotModelled:
        return None


def check_side_by_side(plans: Sequence[CellPlan]) -> None:
    """``--up`` leaves every cell deployed: cells must be able to live side by side on the cluster."""
    shared = conflicts([p.stack for p in plans if p.stack is not None])
    if shared:
        raise SweepSpecError(
            "--up: these cells cannot be deployed side by side on one cluster:\n  " + "\n  ".join(shared)
        )


MAX_PUBLIC_KEY_BYTES = 64 * 1024
"""An OpenSSH public key is one line of under 1 KiB (an RSA key of 16384 bits is about 2.8 KiB)."""


def read_ssh_key(path: Path | None) -> str:
    """The one-line OpenSSH public key of ``--ssh-public-key-file``, never a private key."""
    if path is None:
        raise SweepSpecError(
            "--ssh-public-key-file: required unless --offline or --ssh-key-name (the public key the nodes "
            "accept, e.g. ~/.ssh/id_ed25519.pub)"
        )
    where = f"--ssh-public-key-file {path}"
    raw = read_regular_file(path, MAX_PUBLIC_KEY_BYTES, where, SweepSpecError)
    try:
        key = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise SweepSpecError(f"{where}: not UTF-8 text, so not an OpenSSH public key") from None
    if problem := public_key_form_problem(key, f"--ssh-public-key-file: {path}"):
        raise SweepSpecError(problem)
    return key


def check_one_key_per_fingerprint(plans: Sequence[CellPlan], ssh_public_key: str | None) -> None:
    """``--up`` of cells that each create an SSH key from one public key: IBM refuses the second."""
    cloud_cells = [p for p in plans if p.stack is not None and p.stack.cluster.layers != "kubernetes"]
    if ssh_public_key is not None and len(cloud_cells) > 1:
        raise SweepSpecError(
            f"--ssh-public-key-file: {len(cloud_cells)} cells would each create an SSH key from the same public "
            "key, and IBM refuses a second key with one fingerprint: create it once (ibmcloud is key-create) "
            "and pass --ssh-key-name"
        )


@dataclass
class AutomationRunner:
    factory: StackFactory
    state_dir: Path
    work_dir: Path
    ssh_public_key: str | None
    """None when every cell uses an existing key (``security.ssh_key_name``)."""
    up: bool

    def __call__(self, plan: CellPlan, rendering: Rendering, progress: Progress) -> CellResult:
        assert plan.stack is not None
        task = progress.add_task(f"  {plan.cell.name}: steps", total=None)
        counter = EventCounter(on_update=lambda c: progress.update(task, total=max(c.started, 1), completed=c.done))
        try:
            stack = self.factory.create_or_select(
                plan.cell.name, inline_program, backend_env(self.state_dir), self.work_dir
            )
            outcome = run_stack(stack, stack_config(plan.cluster, self.ssh_public_key), up=self.up, on_event=counter)
        except (CommandError, RuntimeError) as error:
            return CellResult(
                cell=plan.cell,
                status="failed",
                reason=short_error(error),
                fingerprint=rendering.fingerprint,
                steps=_steps(counter),
                predicted_samples_per_s=rendering.predicted_samples_per_s,
            )
        finally:
            progress.remove_task(task)
        return CellResult(
            cell=plan.cell,
            status="ok",
            resources=counter.resource_count,
            changes=outcome.changes,
            fingerprint=rendering.fingerprint,
            steps=_steps(counter),
            predicted_samples_per_s=rendering.predicted_samples_per_s,
        )


def _steps(counter: EventCounter) -> dict[str, int]:
    return {"started": counter.started, "done": counter.done, "failed": counter.failed}


def offline_cell(plan: CellPlan, rendering: Rendering, progress: Progress) -> CellResult:
    """The mock engine's rendering as the cell's result: every resource planned as new, as a first
    preview of the stack would."""
    return CellResult(
        cell=plan.cell,
        status="ok",
        resources=rendering.resources,
        changes={"create": rendering.resources},
        fingerprint=rendering.fingerprint,
        predicted_samples_per_s=rendering.predicted_samples_per_s,
    )


CellRunner = Callable[[CellPlan, Rendering, Progress], CellResult]


def run_cells(plans: Sequence[CellPlan], runner: CellRunner, console: Console) -> list[CellResult]:
    results: list[CellResult] = []
    runnable = sum(1 for p in plans if p.stack is not None)
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        overall = progress.add_task("cells", total=runnable)
        for index, plan in enumerate(plans):
            if plan.stack is None:
                results.append(CellResult(cell=plan.cell, status="skipped", reason=plan.reason))
                continue
            progress.update(overall, description=f"cells ({plan.cell.name})")
            try:
                results.append(runner(plan, render_offline(plan.stack), progress))
            except KeyboardInterrupt:  # Ctrl-C: the cells done so far are kept, the rest said not run
                results += [
                    CellResult(cell=p.cell, status="interrupted" if p is plan else "not run", reason=INTERRUPTED)
                    for p in plans[index:]
                ]
                break
            progress.advance(overall)
    return results


INTERRUPTED = "interrupted (Ctrl-C) before this cell finished: run the same sweep again to go on"


# ---- output ------------------------------------------------------------------------------------------
