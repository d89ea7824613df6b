"""Config of the training workload (stub: extended by the training-job work)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["JobConfig"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class JobConfig(_Frozen):
    """The distributed training job of the experiment."""

    kind: Literal["pytorchjob", "leaderworkerset"] = "pytorchjob"
    name: str = "ilab"
