"""The base of every config model."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["ConfigModel"]


class ConfigModel(BaseModel):
    """Frozen and strict: unknown keys are errors, and values are not coerced across types
    (``count: true`` is not one node, ``count: "2"`` is not two)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)
