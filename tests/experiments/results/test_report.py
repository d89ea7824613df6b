"""The calibration report: files written, every measured row shown next to its prediction."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from experiments.results.report import CLUSTERS, write_report
from experiments.throughput import DEFAULT_CSV, predict
from experiments.throughput.calibration import Calibration, calibrate, load_study

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Path], Calibration]:
    calibration = calibrate(DEFAULT_CSV)
    out = tmp_path_factory.mktemp("report")
    return write_report(out, calibration), calibration


def section(markdown: str, heading_start: str) -> str:
    """The text of the ``## `` section whose heading starts with ``heading_start``."""
    match = re.search(rf"^## {re.escape(heading_start)}.*?(?=^## |\Z)", markdown, flags=re.M | re.S)
    assert match, heading_start
    return match.group(0)


def test_report_and_one_figure_per_cluster_are_written(report: tuple[list[Path], Calibration]) -> None:
    paths, _ = report
    assert [p.name for p in paths] == ["report.md", "throughput-l40s.png", "throughput-h100.png"]
    for png in paths[1:]:
        data = png.read_bytes()
        assert data.startswith(PNG_SIGNATURE)
        assert len(data) > 20_000  # a drawn chart, not an empty canvas
        assert f"]({png.name})" in paths[0].read_text()


def test_every_measured_row_is_in_its_cluster_table_next_to_the_prediction(
    report: tuple[list[Path], Calibration],
) -> None:
    paths, calibration = report
    markdown = paths[0].read_text()
    for point in load_study(DEFAULT_CSV):
        view = next(v for v in CLUSTERS if v.key == point.cluster)
        table = section(markdown, view.title)
        row = next(line for line in table.splitlines() if line.startswith(f"| {point.scenario.nodes} |"))
        cells = [c.strip() for c in row.strip("|").split("|")]
        variant = point.scenario.network if point.scenario.multi_node else view.variants[0]
        column = 1 + 2 * view.variants.index(variant)
        assert cells[column] == f"{point.measured:.2f}", (point.label, row)
        predicted = predict(view.scenario(variant, point.scenario.nodes), calibration.params).samples_per_s
        assert cells[column + 1] == f"{predicted:.2f}", (point.label, row)


def test_calibration_section_lists_each_row_and_the_error_summary(report: tuple[list[Path], Calibration]) -> None:
    paths, calibration = report
    text = section(paths[0].read_text(), "Calibration")
    for row in calibration.rows:
        assert f"| {row.point.label} | {row.measured:.2f} | {row.predicted:.2f} |" in text
    assert f"MAPE {calibration.mape_pct:.1f} %" in text
    assert f"MAPE {calibration.loo_mape_pct:.1f} %" in text
    for name in calibration.params.fitted():
        assert f"| `{name}` |" in text


def test_tables_cover_the_plotted_node_ranges(report: tuple[list[Path], Calibration]) -> None:
    markdown = report[0][0].read_text()
    for view, expected in zip(CLUSTERS, (8, 4), strict=True):
        rows = [line for line in section(markdown, view.title).splitlines() if re.match(r"^\| \d+ \|", line)]
        assert [int(r.split("|")[1]) for r in rows] == list(range(1, expected + 1))
