"""The base of every component's Args model."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

__all__ = ["ComponentArgs", "OutputRef"]

OutputRef = Any
"""A plain value or a ``pulumi.Output``: pydantic cannot look inside Outputs, so fields fed
by other resources' outputs are typed with this alias and documented in words."""


class ComponentArgs(BaseModel):
    """Frozen, strict Args: a typo in a field name is an error at construction."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)
