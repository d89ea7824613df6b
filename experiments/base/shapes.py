"""Reading JSON and YAML that came from outside (a cluster, a kubeconfig, stack outputs): a field
of the wrong shape reads as empty, so no ``.get`` or loop on it can raise."""

from __future__ import annotations

from typing import Any

__all__ = ["as_dict", "as_list"]


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
