"""Strict offline schema validation of rendered Kubernetes manifests.

Three sources of schemas, tried in this order by ``apiVersion`` + ``kind``:

1. ``schemas/crds/`` — generated from the upstream CRDs by
   ``tools/gen_crd_schemas.py`` (descriptions stripped, root wrapped so that
   apiVersion/kind/metadata are typed).
2. ``schemas/openshift/`` — small hand-written schemas for OpenShift kinds that
   are neither CRDs we ship nor upstream Kubernetes (SecurityContextConstraints).
3. Built-in Kubernetes kinds — the ``-local-strict`` JSON schemas shipped by
   ``kubernetes-validate`` for the chosen Kubernetes version (default 1.31,
   the Kubernetes release inside OpenShift 4.18).

Anything else is an error ("no schema for ..."), never a silent pass.

Strict interpretation of CRD-style schemas, applied when a file is loaded (the
files on disk stay a faithful image of upstream):

* every object node that declares ``properties`` but neither
  ``additionalProperties`` nor ``x-kubernetes-preserve-unknown-fields: true``
  gets ``additionalProperties: false`` — this is what turns a typo such as
  ``containers[0].imagePullPolicyy`` into an error (the apiserver would prune
  or, under ``--validate=strict``, reject it). Nodes inside ``anyOf``/``oneOf``/
  ``allOf``/``not`` are left alone: in a structural schema those branches only
  restate fields declared next to them, so closing them would reject valid
  objects;
* ``x-kubernetes-int-or-string: true`` accepts an integer or a string;
* ``x-kubernetes-embedded-resource: true`` implicitly declares ``apiVersion``,
  ``kind`` and ``metadata`` on that node;
* ``nullable: true`` adds ``null`` to the node's type.

Not checked (as with any offline validator): CEL rules
(``x-kubernetes-validations``), list-map key uniqueness, ``format`` values,
immutability and anything done by admission webhooks.

For the built-in kinds this module uses the very schema files and resolution
rules of ``kubernetes_validate.validate(obj, version, strict=True)``, but
caches the compiled validator per kind and reports every error rather than the
first one (``kubernetes_validate.validate`` re-reads a 1.3 MB definitions file
on every call, ~13 ms per object).
"""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate.utils as kv_utils
import referencing
from jsonschema.exceptions import ValidationError

SCHEMA_DIR = Path(__file__).resolve().parents[1] / "schemas"
CRD_SCHEMA_DIR = SCHEMA_DIR / "crds"
OPENSHIFT_SCHEMA_DIR = SCHEMA_DIR / "openshift"
INDEX_NAME = "index.json"

# OpenShift 4.18 (the version measured in the seed study, 4.18.16) ships
# Kubernetes 1.31; kubernetes-validate 1.37.0 carries 1.25 ... 1.37.
DEFAULT_K8S_VERSION = "1.31.0"

NAD_KEY = "k8s.cni.cncf.io/v1/NetworkAttachmentDefinition"

# API groups served by kube-apiserver itself. Everything else must come from
# our schema index; this stops e.g. "apps.example.com/v1 Deployment" from being
# checked against the built-in apps/v1 Deployment (kubernetes-validate keys its
# files on the first DNS label of the group only).
_BUILTIN_GROUPS_WITHOUT_K8S_IO = frozenset({"", "apps", "batch", "autoscaling", "policy"})

_SCHEMA_MAP_KEYWORDS = ("properties", "patternProperties", "definitions")
_SCHEMA_LIST_KEYWORDS = ("allOf", "anyOf", "oneOf")


# --------------------------------------------------------------------------
# Schema loading and strict interpretation
# --------------------------------------------------------------------------


def _strict_copy(node: Any, in_junctor: bool = False) -> Any:
    """Return a copy of a CRD-style schema node with the strict rules applied."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _SCHEMA_MAP_KEYWORDS and isinstance(value, dict):
            out[key] = {name: _strict_copy(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties", "additionalItems"):
            if isinstance(value, list):
                out[key] = [_strict_copy(sub) for sub in value]
            else:
                out[key] = _strict_copy(value)
        elif key in _SCHEMA_LIST_KEYWORDS and isinstance(value, list):
            out[key] = [_strict_copy(sub, in_junctor=True) for sub in value]
        elif key == "not":
            out[key] = _strict_copy(value, in_junctor=True)
        else:
            out[key] = value

    if out.get("x-kubernetes-int-or-string") is True:
        # The upstream form is anyOf[integer, string] without a type; make it
        # explicit in case a CRD carries only the extension.
        out.pop("type", None)
        out.setdefault("anyOf", [{"type": "integer"}, {"type": "string"}])

    if out.get("x-kubernetes-embedded-resource") is True:
        properties = dict(out.get("properties", {}))
        properties.setdefault("apiVersion", {"type": "string"})
        properties.setdefault("kind", {"type": "string"})
        properties.setdefault("metadata", {"type": "object"})
        out["properties"] = properties

    preserves_unknown = out.get("x-kubernetes-preserve-unknown-fields") is True
    if not in_junctor and "properties" in out and "additionalProperties" not in out and not preserves_unknown:
        out["additionalProperties"] = False

    if out.get("nullable") is True and "type" in out:
        types = out["type"] if isinstance(out["type"], list) else [out["type"]]
        if "null" not in types:
            out["type"] = [*types, "null"]
    return out


@lru_cache(maxsize=None)
def _schema_index() -> dict[str, Path]:
    """Map ``"<apiVersion>/<kind>"`` to a schema file, CRDs before OpenShift."""
    index: dict[str, Path] = {}
    for directory in (OPENSHIFT_SCHEMA_DIR, CRD_SCHEMA_DIR):
        index_path = directory / INDEX_NAME
        if not index_path.is_file():
            continue
        entries = json.loads(index_path.read_text(encoding="utf-8"))
        index.update({key: directory / name for key, name in entries.items()})
    return index


@lru_cache(maxsize=None)
def _custom_validator(key: str) -> jsonschema.Draft7Validator:
    path = _schema_index()[key]
    schema = _strict_copy(json.loads(path.read_text(encoding="utf-8")))
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def known_custom_kinds() -> list[str]:
    """Every ``"<apiVersion>/<kind>"`` with a schema under ``schemas/``."""
    return sorted(_schema_index())


# --------------------------------------------------------------------------
# Built-in kinds via kubernetes-validate's bundled schemas
# --------------------------------------------------------------------------


def _is_builtin_api_version(api_version: str) -> bool:
    group = api_version.rpartition("/")[0]
    return group in _BUILTIN_GROUPS_WITHOUT_K8S_IO or group.endswith(".k8s.io")


@lru_cache(maxsize=None)
def _resolve_k8s_version(desired: str) -> str:
    """Pick the bundled schema version exactly as kubernetes_validate does."""
    desired = desired[1:] if desired.startswith("v") else desired
    wanted = _version_tuple(kv_utils.major_minor(desired))
    available = [
        version for version in kv_utils.all_versions() if _version_tuple(kv_utils.major_minor(version)) <= wanted
    ]
    if not available or wanted > _version_tuple(kv_utils.latest_version()):
        raise ValueError(
            f"kubernetes-validate has no schemas for Kubernetes {desired} "
            f"(available: {kv_utils.all_versions()[0]} .. {kv_utils.latest_version()})"
        )
    return available[-1]


def _version_tuple(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version))


@lru_cache(maxsize=4)
def _k8s_definitions(schema_dir: str, version: str) -> referencing.Resource:
    contents = kv_utils.schema_contents(f"kubernetes-json-schema/{schema_dir}/_definitions.json", version)
    return referencing.Resource.from_contents(contents)


@lru_cache(maxsize=None)
def _builtin_validator(api_version: str, kind: str, k8s_version: str) -> jsonschema.Draft202012Validator | None:
    """Compiled strict validator for a built-in kind, or None if there is none."""
    version = _resolve_k8s_version(k8s_version)
    schema_dir = f"v{version}-local-strict"
    # Same file naming as kubernetes_validate.validate: group's first label.
    file_api_version = re.sub(r"^([^./]*)(?:\.[^/]*)?/", r"\1-", api_version)
    try:
        schema = kv_utils.schema_contents(
            f"kubernetes-json-schema/{schema_dir}/{kind.lower()}-{file_api_version}.json",
            version,
        )
    except FileNotFoundError:
        return None
    resource = referencing.Resource.from_contents(schema)
    registry = _k8s_definitions(schema_dir, version) @ (resource @ referencing.Registry())
    return jsonschema.Draft202012Validator(schema, registry=registry)


# --------------------------------------------------------------------------
# Error formatting
# --------------------------------------------------------------------------


def _format_path(parts: Iterable[Any]) -> str:
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "<root>"


def _is_declared(schema: Mapping[str, Any], field: str) -> bool:
    if field in schema.get("properties", {}):
        return True
    return any(re.search(pattern, field) for pattern in schema.get("patternProperties", {}))


def _describe(error: ValidationError) -> Iterator[str]:
    """Turn one jsonschema error into path-first, human-readable messages."""
    path = list(error.absolute_path)
    instance = error.instance
    if error.validator == "additionalProperties" and error.validator_value is False and isinstance(instance, dict):
        for field in sorted(instance):
            if not _is_declared(error.schema, field):
                yield f"{_format_path([*path, field])}: unknown field"
        return
    if error.validator == "required" and isinstance(instance, dict):
        for field in error.validator_value:
            if field not in instance:
                yield f"{_format_path([*path, field])}: required field is missing"
        return
    yield f"{_format_path(path)}: {error.message}"


def _collect(validator: jsonschema.protocols.Validator, obj: Any) -> list[str]:
    messages: set[str] = set()
    for error in validator.iter_errors(obj):
        messages.update(_describe(error))
    return sorted(messages)


def _object_label(obj: Mapping[str, Any]) -> str:
    api_version, kind = obj.get("apiVersion", "?"), obj.get("kind", "?")
    metadata = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    name = metadata.get("name", "<unnamed>")
    namespace = metadata.get("namespace")
    where = f"{namespace}/{name}" if namespace else str(name)
    return f"{api_version}/{kind} {where}"


# --------------------------------------------------------------------------
# CNI configuration inside a NetworkAttachmentDefinition
# --------------------------------------------------------------------------

KNOWN_CNI_TYPES = frozenset(
    {
        "host-device",
        "macvlan",
        "sriov",
        "ipvlan",
        "bridge",
        "tuning",
        # InfiniBand variants used by the SR-IOV and NVIDIA network operators,
        # and the rdma meta-plugin they chain after sriov.
        "ib-sriov",
        "ipoib",
        "rdma",
    }
)
KNOWN_IPAM_TYPES = frozenset({"whereabouts", "static", "host-local", "dhcp", "nv-ipam"})
KNOWN_CNI_VERSIONS = frozenset({"0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"})


def _cidr_error(value: Any, where: str) -> str | None:
    """Error text unless ``value`` is ``<ip>/<prefix>`` (host bits allowed)."""
    if not isinstance(value, str) or "/" not in value:
        return f"{where}: {value!r} is not a CIDR (expected <ip>/<prefix>)"
    try:
        ipaddress.ip_interface(value)
    except ValueError:
        return f"{where}: {value!r} is not a valid CIDR"
    return None


def _ip_error(value: Any, where: str) -> str | None:
    if not isinstance(value, str):  # ip_address() would accept an int
        return f"{where}: {value!r} is not a valid IP address"
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return f"{where}: {value!r} is not a valid IP address"
    return None


def _whereabouts_range_errors(entry: Mapping[str, Any], where: str) -> list[str]:
    errors: list[str] = []
    raw_range = entry.get("range")
    if raw_range is None:
        return [f"{where}.range: required field is missing"]
    if not isinstance(raw_range, str):
        return [f"{where}.range: {raw_range!r} is not a CIDR"]
    # Whereabouts also accepts "<first>-<last>/<prefix>" as shorthand for
    # range_start/range_end.
    first, dash, rest = raw_range.partition("-")
    if dash:
        last, _, prefix = rest.partition("/")
        cidr = f"{first}/{prefix}"
        error = _ip_error(last, f"{where}.range")
    else:
        cidr, error = raw_range, None
    error = _cidr_error(cidr, f"{where}.range") or error
    if error:
        return [error]
    network = ipaddress.ip_interface(cidr).network
    for bound in ("range_start", "range_end"):
        if bound not in entry:
            continue
        value = entry[bound]
        bound_error = _ip_error(value, f"{where}.{bound}")
        if bound_error:
            errors.append(bound_error)
        elif ipaddress.ip_address(value) not in network:
            errors.append(f"{where}.{bound}: {value} is outside range {network}")
    excludes = entry.get("exclude", [])
    if not isinstance(excludes, list):
        errors.append(f"{where}.exclude: expected a list of CIDRs")
    else:
        for position, excluded in enumerate(excludes):
            exclude_error = _cidr_error(excluded, f"{where}.exclude[{position}]")
            if exclude_error:
                errors.append(exclude_error)
    return errors


def _ipam_errors(ipam: Any, where: str) -> list[str]:
    if not isinstance(ipam, dict):
        return [f"{where}: expected an object"]
    if not ipam:
        return []  # "ipam": {} means no IP management (e.g. L2-only host-device)
    ipam_type = ipam.get("type")
    if ipam_type not in KNOWN_IPAM_TYPES:
        return [f"{where}.type: {ipam_type!r} is not one of {sorted(KNOWN_IPAM_TYPES)}"]
    errors: list[str] = []
    if ipam_type == "whereabouts":
        if "ipRanges" in ipam:
            ranges = ipam["ipRanges"]
            if not isinstance(ranges, list):
                return [f"{where}.ipRanges: expected a list"]
            for position, entry in enumerate(ranges):
                if not isinstance(entry, dict):
                    errors.append(f"{where}.ipRanges[{position}]: expected an object")
                    continue
                errors += _whereabouts_range_errors(entry, f"{where}.ipRanges[{position}]")
            if "range" in ipam:
                errors += _whereabouts_range_errors(ipam, where)
        else:
            errors += _whereabouts_range_errors(ipam, where)
    elif ipam_type == "static":
        addresses = ipam.get("addresses", [])
        if not isinstance(addresses, list):
            return [f"{where}.addresses: expected a list"]
        for position, entry in enumerate(addresses):
            item = f"{where}.addresses[{position}]"
            if not isinstance(entry, dict) or "address" not in entry:
                errors.append(f"{item}.address: required field is missing")
                continue
            cidr_error = _cidr_error(entry["address"], f"{item}.address")
            if cidr_error:
                errors.append(cidr_error)
            if "gateway" in entry:
                errors += filter(None, [_ip_error(entry["gateway"], f"{item}.gateway")])
    elif ipam_type == "host-local":
        if "subnet" in ipam:
            errors += filter(None, [_cidr_error(ipam["subnet"], f"{where}.subnet")])
        for set_index, range_set in enumerate(ipam.get("ranges", [])):
            for position, entry in enumerate(range_set if isinstance(range_set, list) else []):
                subnet = entry.get("subnet") if isinstance(entry, dict) else None
                cidr_error = _cidr_error(subnet, f"{where}.ranges[{set_index}][{position}].subnet")
                if cidr_error:
                    errors.append(cidr_error)
    for position, route in enumerate(ipam.get("routes", []) or []):
        destination = route.get("dst") if isinstance(route, dict) else None
        route_error = _cidr_error(destination, f"{where}.routes[{position}].dst")
        if route_error:
            errors.append(route_error)
    return errors


def _plugin_errors(plugin: Any, where: str) -> list[str]:
    if not isinstance(plugin, dict):
        return [f"{where or '<root>'}: expected a JSON object"]
    prefix = f"{where}." if where else ""
    plugin_type = plugin.get("type")
    if plugin_type is None:
        return [f"{prefix}type: required field is missing"]
    errors: list[str] = []
    if plugin_type not in KNOWN_CNI_TYPES:
        errors.append(f"{prefix}type: {plugin_type!r} is not one of {sorted(KNOWN_CNI_TYPES)}")
    if "ipam" in plugin:
        errors += _ipam_errors(plugin["ipam"], f"{prefix}ipam")
    return errors


def validate_cni_config(config_json: str) -> list[str]:
    """Check the CNI JSON of a NAD's ``spec.config``; return path-first errors.

    Accepts a single-plugin config (``type`` at the top) or a conflist
    (``plugins``). Checks cniVersion, plugin types, and the IPAM section of
    each plugin (type known; CIDRs and IPs parse; whereabouts bounds in range).
    """
    try:
        config = json.loads(config_json)
    except (TypeError, ValueError) as exc:
        return [f"<root>: not valid JSON ({exc})"]
    if not isinstance(config, dict):
        return ["<root>: expected a JSON object"]
    errors: list[str] = []
    cni_version = config.get("cniVersion")
    if cni_version is None:
        errors.append("cniVersion: required field is missing")
    elif cni_version not in KNOWN_CNI_VERSIONS:
        errors.append(f"cniVersion: {cni_version!r} is not one of {sorted(KNOWN_CNI_VERSIONS)}")
    if "name" in config and not (isinstance(config["name"], str) and config["name"]):
        errors.append("name: expected a non-empty string")

    if "plugins" in config:
        plugins = config["plugins"]
        if "name" not in config:
            errors.append("name: required field is missing (a plugin list must be named)")
        if not isinstance(plugins, list) or not plugins:
            errors.append("plugins: expected a non-empty list")
        else:
            for position, plugin in enumerate(plugins):
                errors += _plugin_errors(plugin, f"plugins[{position}]")
    elif "type" in config:
        errors += _plugin_errors(config, "")
    else:
        errors.append("type: required field is missing (neither 'type' nor 'plugins' given)")
    return errors


# --------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------


def validate_manifest(obj: Mapping[str, Any], k8s_version: str = DEFAULT_K8S_VERSION) -> list[str]:
    """Validate one manifest strictly; return ``"<path>: <message>"`` errors.

    An empty list means valid. Unknown apiVersion/kind is an error.
    """
    if not isinstance(obj, Mapping):
        return [f"<root>: expected a mapping, got {type(obj).__name__}"]
    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return ["<root>: apiVersion and kind must both be set to strings"]
    key = f"{api_version}/{kind}"
    document = dict(obj)

    if key in _schema_index():
        errors = _collect(_custom_validator(key), document)
        if key == NAD_KEY:
            errors += _nad_config_errors(document)
        return errors

    validator = _builtin_validator(api_version, kind, k8s_version) if _is_builtin_api_version(api_version) else None
    if validator is None:
        return [
            f"<root>: no schema for {kind} ({api_version}) — not a shipped CRD, "
            f"OpenShift kind, or Kubernetes {k8s_version} built-in"
        ]
    return _collect(validator, document)


def _nad_config_errors(nad: Mapping[str, Any]) -> list[str]:
    spec = nad.get("spec")
    config = spec.get("config") if isinstance(spec, dict) else None
    if not isinstance(config, str):
        return []  # absent config (file on the node) or a type error reported above
    # The CNI paths continue the manifest path into the parsed JSON.
    errors = []
    for message in validate_cni_config(config):
        path, _, text = message.partition(": ")
        if path == "<root>":
            errors.append(f"spec.config: {text}")
        else:
            separator = "" if path.startswith("[") else "."
            errors.append(f"spec.config{separator}{path}: {text}")
    return errors


def validate_all(objs: Iterable[Mapping[str, Any]], k8s_version: str = DEFAULT_K8S_VERSION) -> dict[str, list[str]]:
    """Validate many manifests; map ``"<apiVersion>/<kind> <ns>/<name>"`` to errors.

    Every object gets an entry (an empty list when valid), so callers can also
    see what was covered; duplicate labels get a ``#<n>`` suffix.
    """
    results: dict[str, list[str]] = {}
    for obj in objs:
        label = _object_label(obj) if isinstance(obj, Mapping) else f"<not a mapping: {type(obj).__name__}>"
        unique, counter = label, 1
        while unique in results:
            counter += 1
            unique = f"{label} #{counter}"
        results[unique] = validate_manifest(obj, k8s_version)
    return results
