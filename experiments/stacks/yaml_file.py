"""A YAML file the user wrote (a stack file, a sweep matrix), read as hostile input: two equal keys are an
error (PyYAML would keep the last), an integer longer than any setting is refused before Python converts
it, and every failure is one ``StackFileError`` naming the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from experiments.base.bounded import read_regular_file
from experiments.base.errors import StackFileError
from experiments.base.paths import PROJECT_ROOT

__all__ = ["MAX_INT_DIGITS", "label", "read_yaml_file"]


class _StrictLoader(yaml.SafeLoader):
    """PyYAML keeps the last of two equal keys; a stack file with two ``zone:`` lines is an error."""


def _mapping_without_duplicates(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)  # type: ignore[no-untyped-call]
        if key in seen:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping_without_duplicates)

MAX_YAML_BYTES = 1 << 20
"""A stack file or a matrix is a few KiB; a file far larger is not one (and ``/dev/zero`` never ends)."""

MAX_INT_DIGITS = 30
"""No setting needs more; Python refuses to even convert more than 4300 digits."""


def _bounded_int(loader: _StrictLoader, node: yaml.ScalarNode) -> Any:
    digits = sum(c.isdigit() for c in str(node.value))
    if digits > MAX_INT_DIGITS:
        raise yaml.constructor.ConstructorError(
            None, None, f"an integer of {digits} digits is larger than any setting allows", node.start_mark
        )
    return loader.construct_yaml_int(node)


_StrictLoader.add_constructor("tag:yaml.org,2002:int", _bounded_int)


def label(path: Path) -> str:
    """How messages name a file: the bare name for the project's stack files, else the path given."""
    return path.name if path.parent in (PROJECT_ROOT, Path("."), Path.cwd()) else str(path)


def read_yaml_file(path: Path, what: str = "stack file") -> Any:
    """A YAML document, every failure turned into one ``StackFileError`` naming the file."""
    try:
        if path.is_dir():
            raise StackFileError(f"{label(path)}: is a directory, not a {what}")
        if not path.exists():
            dangling = " (a symbolic link to nothing, or a loop)" if path.is_symlink() else ""
            raise StackFileError(f"{label(path)}: no such {what}{dangling}")
    except OSError as error:  # a symbolic link loop, a name too long
        raise StackFileError(f"{label(path)}: cannot read ({error.strerror})") from None
    raw = read_regular_file(path, MAX_YAML_BYTES, label(path), StackFileError)
    try:
        return yaml.load(raw.decode("utf-8"), Loader=_StrictLoader)  # noqa: S506 - a SafeLoader
    except UnicodeDecodeError:
        raise StackFileError(f"{label(path)}: not UTF-8 text") from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise StackFileError(f"{label(path)}: YAML error{where}: {error.problem}") from None
    except (OSError, yaml.YAMLError) as error:
        raise StackFileError(f"{label(path)}: cannot read: {error}") from None
