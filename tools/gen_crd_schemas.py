"""Generate compact structural JSON Schemas from upstream CRDs.

Reads every ``CustomResourceDefinition`` in the CRD directory (default
``../shared/crds`` beside the project) and writes, for each *served* version, one JSON Schema
file ``schemas/crds/<group>_<plural>_<version>.json`` plus
``schemas/crds/index.json`` mapping ``"<apiVersion>/<kind>"`` to the file name.

What the generator does to each ``openAPIV3Schema``:

* strips every ``description`` keyword (only where it is a schema keyword: a
  *property* called ``description`` is kept), which is most of the bytes;
* keeps everything structural as upstream wrote it (type, properties, items,
  required, enum, format, pattern, bounds, additionalProperties, junctors,
  defaults and all ``x-kubernetes-*`` extensions);
* wraps the root so that ``apiVersion`` and ``kind`` are required and pinned
  to this CRD version, and ``metadata`` is a typed ObjectMeta (upstream CRDs
  say only ``metadata: {type: object}``, and the NAD CRD omits it entirely).

What it deliberately does NOT do: inject ``additionalProperties: false``,
map ``nullable`` or ``x-kubernetes-int-or-string``. Those are interpretation,
done when ``tests/manifests.py`` loads a schema, so the files stay a
faithful, diffable image of upstream.

Output is deterministic: sorted keys, compact separators, stale files removed.

Usage: ``python tools/gen_crd_schemas.py [--crds DIR] [--out DIR]``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import yaml

PROJECT_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CRD_DIR = PROJECT_ROOT.parent / "shared" / "crds"
"""The upstream CRDs of the shared references beside the project (``../shared/crds``)."""
DEFAULT_OUT_DIR = PROJECT_ROOT / "schemas" / "crds"
ENGINE_CRD_DIR = PROJECT_ROOT.parent / "shared" / "crds-engines"
"""The in-cluster engines' CRDs (Argo Workflows, the Pulumi Kubernetes Operator), kept apart upstream."""
ENGINE_OUT_DIR = PROJECT_ROOT / "schemas" / "engines"
ENGINE_CRDS = ("argoproj.io_workflows.yaml", "pulumi.com_stacks.yaml")
"""The engine kinds the project renders: an Argo Workflow and a PKO Stack (the rest is not copied)."""
INDEX_NAME = "index.json"

# Keywords whose value is a map of name -> subschema.
_SCHEMA_MAP_KEYWORDS = ("properties", "patternProperties", "definitions")
# Keywords whose value is a subschema (or, for items, possibly a list of them).
_SCHEMA_KEYWORDS = ("items", "additionalProperties", "not", "additionalItems")
# Keywords whose value is a list of subschemas.
_SCHEMA_LIST_KEYWORDS = ("allOf", "anyOf", "oneOf")

_DNS_LABEL = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
_QUALIFIED_NAME = (
    r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
    r"[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$"
)
_LABEL_VALUE = r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$"

# ObjectMeta as a client may send it. The apiserver validates metadata itself
# (the CRD schema cannot), so the wrapper types the fields a manifest uses and
# lists the server-populated ones so that round-tripped objects still pass.
OBJECT_META_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 253,
            "pattern": r"^[^/%]+$",
        },
        "generateName": {"type": "string", "maxLength": 253},
        "namespace": {"type": "string", "maxLength": 63, "pattern": _DNS_LABEL},
        "labels": {
            "type": "object",
            "propertyNames": {"maxLength": 317, "pattern": _QUALIFIED_NAME},
            "additionalProperties": {
                "type": "string",
                "maxLength": 63,
                "pattern": _LABEL_VALUE,
            },
        },
        "annotations": {
            "type": "object",
            "propertyNames": {"maxLength": 317, "pattern": _QUALIFIED_NAME},
            "additionalProperties": {"type": "string"},
        },
        "finalizers": {"type": "array", "items": {"type": "string"}},
        "ownerReferences": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "apiVersion": {"type": "string"},
                    "kind": {"type": "string"},
                    "name": {"type": "string"},
                    "uid": {"type": "string"},
                    "controller": {"type": "boolean"},
                    "blockOwnerDeletion": {"type": "boolean"},
                },
                "required": ["apiVersion", "kind", "name", "uid"],
            },
        },
        "uid": {"type": "string"},
        "resourceVersion": {"type": "string"},
        "generation": {"type": "integer"},
        "creationTimestamp": {"type": ["string", "null"]},
        "deletionTimestamp": {"type": ["string", "null"]},
        "deletionGracePeriodSeconds": {"type": "integer"},
        "selfLink": {"type": "string"},
        "managedFields": {
            "type": "array",
            "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
        },
    },
}


def strip_descriptions(node: Any) -> Any:
    """Return a copy of a schema node without ``description`` keywords.

    Walks the schema structurally so a property *named* ``description`` (a key
    of ``properties``) survives while the documentation keyword goes.
    """
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "description":
            continue
        if key in _SCHEMA_MAP_KEYWORDS and isinstance(value, dict):
            out[key] = {name: strip_descriptions(sub) for name, sub in value.items()}
        elif key in _SCHEMA_KEYWORDS:
            if isinstance(value, list):
                out[key] = [strip_descriptions(sub) for sub in value]
            else:
                out[key] = strip_descriptions(value)
        elif key in _SCHEMA_LIST_KEYWORDS and isinstance(value, list):
            out[key] = [strip_descriptions(sub) for sub in value]
        else:
            out[key] = value
    return out


def wrap_root(schema: dict[str, Any], api_version: str, kind: str) -> dict[str, Any]:
    """Pin apiVersion/kind, type metadata and require the type fields."""
    wrapped = dict(schema)
    wrapped["type"] = "object"
    properties = dict(wrapped.get("properties", {}))
    properties["apiVersion"] = {"type": "string", "enum": [api_version]}
    properties["kind"] = {"type": "string", "enum": [kind]}
    properties["metadata"] = OBJECT_META_SCHEMA
    wrapped["properties"] = properties
    wrapped["required"] = sorted(set(wrapped.get("required", [])) | {"apiVersion", "kind"})
    return wrapped


def schema_file_name(group: str, plural: str, version: str) -> str:
    return f"{group}_{plural}_{version}.json"


def dump_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


def load_crd(path: Path) -> dict[str, Any]:
    with path.open("rb") as handle:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        crd = yaml.load(handle, Loader=loader)  # noqa: S506 - a safe loader
    if crd.get("kind") != "CustomResourceDefinition":
        raise ValueError(f"{path}: not a CustomResourceDefinition")
    return dict(crd)


def generate(crd_dir: Path, out_dir: Path, only: tuple[str, ...] | None = None) -> dict[str, str]:
    """Write one schema per served CRD version (of the files named in ``only``, else all);
    return the index written."""
    outputs: dict[str, str] = {}  # file name -> JSON text
    index: dict[str, str] = {}
    for crd_path in sorted(crd_dir.glob("*.yaml")):
        if only is not None and crd_path.name not in only:
            continue
        raw = crd_path.read_bytes()
        crd = load_crd(crd_path)
        spec = crd["spec"]
        group, plural, kind = (
            spec["group"],
            spec["names"]["plural"],
            spec["names"]["kind"],
        )
        for version in spec["versions"]:
            if not version.get("served", False):
                continue
            api_version = f"{group}/{version['name']}"
            key = f"{api_version}/{kind}"
            if key in index:
                raise ValueError(f"{crd_path}: {key} already generated from another CRD file")
            schema = wrap_root(
                strip_descriptions(version["schema"]["openAPIV3Schema"]),
                api_version,
                kind,
            )
            schema["$schema"] = "http://json-schema.org/draft-07/schema#"
            schema["$comment"] = (
                f"Generated by tools/gen_crd_schemas.py from {crd_path.name} "
                f"(sha256 {hashlib.sha256(raw).hexdigest()[:16]}); "
                "descriptions stripped."
            )
            name = schema_file_name(group, plural, version["name"])
            outputs[name] = dump_json(schema)
            index[key] = name

    out_dir.mkdir(parents=True, exist_ok=True)
    outputs[INDEX_NAME] = json.dumps(index, sort_keys=True, indent=1) + "\n"
    for stale in sorted(out_dir.glob("*.json")):
        if stale.name not in outputs:
            stale.unlink()
    for name, text in sorted(outputs.items()):
        (out_dir / name).write_text(text, encoding="utf-8")
    return index


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crds", type=Path, default=DEFAULT_CRD_DIR, help="directory of CRD YAML")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT_DIR, help="output directory")
    parser.add_argument(
        "--engines",
        action="store_true",
        help=f"the engine CRDs instead ({', '.join(ENGINE_CRDS)}; default --crds {ENGINE_CRD_DIR}, "
        f"--out {ENGINE_OUT_DIR})",
    )
    args = parser.parse_args(argv)
    if args.engines:
        args.crds = ENGINE_CRD_DIR if args.crds == DEFAULT_CRD_DIR else args.crds
        args.out = ENGINE_OUT_DIR if args.out == DEFAULT_OUT_DIR else args.out
    if not args.crds.is_dir():
        print(
            f"error: --crds {args.crds}: no such directory (the upstream CRDs live in ../shared/crds beside "
            "the project; pass --crds DIR)",
            file=sys.stderr,
        )
        return 2
    index = generate(args.crds, args.out, ENGINE_CRDS if args.engines else None)
    total = sum(path.stat().st_size for path in args.out.glob("*.json"))
    print(f"wrote {len(index)} schemas to {args.out} ({total} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
