"""The report's lab part: each lab run beside the model's prediction for the lab, and the figure of
samples/s against link bandwidth with the model's curve.

Lab runs stand apart from the study's tables and charts: their nodes are namespaces of one host,
their model a cut of granite-3.1-8b, their links shaped.  Every name from the store is escaped
(``safe_text.markdown_cell``)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import replace

from experiments.base.safe_text import markdown_cell
from experiments.results.lab import lab_shape
from experiments.results.lab_points import LabPoint
from experiments.throughput.lab import LAB_TBF_EFFICIENCY, OFF_LAB, LabShape, lab_path, predict_lab
from experiments.throughput.parameters import ModelParams

__all__ = ["LAB_FIGURE", "lab_figure", "lab_section"]

LAB_FIGURE = "throughput-lab.png"
COLORS = ("tab:blue", "tab:red", "tab:green", "tab:purple", "tab:orange", "tab:brown")


def _fmt(value: float | None, spec: str = ".2f") -> str:
    return "—" if value is None else format(value, spec)


def lab_section(points: Sequence[LabPoint]) -> list[str]:
    """The Markdown of the lab runs (nothing when there are none)."""
    if not points:
        return []
    lines = [
        "## Lab runs: emulated nodes on one host",
        "",
        "Each run's nodes are network namespaces of one host, its links shaped with `tbf` and `netem`, its "
        "model a cut of granite-3.1-8b; they are never compared with the study. The model predicts each from "
        "the same inputs it takes for a cluster: GPUs per node, the link (at the "
        f"{LAB_TBF_EFFICIENCY:.0%} of a `tbf` rate TCP reaches), and the per-GPU compute of a one-node run "
        f"of the same cut on the same host. A point more than {OFF_LAB:.0%} off names the term that misses it.",
        "",
        "| run | stack | shape | link | measured | model | error % | note |",
        "|---:|---|---|---|---:|---:|---:|---|",
    ]
    for point in points:
        run = point.run
        note = point.term or point.note or ""
        error = point.error_pct
        lines.append(
            f"| {run.id} | {markdown_cell(run.stack)} | {markdown_cell(point.shape_label)} | "
            f"{markdown_cell(point.link_label)} | {_fmt(run.samples_per_s)} | {_fmt(point.predicted)} | "
            f"{_fmt(error, '+.1f')} | {markdown_cell(note)} |"
        )
    if any(p.sidecar is not None and p.sidecar.nodes > 1 for p in points):
        lines += ["", f"![lab runs against link bandwidth]({LAB_FIGURE})"]
    return [*lines, ""]


def _curve_key(point: LabPoint) -> tuple[object, ...]:
    """Points on one model curve: the same stack, emulated shape, latency and model cut."""
    s = point.sidecar
    assert s is not None
    return (s.stack, s.nodes, s.gpus_per_node, s.shared_gpu, s.link.latency_ms, *s.model_cut.model_dump().values())


def _ceiling_gbps(shape: LabShape, params: ModelParams | None) -> float:
    """The shaped rate past which the model's TCP ring ceiling, not the link, bounds a node."""
    return lab_path(replace(shape, link_gbps=None), params).line_gbps_per_nic / LAB_TBF_EFFICIENCY


def _x(point: LabPoint, params: ModelParams | None) -> float:
    """Where a point sits on the bandwidth axis: its shaped rate, or (unshaped) the model's ceiling."""
    assert point.sidecar is not None
    gbps = point.sidecar.link.gbps
    return gbps if gbps is not None else _ceiling_gbps(lab_shape(point.sidecar), params)


def lab_figure(points: Sequence[LabPoint], params: ModelParams | None = None) -> bytes | None:
    """Samples/s against the link's Gbit/s, one colour per emulated shape: the measured points and the
    model's curve (None when no multi-node lab run has a prediction)."""
    drawn = [p for p in points if p.lab is not None and p.sidecar is not None and p.sidecar.nodes > 1]
    if not drawn:
        return None
    from matplotlib.figure import Figure  # imported where a figure is drawn (0.35 s)

    fig = Figure(figsize=(7.5, 4.8), layout="constrained")
    ax = fig.add_subplot()
    groups: dict[tuple[object, ...], list[LabPoint]] = {}
    for point in drawn:
        groups.setdefault(_curve_key(point), []).append(point)
    xs = [_x(p, params) for p in drawn]
    low, high = min(0.5, min(xs) / 2), max(xs) * 2
    grid = [low * (high / low) ** (i / 80) for i in range(81)]
    for index, members in enumerate(groups.values()):
        color = COLORS[index % len(COLORS)]
        first = members[0]
        assert first.sidecar is not None and first.baseline_samples_per_s is not None
        shape = lab_shape(first.sidecar)
        base = replace(shape, nodes=1, shared_gpu=False, link_gbps=None)
        curve = [
            predict_lab(replace(shape, link_gbps=g), base, first.baseline_samples_per_s, params).samples_per_s
            for g in grid
        ]
        s = first.sidecar
        shared = ", GPUs shared" if s.shared_gpu else ""
        ax.plot(
            grid,
            curve,
            color=color,
            linewidth=2,
            label=f"model: {s.stack}, {s.nodes} x {s.gpus_per_node} GPU(s){shared}, {s.model_cut.layers} layers",
        )
        ax.axvline(_ceiling_gbps(shape, params), color=color, linestyle=":", linewidth=1)
        if not s.shared_gpu:  # what the nodes would do with a free network: each at the one-node rate
            ax.axhline(s.nodes * first.baseline_samples_per_s, color=color, linestyle="--", linewidth=1, alpha=0.6)
        for point in members:
            assert point.sidecar is not None
            unshaped = point.sidecar.link.gbps is None
            x, y = _x(point, params), point.run.samples_per_s
            ax.scatter([x], [y], color=color, marker="D" if unshaped else "o", edgecolor="black", s=70, zorder=3)
            tag = "unshaped" if unshaped else ("the model's link" if point.sidecar.link.source == "model" else "")
            if tag:
                ax.annotate(tag, (x, y), textcoords="offset points", xytext=(6, -10), fontsize=7)
    ax.plot([], [], color="gray", linestyle="--", linewidth=1, label="nodes x the one-node run")
    ax.plot([], [], color="gray", linestyle=":", linewidth=1, label="the model's TCP ring ceiling")
    ax.scatter([], [], color="white", edgecolor="black", marker="o", s=50, label="markers: lab measurement")
    ax.scatter([], [], color="white", edgecolor="black", marker="D", s=50, label="unshaped, at the model's ceiling")
    ax.set_xscale("log")
    ax.set_ylim(bottom=0)
    ax.set_xlabel("link bandwidth per node (Gbit/s, shaped)")
    ax.set_ylabel("training throughput (samples/s)")
    ax.set_title("Lab: emulated nodes on one host against the link\n(lab measurements vs the model)")
    ax.grid(True, alpha=0.3, which="both")
    ax.legend(fontsize=7, loc="best")
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=120)
    return png.getvalue()
