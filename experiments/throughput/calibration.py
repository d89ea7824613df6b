"""Fitting the model to the study's 12 measurements, with leave-one-out errors; saving the fit."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import get_args

import numpy as np

from experiments.throughput.model import predict
from experiments.throughput.parameters import BOUNDS, DEFAULT_PARAMS_PATH, FITTED, ModelParams, forget_params
from experiments.throughput.scenario import DEFAULT_CSV, NetworkVariant, Scenario

__all__ = [
    "Calibration",
    "CalibrationRow",
    "StudyPoint",
    "calibrate",
    "calibration_table",
    "fit",
    "load_study",
    "recalibrate",
    "save_params",
]


# --- calibration --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StudyPoint:
    cluster: str
    scenario: Scenario
    measured: float
    """samples/s"""

    @property
    def variant(self) -> str:
        return self.scenario.network if self.scenario.multi_node else "none"

    @property
    def label(self) -> str:
        s = self.scenario
        nics = f" x{s.nics_per_node}" if s.multi_node and s.network != "pod" else ""
        return f"{self.cluster} {s.nodes}n {self.variant}{nics}"


def load_study(csv_path: Path | str = DEFAULT_CSV) -> list[StudyPoint]:
    """The study's measured points as scenarios (``network=none`` marks a single node)."""
    points: list[StudyPoint] = []
    with Path(csv_path).open(newline="") as handle:
        for row in csv.DictReader(handle):
            network = "pod" if row["network"] == "none" else row["network"]
            if network not in get_args(NetworkVariant):
                raise ValueError(f"{csv_path}: unknown network {row['network']!r}")
            scenario = Scenario(
                profile=row["profile"],
                nodes=int(row["nodes"]),
                network=network,  # type: ignore[arg-type]  # checked just above
                nics_per_node=int(row["nics_per_node"]),
                gpus_per_node=int(row["gpus_per_node"]),
            )
            points.append(StudyPoint(row["cluster"], scenario, float(row["samples_per_s"])))
    return points


@dataclass(frozen=True)
class CalibrationRow:
    point: StudyPoint
    predicted: float
    loo_predicted: float
    """Predicted by a fit on the other rows only."""

    @property
    def measured(self) -> float:
        return self.point.measured

    @property
    def error_pct(self) -> float:
        return 100.0 * (self.predicted - self.measured) / self.measured

    @property
    def loo_error_pct(self) -> float:
        return 100.0 * (self.loo_predicted - self.measured) / self.measured


@dataclass(frozen=True)
class Calibration:
    params: ModelParams
    rows: tuple[CalibrationRow, ...]

    @property
    def mape_pct(self) -> float:
        return float(np.mean([abs(r.error_pct) for r in self.rows]))

    @property
    def max_abs_error_pct(self) -> float:
        return max(abs(r.error_pct) for r in self.rows)

    @property
    def loo_mape_pct(self) -> float:
        return float(np.mean([abs(r.loo_error_pct) for r in self.rows]))

    @property
    def loo_max_abs_error_pct(self) -> float:
        return max(abs(r.loo_error_pct) for r in self.rows)


PRIOR_WEIGHT = 0.03
"""Weight of a weak pull of every fitted parameter towards its neutral default, in log space.

Twelve measurements do not pin every parameter in every direction: a leave-one-out fit without
the L40S pod rows, for one, has little left to set ``overlay_efficiency`` apart from
``tcp_flow_penalty``.  Plain least squares then stops wherever the optimizer's path, and with
it the CPU's floating point and BLAS, happens to leave it, so a leave-one-out refit differed
between machines.  The pull makes the objective strictly convex along such flat directions:
the optimum is unique, every start and every machine reaches it, and where the data do speak
it moves the fit by less than the optimizer's own noise on the in-sample error."""
PENALTY_OFFSET = 0.1
"""Penalties default to 0 (no slow-down); their log-space coordinate is ``log(x + 0.1)``."""
FIT_TOLERANCE = 1e-12
"""``least_squares``' x/f/g tolerances: the fitted parameters agree to about 1e-6 relative
across starts and machines, so comparisons use 1e-4 and printed figures are rounded coarser."""


def _offsets() -> np.ndarray:
    return np.array([PENALTY_OFFSET if name.endswith("_penalty") else 0.0 for name in FITTED])


def fit(points: Sequence[StudyPoint], fixed: ModelParams | None = None, start: float | None = None) -> ModelParams:
    """Regularised least squares on log(samples/s) over ``points``; parameters stay inside ``BOUNDS``.

    Coordinates are ``log(x + offset)`` (well conditioned: every parameter moves in relative
    terms), and ``PRIOR_WEIGHT`` makes the optimum unique.  The fitted parameters start from the
    neutral defaults (``start`` picks another point, as a fraction of the bounds, for tests that
    show the optimum does not depend on it), so a leave-one-out fit learns nothing from the row
    it leaves out.
    """
    base = fixed if fixed is not None else ModelParams()
    offset = _offsets()
    lower = np.log(np.array([BOUNDS[name][0] for name in FITTED]) + offset)
    upper = np.log(np.array([BOUNDS[name][1] for name in FITTED]) + offset)
    neutral = np.log(np.array([getattr(ModelParams(), name) for name in FITTED]) + offset)
    log_measured = np.log([pt.measured for pt in points])

    def with_values(z: np.ndarray) -> ModelParams:
        values = np.clip(np.exp(z) - offset, [BOUNDS[n][0] for n in FITTED], [BOUNDS[n][1] for n in FITTED])
        return replace(base, **{name: float(v) for name, v in zip(FITTED, values, strict=True)})

    def residuals(z: np.ndarray) -> np.ndarray:
        params = with_values(z)
        errors = np.log([predict(pt.scenario, params).samples_per_s for pt in points]) - log_measured
        return np.concatenate([errors, PRIOR_WEIGHT * (z - neutral)])

    # Imported here, where a fit needs it: scipy.optimize costs 0.4 s to import, paid otherwise by every
    # command and test worker that reads a calibration without fitting one.
    from scipy.optimize import least_squares

    z0 = np.clip(neutral, lower, upper) if start is None else lower + start * (upper - lower)
    result = least_squares(
        residuals,
        z0,
        bounds=(lower, upper),
        method="trf",
        xtol=FIT_TOLERANCE,
        ftol=FIT_TOLERANCE,
        gtol=FIT_TOLERANCE,
        max_nfev=5000,
    )
    return with_values(result.x)


def calibrate(csv_path: Path | str = DEFAULT_CSV, fixed: ModelParams | None = None) -> Calibration:
    """Fit on every measured point, then refit without each point in turn to predict it."""
    points = load_study(csv_path)
    params = fit(points, fixed)
    rows = []
    for i, point in enumerate(points):
        loo_params = fit([q for j, q in enumerate(points) if j != i], fixed)
        rows.append(
            CalibrationRow(
                point=point,
                predicted=predict(point.scenario, params).samples_per_s,
                loo_predicted=predict(point.scenario, loo_params).samples_per_s,
            )
        )
    return Calibration(params, tuple(rows))


def calibration_table(calibration: Calibration | None = None) -> list[dict[str, object]]:
    """Rows for ``python -m experiments calibrate``: measured, predicted and both errors."""
    cal = calibration if calibration is not None else calibrate()
    return [
        {
            "row": r.point.label,
            "measured": r.measured,
            "predicted": round(r.predicted, 2),
            "error_pct": round(r.error_pct, 1),
            "loo_error_pct": round(r.loo_error_pct, 1),
        }
        for r in cal.rows
    ]


# --- persistence --------------------------------------------------------------------------------------


def save_params(calibration: Calibration, path: Path | str = DEFAULT_PARAMS_PATH) -> Path:
    """Write the fitted parameters, the fixed constants and the calibration errors as JSON."""
    payload = {
        "source": "experiments/throughput/study-throughput.csv, fitted by experiments.throughput.calibration.calibrate",
        "fitted": calibration.params.fitted(),
        "fixed": calibration.params.fixed(),
        "in_sample": {"mape_pct": calibration.mape_pct, "max_abs_error_pct": calibration.max_abs_error_pct},
        "leave_one_out": {"mape_pct": calibration.loo_mape_pct, "max_abs_error_pct": calibration.loo_max_abs_error_pct},
    }
    out = Path(path)
    out.write_text(json.dumps(payload, indent=2) + "\n")
    forget_params(out)
    return out


def recalibrate(csv_path: Path | str = DEFAULT_CSV, params_path: Path | str = DEFAULT_PARAMS_PATH) -> Calibration:
    """Calibrate and save the parameters where ``predict`` loads them by default."""
    calibration = calibrate(csv_path)
    save_params(calibration, params_path)
    return calibration
