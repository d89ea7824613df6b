"""A component the SDK's schema inference handles alone (no union, no secret): the package provider must infer
exactly what the SDK's does for it."""

# No `from __future__ import annotations`: the SDK's analyzer reads the annotations as objects.

from typing import NotRequired, TypedDict

import pulumi


class PlainArgs(TypedDict):
    count: int
    """How many."""
    names: NotRequired[list[str]]
    """Their names."""


class Plain(pulumi.ComponentResource):
    """A plain component."""

    size: pulumi.Output[int]
    """A size."""

    def __init__(self, name: str, args: PlainArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("pkg:index:Plain", name, {}, opts)
