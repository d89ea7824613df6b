"""Field-level validation errors as one line per problem, naming the field and the fix."""

from __future__ import annotations

import difflib
from typing import Any, get_args

from pydantic import BaseModel, ValidationError

from components.models.config import CLUSTER_KEY, PROJECT, ClusterConfig

__all__ = ["describe_validation_error", "unknown_key_message"]


def describe_validation_error(error: ValidationError, key: str = f"{PROJECT}:{CLUSTER_KEY}") -> list[str]:
    """One line per problem: ``gpu-cluster:cluster.network.nics_per_node: message``.

    A dotted key (``nodes.profile:`` where ``nodes: {profile: ...}`` is meant) is reported once, as
    such, instead of as an unknown key plus a missing one; an unknown key names the closest known one.
    """
    items = error.errors()
    unknown = {
        tuple(item["loc"]): _meant_key(tuple(item["loc"])) for item in items if item["type"] == "extra_forbidden"
    }
    meant = {(*loc[:-1], name) for loc, (name, _) in unknown.items() if name}
    lines = []
    for item in items:
        loc = tuple(item["loc"])
        if item["type"] == "missing" and loc in meant:
            continue  # reported with the dotted or misspelled key that meant to set it
        message = _readable_message(item)
        if loc in unknown:
            message = unknown[loc][1]
        lines.append(f"{key}{_path(loc)}: {message}")
    return lines


def _path(loc: tuple[str | int, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)


def _readable_message(item: Any) -> str:
    message = str(item["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):
        message = message.removeprefix(prefix)
    return message


def _meant_key(loc: tuple[str | int, ...]) -> tuple[str | None, str]:
    """The known key an unknown one probably meant, and the message that says so."""
    name = str(loc[-1])
    known = _field_names_at(loc[:-1])
    head, dot, rest = name.partition(".")
    if dot and head in known:
        return head, f"dotted keys must be nested: write '{head}:' with '{rest}: ...' indented under it"
    return unknown_key_message(name, known)


def unknown_key_message(name: str, known: list[str]) -> tuple[str | None, str]:
    """The known key closest to the unknown ``name`` (None if none is close) and the message that names it:
    a stack file's, and the component package's for its inputs (``components.package``)."""
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    if close:
        return close[0], f"unknown key; did you mean {close[0]}?"
    return None, "unknown key"


def _field_names_at(loc: tuple[str | int, ...]) -> list[str]:
    """Field names of the config model reached by ``loc`` from ``ClusterConfig`` (empty if none)."""
    model: type[BaseModel] | None = ClusterConfig
    for part in loc:
        if model is None:
            return []
        if isinstance(part, int):
            continue
        field = model.model_fields.get(part)
        model = _model_in(field.annotation) if field is not None else None
    return list(model.model_fields) if model is not None else []


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The config model inside an annotation (``X``, ``X | None``, ``list[X]``, ``Annotated[X, ...]``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None
