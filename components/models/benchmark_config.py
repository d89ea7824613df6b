"""Config of the NCCL bandwidth benchmark: ``gpu-cluster:cluster.job.benchmark``.

It runs with the training job's wiring and pod layout (``components/k8s/benchmark.py``), so its
rules need only its own fields; the transport it expects follows the variant (docs/training.md).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from components.models.model import ConfigModel
from components.models.quantity import parse_byte_size
from components.models.types import JobName

__all__ = ["BenchmarkConfig"]


def _byte_size(value: str) -> str:
    if parse_byte_size(value) <= 0:
        raise ValueError("must be at least one byte")
    return value


ByteSize = Annotated[str, AfterValidator(_byte_size)]


def _ops(ops: tuple[str, ...]) -> tuple[str, ...]:
    if len(set(ops)) != len(ops):
        raise ValueError("lists an operation twice")
    return ops


class BenchmarkConfig(ConfigModel):
    """The NCCL bandwidth sweep, run with the training job's wiring and pod layout."""

    enabled: bool = False
    """Render the benchmark job."""
    name: JobName | None = None
    """Job name; ``<job.name>-nccl-bench`` by default."""
    ops: Annotated[
        tuple[Literal["all_reduce", "all_gather", "reduce_scatter"], ...],
        Field(min_length=1, strict=False),
        AfterValidator(_ops),
    ] = ("all_reduce", "all_gather")
    min_bytes: ByteSize = "8"
    max_bytes: ByteSize = "1G"
    iters: int = Field(default=20, ge=1, le=100_000)
    warmup: int = Field(default=5, ge=0, le=100_000)
    time_budget_s: float = Field(default=0.0, ge=0, le=7 * 24 * 3600, allow_inf_nan=False)
    """Seconds of timed iterations per size (0: always ``iters``); keeps slow socket sweeps short."""
    expect_transport: Literal["auto", "ib", "socket", "p2p", "shm", "none"] = "auto"
    """The transport the NCCL log must show; ``auto`` derives it from the variant (docs/training.md)."""
    results_file: str | None = None
    """JSON results (rank 0), relative to the storage volume; ``<name>.json`` by default."""

    @model_validator(mode="after")
    def _check_sizes(self) -> BenchmarkConfig:
        if parse_byte_size(self.max_bytes) < parse_byte_size(self.min_bytes):
            raise ValueError(f"max_bytes ({self.max_bytes}) is below min_bytes ({self.min_bytes})")
        return self
