"""Tables derived from the extracted IBM provider schema (``extract_ibm_reference.py`` writes
them): the nested input types after the bridge's last-writer-wins naming rule, and per resource the
inputs whose change makes the provider replace it (``experiments/offline/ibm_force_new.json``)."""

from __future__ import annotations

from typing import Any


def effective_types(resources: dict[str, dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Apply the bridge's last-writer-wins rule to nested type names.

    tfgen processes one module per resource (``index/<camelName>``) in sorted order and
    overwrites ``spec.Types[tok]``, so the shape from the lexically last module survives.
    """
    types: dict[str, dict[str, Any]] = {}
    writers: dict[str, list[str]] = {}

    def walk(owner: str, props: dict[str, Any]) -> None:
        for prop in props.values():
            nested = prop.get("nested_type")
            if not nested:
                continue
            types[nested] = {
                "owner": owner,
                "fields": {
                    name: {
                        "wire": child["wire"],
                        "type": child["type"],
                        "required": child["required"],
                        "computed": child["computed"],
                        **({"nested_type": child["nested_type"]} if "nested_type" in child else {}),
                    }
                    for name, child in prop["children"].items()
                },
                "computed_only": prop["computed_only"],
            }
            if owner not in writers.setdefault(nested, []):
                writers[nested].append(owner)
            walk(owner, prop["children"])

    by_module = sorted(resources.items(), key=lambda kv: kv[1]["token"].split(":")[1])
    for name, resource in by_module:
        walk(name, resource["inputs"])
    collisions = {
        type_name: {"winner": owners[-1], "shadowed": owners[:-1]}
        for type_name, owners in sorted(writers.items())
        if len(owners) > 1
    }
    return dict(sorted(types.items())), collisions


def force_new_paths(inputs: dict[str, Any], prefix: str = "") -> list[str]:
    """Wire paths (``primaryIp.address``) of the ForceNew inputs; a ForceNew block covers its children."""
    paths: list[str] = []
    for prop in inputs.values():
        path = f"{prefix}{prop['wire']}"
        if prop.get("force_new"):
            paths.append(path)
        elif "children" in prop:
            paths.extend(force_new_paths(prop["children"], f"{path}."))
    return sorted(paths)


def force_new_table(data: dict[str, Any]) -> dict[str, list[str]]:
    """Per resource: the inputs whose change makes the provider replace it (read by
    ``experiments.offline.ibm_rules``)."""
    return {name: force_new_paths(resource["inputs"]) for name, resource in sorted(data["resources"].items())}
