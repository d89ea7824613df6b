"""The calibration report: the study's measurements next to the throughput model's predictions.

``write_report(out_dir)`` writes ``report.md`` (one table per cluster type, the
calibration errors and the fitted parameters) and one figure per cluster type,
``throughput-l40s.png`` and ``throughput-h100.png``: throughput against node count
for each network variant, predicted lines under the measured points. Every name that comes from
the results store is escaped for Markdown and HTML (``safe_text.markdown_cell``); the files are
written through the output directory's index (``base.owned_files.write_owned_files``), so a file of the
user's is never overwritten.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from components.models.catalog import PROFILES
from components.models.config import NETWORK_VARIANTS
from experiments.base.owned_files import write_owned_files
from experiments.base.safe_text import markdown_cell
from experiments.results.lab_points import LabPoint
from experiments.results.lab_report import LAB_FIGURE, lab_figure, lab_section
from experiments.results.runs import OFF_PREDICTION
from experiments.throughput import FITTED, NetworkVariant, Scenario, predict
from experiments.throughput.calibration import Calibration, StudyPoint, calibrate

__all__ = ["CLUSTERS", "REPORT_FILES", "ClusterView", "write_report"]


@dataclass(frozen=True)
class ClusterView:
    """How one of the study's clusters is tabulated and drawn."""

    key: str
    title: str
    profile: str
    max_nodes: int
    variants: tuple[NetworkVariant, ...]
    nics_rule: str
    """Human description of ``nics_for``."""

    def nics_for(self, variant: NetworkVariant, nodes: int) -> int:
        """The study's NIC counts: L40S vNIC runs used one vNIC per node in the job, H100 runs one NIC."""
        if variant == "pod":
            return 0
        return nodes if self.key == "l40s" else 1

    def scenario(self, variant: NetworkVariant, nodes: int) -> Scenario:
        return Scenario(self.profile, nodes, variant, self.nics_for(variant, nodes))


CLUSTERS: tuple[ClusterView, ...] = (
    ClusterView(
        "l40s",
        "2xL40S nodes (gx3-48x240x2l40s)",
        "gx3-48x240x2l40s",
        8,
        ("pod", "vnic"),
        "The vNIC line uses as many vNICs per node as there are nodes, as the study did",
    ),
    ClusterView(
        "h100",
        "8xH100 nodes (gx3d-160x1792x8h100)",
        "gx3d-160x1792x8h100",
        4,
        NETWORK_VARIANTS,
        "Every multi-node line uses one NIC per node, as the study did",
    ),
)

REPORT_FILES = ("report.md", *(f"throughput-{view.key}.png" for view in CLUSTERS), LAB_FIGURE)
MARKERS = ("o", "s", "D", "^")
VARIANT_STYLE: dict[str, tuple[str, str]] = {
    "pod": ("tab:red", "pod network (OVN)"),
    "vnic": ("tab:blue", "secondary vNICs"),
    "sriov": ("tab:green", "SR-IOV (TCP)"),
    "sriov-rdma": ("tab:purple", "SR-IOV + RDMA"),
}


def _measured(points: Sequence[StudyPoint], cluster: str, variant: str, nodes: int) -> float | None:
    for pt in points:
        if pt.cluster == cluster and pt.scenario.nodes == nodes and (nodes == 1 or pt.variant == variant):
            return pt.measured
    return None


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def _cluster_table(view: ClusterView, cal: Calibration) -> list[str]:
    points = [r.point for r in cal.rows]
    header = ["nodes"]
    for variant in view.variants:
        header += [f"{variant} measured", f"{variant} predicted"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---:|" * len(header)]
    for nodes in range(1, view.max_nodes + 1):
        cells = [str(nodes)]
        for variant in view.variants:
            measured = _measured(points, view.key, variant, nodes)
            predicted = predict(view.scenario(variant, nodes), cal.params).samples_per_s
            cells += [_fmt(measured), _fmt(predicted)]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _calibration_section(cal: Calibration) -> list[str]:
    lines = [
        "## Calibration",
        "",
        f"Least squares on log(samples/s) over the {len(cal.rows)} measured rows; "
        "the leave-one-out column refits on the other rows and predicts the one left out.",
        "",
        f"- In-sample: MAPE {cal.mape_pct:.1f} %, max |error| {cal.max_abs_error_pct:.1f} %",
        f"- Leave-one-out: MAPE {cal.loo_mape_pct:.1f} %, max |error| {cal.loo_max_abs_error_pct:.1f} %",
        "",
        "| row | measured | predicted | error % | leave-one-out predicted | leave-one-out error % | bottleneck |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in cal.rows:
        bottleneck = predict(r.point.scenario, cal.params).bottleneck
        lines.append(
            f"| {r.point.label} | {r.measured:.2f} | {r.predicted:.2f} | {r.error_pct:+.1f} | "
            f"{r.loo_predicted:.2f} | {r.loo_error_pct:+.1f} | {bottleneck} |"
        )
    lines += ["", "### Parameters", "", "| parameter | value | fitted |", "|---|---:|---|"]
    for name, value in {**cal.params.fitted(), **cal.params.fixed()}.items():
        lines.append(f"| `{name}` | {value:.4g} | {'yes' if name in FITTED else 'no (fixed)'} |")
    return lines


def _runs_of(view: ClusterView, runs: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    family = PROFILES[view.profile].family
    return [
        r
        for r in runs
        if r.get("profile") in PROFILES
        and PROFILES[r["profile"]].family in ({"h100", "h200"} if family == "h100" else {family})
    ]


def _run_name(run: Mapping[str, Any]) -> str:
    label = run.get("label")
    return f"{run['stack']} ({label}, not a study figure)" if label else str(run["stack"])


def _runs_section(runs: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = ["## Your recorded runs", ""]
    if not runs:
        return [*lines, "None yet: `python -m experiments results add STACK --log FILE` records one.", ""]
    lines += [
        "Runs from the results store beside the model's prediction at the time and the study's figure "
        f"for the same shape; `!` marks a run more than {OFF_PREDICTION:.0%} off the prediction.",
        "",
        "| recorded | stack | commit | measured | model | study | vs model | transport |",
        "|---|---|---|---:|---:|---:|---:|---|",
    ]
    for r in runs:
        model, study, off = r["predicted_samples_per_s"], r["study_samples_per_s"], r["off_prediction_pct"]
        lines.append(
            f"| {markdown_cell(r['recorded_at'])} | {markdown_cell(_run_name(r))} | "
            f"{markdown_cell((r['git_commit'] or '-')[:12])} | {_fmt(r['samples_per_s'])} | "
            f"{_fmt(model)} | {_fmt(study)} | "
            f"{'—' if off is None else f'{off:+.0f} %'}{' !' if r['flagged'] else ''} | "
            f"{markdown_cell(r['transport'] or '—')} |"
        )
    return [*lines, ""]


def _plot(view: ClusterView, cal: Calibration, runs: Sequence[Mapping[str, Any]] = ()) -> bytes:
    points = [r.point for r in cal.rows]
    nodes = list(range(1, view.max_nodes + 1))
    # Imported here, where a figure is drawn: matplotlib costs 0.35 s to import, paid otherwise by every command
    # and test worker that imports the report without drawing.
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.5, 4.8), layout="constrained")
    ax = fig.add_subplot()
    # measured points of different variants can coincide (SR-IOV with and without RDMA): a small
    # sideways shift and a marker shape per variant keep every one visible
    shift = 0.06
    for i, variant in enumerate(view.variants):
        color, label = VARIANT_STYLE[variant]
        predicted = [predict(view.scenario(variant, n), cal.params).samples_per_s for n in nodes]
        ax.plot(nodes, predicted, color=color, linewidth=2, label=label)
        measured = [(n, m) for n in nodes[1:] if (m := _measured(points, view.key, variant, n)) is not None]
        offset = (i - (len(view.variants) - 1) / 2) * shift
        for n, m in measured:
            ax.scatter(
                [n + offset], [m], color=color, marker=MARKERS[i % len(MARKERS)], edgecolor="black", s=70, zorder=3
            )
            side = -1 if i % 2 == 0 else 1  # neighbouring variants label on opposite sides
            ax.annotate(
                f"{m:.2f}",
                (n + offset, m),
                textcoords="offset points",
                xytext=(8 * side, -3),
                ha="right" if side < 0 else "left",
                fontsize=7,
            )
    # A proof on fewer GPUs than its stack, or a run on more, is no point of the stack's shape: listed, never plotted.
    own = [
        r for r in _runs_of(view, runs) if r.get("nodes") and r.get("samples_per_s") is not None and not r.get("label")
    ]
    if own:
        ax.scatter(
            [r["nodes"] for r in own],
            [r["samples_per_s"] for r in own],
            marker="X",
            color="black",
            s=90,
            zorder=5,
            label="your recorded runs",
        )
    single = _measured(points, view.key, "pod", 1)
    if single is not None:
        ax.scatter(
            [1], [single], marker="*", color="gold", edgecolor="black", s=220, zorder=4, label="single node (measured)"
        )
    # one legend entry each for "line = model" and "marker = measured"
    ax.plot([], [], color="gray", linewidth=2, label="lines: model prediction")
    ax.scatter([], [], color="white", edgecolor="black", marker="o", s=50, label="markers: study measurement")
    ax.set_xticks(nodes)
    ax.set_xlim(0.7, view.max_nodes + 0.3)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("nodes")
    ax.set_ylabel("training throughput (samples/s)")
    ax.set_title(f"Throughput on {view.title} by network\n(study measurements vs calibrated model)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="best")  # recorded runs may sit anywhere, a fixed corner could hide them
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=120)
    return png.getvalue()


def write_report(
    out_dir: Path | str,
    calibration: Calibration | None = None,
    runs: Sequence[Mapping[str, Any]] = (),
    lab: Sequence[LabPoint] = (),
) -> list[Path]:
    """Write ``report.md`` and one PNG per cluster type into ``out_dir``; return their paths.
    ``runs`` are the recorded runs (``runs.recorded_runs``), shown in the table and charts; ``lab``
    the lab runs (``lab_points.lab_points``), shown apart, with their own figure when one has several nodes."""
    out = Path(out_dir)
    cal = calibration if calibration is not None else calibrate()
    charts: dict[str, bytes] = {}
    md = [
        "# Distributed-training throughput: study vs model",
        "",
        "Measured: the Red Hat study on IBM Cloud (granite-3.1-8b, InstructLab FSDP HYBRID_SHARD with CPU "
        "offload), `experiments/throughput/study-throughput.csv`. Predicted: `experiments.throughput` with the "
        "parameters "
        "fitted below. Throughput in samples/s; — = not measured.",
        "",
    ]
    for view in CLUSTERS:
        name = f"throughput-{view.key}.png"
        charts[name] = _plot(view, cal, runs)
        md += [f"## {view.title}", "", f"{view.nics_rule}.", ""]
        md += _cluster_table(view, cal)
        md += ["", f"![{view.title}]({name})", ""]
    md += _runs_section([r for r in runs if r.get("kind") != "lab"])
    md += lab_section(lab)
    figure = lab_figure(lab, cal.params)
    if figure is not None:
        charts[LAB_FIGURE] = figure
    md += _calibration_section(cal)
    return write_owned_files(out, {"report.md": ("\n".join(md) + "\n").encode(), **charts})
