"""Reading engine properties safely: the analyzer's read-only proxies (``Mapping``/``Sequence``,
not ``dict``/``list``) raise ``UnknownValueError`` on a value not known yet (a preview)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pulumi_policy.proxy import UnknownValueError

__all__ = ["UNKNOWN", "has_key", "known_items", "mapping", "peek", "sequence"]


def mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def sequence(value: Any) -> Sequence[Any]:
    return value if isinstance(value, Sequence) and not isinstance(value, str) else ()


def known_items(values: Sequence[Any]) -> Iterator[Any]:
    """The elements known so far (an ID list of resources still to be created is not)."""
    for index in range(len(values)):
        try:
            yield values[index]
        except UnknownValueError:
            continue


def has_key(props: Mapping[str, Any], key: str) -> bool:
    """Presence without reading the value (reading an unknown one raises at preview)."""
    return any(k == key for k in props)


UNKNOWN = object()


def peek(props: Mapping[str, Any], key: str) -> Any:
    """``props[key]``, None when absent, ``UNKNOWN`` when not known yet (a preview)."""
    try:
        return props.get(key)
    except UnknownValueError:
        return UNKNOWN
