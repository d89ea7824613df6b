"""Extract the pulumi_ibm API surface from the IBM provider research note into a test fixture.

Reads §2 (resources) and §3 (data sources) of ``ibm-provider.md`` (plus, for functions the note
does not list, ``tools/ibm_reference_supplement.md`` in the same format) and writes
``tests/fixtures/ibm_reference.json``: for every resource/function the stand-in SDK in
``sdks/ibm`` implements, its token, Python class names and the full input tree
(Python name -> camelCase wire name, nested children), plus computed-only outputs.

Nested type names are shared across resources in the generated SDK and the last module
processed (sorted by token module) wins (§1, "last-writer-wins"). The fixture therefore also
carries ``types``: the effective shape of every nested input type after applying that rule,
and ``collisions``: which resource's shape each contested type name ended up with.

It also writes ``experiments/offline/ibm_force_new.json``: per resource, the wire paths of its ForceNew
inputs, which the diff and the offline engine take as the provider's replace rules.

Usage: python tools/extract_ibm_reference.py [--reference PATH] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ibm_reference_tables import effective_types, force_new_table  # the folder beside this script

DEFAULT_REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "ibm-provider.md"
"""The shared IBM provider reference beside the project (``../shared/reference/ibm-provider.md``)."""
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "ibm_reference.json"
FORCE_NEW_OUT = Path(__file__).resolve().parents[1] / "experiments" / "offline" / "ibm_force_new.json"
"""The replace-on-change table the diff and the offline engine read, derived from the same schema."""
SUPPLEMENT = Path(__file__).resolve().parent / "ibm_reference_supplement.md"
"""Sections the shared note lacks, read from the provider's source (each says which file)."""

# Only what sdks/ibm implements; the note also covers IKS resources the project does not use.
RESOURCES = (
    "IsVpc",
    "IsVpcAddressPrefix",
    "IsSubnet",
    "IsPublicGateway",
    "IsSecurityGroup",
    "IsSecurityGroupRule",
    "IsSshKey",
    "IsInstance",
    "IsInstanceNetworkAttachment",
    "IsVirtualNetworkInterface",
    "IsClusterNetwork",
    "IsClusterNetworkSubnet",
    "IsClusterNetworkSubnetReservedIp",
    "IsClusterNetworkInterface",
    "IsInstanceClusterNetworkAttachment",
    "IsInstanceAction",
    "IsInstanceNetworkInterface",
    "IsSubnetReservedIp",
)
FUNCTIONS = (
    "get_resource_group",
    "get_is_image",
    "get_is_instance_profile",
    "get_is_cluster_network_profile",
    "get_is_instance",
    "get_is_instances",
    "get_is_vpc",
    "get_is_subnet",
    "get_is_security_group",
    "get_is_ssh_key",  # from SUPPLEMENT
)

HEADER_RE = re.compile(r"^### `(?P<tf>ibm_\w+)` → `ibm\.(?P<py>\w+)(?:\(\.\.\.\))?`")
TOKEN_RE = re.compile(r"^- Token `(?P<token>[^`]+)`")
ARGS_CLASS_RE = re.compile(r"args class `(?P<cls>\w+)`")
RESULT_CLASS_RE = re.compile(r"result `(?P<cls>\w+)`")
ID_RENAME_RE = re.compile(r"`id` input renamed to `(?P<name>\w+)`")
TIMEOUTS_RE = re.compile(r"timeouts: (?P<spec>.*)$")
# "- `name`†: `type` — flags — description", optionally "(TF `x`)" or "(Python `class_`, wire `class`)"
ENTRY_RE = re.compile(
    r"^(?P<indent>\s*)- `(?P<name>\w+)`"
    r"(?: \((?:TF `(?P<tf>\w+)`|Python `(?P<pyname>\w+)`, wire `(?P<wire>\w+)`)\))?"
    r"(?P<dagger>†)?: `(?P<type>[^`]+)` — (?P<rest>.*)$"
)
COMPUTED_RE = re.compile(r"^(?P<indent>\s*)- computed-only: (?P<items>.*)$")
COMPUTED_ITEM_RE = re.compile(r"`(?P<name>\w+)`(?P<dagger>†)?(?: \{(?P<children>[^}]*)\})?")
NESTED_TYPE_RE = re.compile(r"(?:Sequence\[)?(?P<cls>[A-Z]\w*Args)\]?$")


def camel_case(python_name: str) -> str:
    """Pulumi wire name: lowerCamelCase of the (already pluralised) Python name."""
    head, *rest = python_name.rstrip("_").split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


@dataclass
class Prop:
    name: str
    wire: str
    type: str
    required: bool
    tf_name: str
    computed: bool = False
    force_new: bool = False
    """TF ``ForceNew`` (the note's ``replace-on-change``): a change replaces the resource."""
    nested_type: str | None = None
    is_list: bool = False
    children: dict[str, Prop] = field(default_factory=dict)
    computed_only: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "wire": self.wire,
            "type": self.type,
            "required": self.required,
            "computed": self.computed,
            "tf_name": self.tf_name,
        }
        if self.force_new:
            out["force_new"] = True
        if self.nested_type:
            out["nested_type"] = self.nested_type
            out["is_list"] = self.is_list
            out["children"] = {k: v.to_json() for k, v in sorted(self.children.items())}
            out["computed_only"] = self.computed_only
        return out


def parse_computed(items: str) -> dict[str, dict[str, Any]]:
    result: dict[str, dict[str, Any]] = {}
    for match in COMPUTED_ITEM_RE.finditer(items):
        name = match["name"]
        entry: dict[str, Any] = {"wire": camel_case(name)}
        children = match["children"]
        if children is not None:
            fields = [c.strip() for c in children.split(",") if c.strip() and c.strip() != "…"]
            entry["children"] = {f: {"wire": camel_case(f)} for f in fields}
        result[name] = entry
    return result


def parse_tree(lines: list[str]) -> tuple[dict[str, Prop], dict[str, dict[str, Any]]]:
    """Parse an indented bullet list into (inputs, computed-only outputs) for one section."""
    root: dict[str, Prop] = {}
    root_computed: dict[str, dict[str, Any]] = {}
    stack: list[tuple[int, Prop]] = []  # (indent, prop) of open nested blocks
    for line in lines:
        computed = COMPUTED_RE.match(line)
        entry = ENTRY_RE.match(line)
        if not computed and not entry:
            continue
        indent = len((computed or entry)["indent"])  # type: ignore[index]
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1] if stack else None
        if computed:
            target = parent.computed_only if parent else root_computed
            target.update(parse_computed(computed["items"]))
            continue
        assert entry is not None
        name = entry["pyname"] or entry["name"]
        rest = entry["rest"]
        required = rest.startswith("**required")
        flags = rest.split(" — ")[0].split(", ")
        nested = NESTED_TYPE_RE.match(entry["type"])
        prop = Prop(
            name=name,
            wire=entry["wire"] or camel_case(name),
            type=entry["type"],
            required=required,
            tf_name=entry["tf"] or entry["name"],
            computed="computed" in flags,
            force_new="replace-on-change" in flags,
            nested_type=nested["cls"] if nested else None,
            is_list=entry["type"].startswith("Sequence[") and nested is not None,
        )
        (parent.children if parent else root)[name] = prop
        if nested:
            stack.append((indent, prop))
    return root, root_computed


def split_sections(text: str) -> dict[str, tuple[str, list[str]]]:
    """Map Python name -> (tf name, lines of its section) for every `### ibm_...` heading."""
    sections: dict[str, tuple[str, list[str]]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith(("## ", "### ")):
            current = None
            header = HEADER_RE.match(line)
            if header:
                current = []
                sections[header["py"]] = (header["tf"], current)
            continue
        if current is not None:
            current.append(line)
    return sections


def timeouts_prop(resource: str, spec: str) -> Prop | None:
    kinds = [k for k in ("create", "read", "update", "delete") if re.search(rf"\b{k}\b", spec)]
    if not kinds:
        return None
    prop = Prop(
        "timeouts", "timeouts", f"{resource}TimeoutsArgs", False, "timeouts", nested_type=f"{resource}TimeoutsArgs"
    )
    prop.children = {k: Prop(k, k, "str", False, k) for k in kinds}
    return prop


def module_name(class_name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", class_name).lower()


def extract_resource(py: str, tf: str, lines: list[str]) -> dict[str, Any]:
    meta = next(line for line in lines if TOKEN_RE.match(line))
    token = TOKEN_RE.match(meta)["token"]  # type: ignore[index]
    args_class = ARGS_CLASS_RE.search(meta)["cls"]  # type: ignore[index]
    id_input = ID_RENAME_RE.search(meta)["name"]  # type: ignore[index]
    inputs, computed = parse_tree(lines)
    inputs[id_input] = Prop(id_input, camel_case(id_input), "str", False, "id")
    timeouts = timeouts_prop(py, TIMEOUTS_RE.search(meta)["spec"])  # type: ignore[index]
    if timeouts:
        inputs["timeouts"] = timeouts
    return {
        "tf_name": tf,
        "token": token,
        "module": module_name(py),
        "args_class": args_class,
        "inputs": {k: v.to_json() for k, v in sorted(inputs.items())},
        "outputs": computed,
    }


def extract_function(py: str, tf: str, lines: list[str]) -> dict[str, Any]:
    meta = next(line for line in lines if TOKEN_RE.match(line))
    args: dict[str, dict[str, Any]] = {}
    for line in lines:
        entry = ENTRY_RE.match(line)
        if entry and not entry["indent"]:
            args[entry["name"]] = {
                "wire": camel_case(entry["name"]),
                "type": entry["type"],
                "required": entry["rest"].startswith("**required"),
            }
    if any("(+ optional `id`)" in line for line in lines):
        args.setdefault("id", {"wire": "id", "type": "str", "required": False})
    _, computed = parse_tree(lines)
    return {
        "tf_name": tf,
        "token": TOKEN_RE.match(meta)["token"],  # type: ignore[index]
        "result_class": RESULT_CLASS_RE.search(meta)["cls"],  # type: ignore[index]
        "args": dict(sorted(args.items())),
        "outputs": computed,
    }


def build(reference: Path, supplement: Path = SUPPLEMENT) -> dict[str, Any]:
    # The note's own sections win; the supplement only fills in what it does not cover.
    sections = {
        **split_sections(supplement.read_text(encoding="utf-8")),
        **split_sections(reference.read_text(encoding="utf-8")),
    }
    resources = {py: extract_resource(py, *sections[py]) for py in RESOURCES}
    functions = {py: extract_function(py, *sections[py]) for py in FUNCTIONS}
    types, collisions = effective_types(resources)
    return {
        "source": "ibm-provider.md §2/§3 and tools/ibm_reference_supplement.md (terraform-provider-ibm v2.5.0, "
        "bridge naming rules)",
        "resources": resources,
        "functions": functions,
        "types": types,
        "collisions": collisions,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ns = parser.parse_args()
    if not ns.reference.is_file():
        print(
            f"error: --reference {ns.reference}: no such file (the IBM provider reference lives in "
            "../shared/reference/ beside the project; pass --reference FILE)",
            file=sys.stderr,
        )
        raise SystemExit(2)
    data = build(ns.reference)
    ns.out.parent.mkdir(parents=True, exist_ok=True)
    ns.out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    FORCE_NEW_OUT.write_text(
        json.dumps({"source": data["source"], "force_new": force_new_table(data)}, indent=1) + "\n", encoding="utf-8"
    )
    print(f"wrote {FORCE_NEW_OUT}")
    print(
        f"wrote {ns.out}: {len(data['resources'])} resources, {len(data['functions'])} functions, "
        f"{len(data['types'])} nested types, {len(data['collisions'])} collisions"
    )


if __name__ == "__main__":
    main()
