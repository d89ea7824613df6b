"""Record the command-line options of InstructLab's ``main_ds`` from its published wheel.

    python3 -m pip download --no-deps instructlab-training==0.16.2 -d /tmp/w
    python3 tools/record_main_ds_options.py /tmp/w/instructlab_training-0.16.2-py3-none-any.whl \
        > tests/fixtures/instructlab/main_ds-0.16.2-options.json

``main_ds`` builds its parser under ``if __name__ == "__main__"``, so it cannot be imported; the
``parser.add_argument`` calls are read from the module's syntax tree instead (nothing is run). The
record keeps, per option, its name as a ``config.json`` key (the option string without ``--``), its
kind (``flag`` for ``store_true``, else the ``type``), its default and its choices, with the wheel's
SHA-256 as provenance. ``components/models/main_ds_options.py`` is the same table in code; a test
checks that the two agree.
"""

from __future__ import annotations

import ast
import hashlib
import json
import sys
import zipfile
from pathlib import Path
from typing import Any

MODULE = "instructlab/training/main_ds.py"


def _literal(node: ast.AST | None) -> Any:
    if node is None:
        return None
    try:
        return ast.literal_eval(node)
    except ValueError:
        return ast.unparse(node)  # e.g. DistributedBackend.DEEPSPEED.value


def options(source: str) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for node in ast.walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "add_argument"
            and node.args
        ):
            continue
        flag = _literal(node.args[0])
        if not (isinstance(flag, str) and flag.startswith("--")):
            continue
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        action = _literal(keywords.get("action"))
        kind = "flag" if action == "store_true" else (ast.unparse(keywords["type"]) if "type" in keywords else "str")
        entry: dict[str, Any] = {"kind": kind, "default": False if kind == "flag" else None}
        if "default" in keywords:
            entry["default"] = _literal(keywords["default"])
        if "choices" in keywords:
            entry["choices"] = _literal(keywords["choices"])
        if "nargs" in keywords:
            entry["nargs"] = _literal(keywords["nargs"])
        found[flag[2:]] = entry
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    wheel = Path(argv[0])
    with zipfile.ZipFile(wheel) as archive:
        source = archive.read(MODULE).decode()
    version = wheel.name.split("-")[1]
    record = {
        "package": "instructlab-training",
        "version": version,
        "source": f"{MODULE} in {wheel.name} (PyPI), sha256 {hashlib.sha256(wheel.read_bytes()).hexdigest()}",
        "recorded_by": "tools/record_main_ds_options.py",
        "options": options(source),
    }
    print(json.dumps(record, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
