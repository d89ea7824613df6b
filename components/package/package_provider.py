"""The package's provider: the SDK's component provider, with what its schema inference cannot say added.

``pulumi.provider.experimental`` (pulumi 3.272) infers the schema from the component's annotations; read in
its ``analyzer.py`` and ``component.py``, three things are beyond it, so this module adds them:

* unions: ``Analyzer.analyze_property`` raises "Union types are not supported" for ``bool | str``.  Here a
  union of plain types is inferred as ``pulumi.json#/Any`` (values pass through ``map_input_properties``
  untouched) and the schema then says ``oneOf`` (the package schema's "Union Type", ``typeSpec`` in
  ``pkg/codegen/schema/pulumi.json``), so a typed SDK accepts ``true`` and ``"rollout-1a2b3c4d"`` alike;
* secrets: ``PropertyDefinition`` has no ``secret`` field.  The schema's ``secret: true`` (``propertySpec``)
  makes a generated SDK send the input as a secret; the component keeps it one (``components.package``);
* unknown keys: ``ComponentProvider.map_input_properties`` walks the schema's properties only, so a key the
  schema lacks (``namePrefx``, ``vpc_cidr``) is dropped and the default used.  ``construct`` refuses them
  first, with a stack file's message (``components.models.messages.unknown_key_message``).

It also refuses, with a message, a ``plain`` input that holds a resource's output: ``ProviderServicer``
(``pulumi/provider/server.py``, ``_select_value``) wraps an input that has dependencies in one ``Output``,
which the SDK's mapping reads as an empty mapping ("Missing required input 'cluster.zone'").
"""

# No `from __future__ import annotations`: PropertyDefinition and the analyzer read annotations as objects.

import json
import math
from collections.abc import Mapping
from typing import Any, Optional, get_args

import pulumi
from pulumi.errors import InputPropertiesError
from pulumi.output import Unknown
from pulumi.provider.experimental.analyzer import (
    Analyzer,
    PropertyDefinition,
    PropertyType,
    TypeDefinition,
    is_input,
    is_optional,
    is_simple,
    is_union,
    py_type_to_property_type,
    true_or_none,
)
from pulumi.provider.experimental.component import ComponentProvider
from pulumi.provider.experimental.schema import generate_schema
from pulumi.provider.experimental.util import camel_case
from pulumi.provider.provider import ConstructResult, Provider

from components.models.messages import unknown_key_message

__all__ = ["PackageProvider", "input_problems"]

_ANY = "pulumi.json#/Any"
NOT_PLAIN = (
    "a resource's output (or a secret, or a value not known yet) where a plain value is needed: the component "
    "plans every resource from it before any exists; give the value itself (secrets have inputs of their own)"
)


class _UnionAnalyzer(Analyzer):
    """The SDK's analyzer, with a union of plain types (``bool | str``) inferred as ``Any``; ``unions`` keeps
    each one (type name, schema property name) -> its members' schema types, for the schema's ``oneOf``."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.unions: dict[tuple[str, str], list[str]] = {}

    def analyze_property(
        self,
        arg: type,
        typ: type,
        name: str,
        *,
        can_be_plain: bool,
        is_component_output: bool,
        optional: Optional[bool] = None,
    ) -> PropertyDefinition:
        members = get_args(arg) if is_union(arg) and not is_optional(arg) and not is_input(arg) else ()
        if members and all(is_simple(member) for member in members):
            self.unions[(typ.__name__, camel_case(name))] = [py_type_to_property_type(m).value for m in members]
            return PropertyDefinition(
                ref=_ANY,
                optional=bool(optional),
                plain=true_or_none(can_be_plain),
                description=self.get_docstring(typ, name),
            )
        return super().analyze_property(
            arg, typ, name, can_be_plain=can_be_plain, is_component_output=is_component_output, optional=optional
        )


class PackageProvider(ComponentProvider):
    """``ComponentProvider`` of ``components`` with unions, ``secret_inputs`` (schema names) marked secret, and
    inputs checked against the schema before the component is constructed."""

    def __init__(
        self, components: list[type[pulumi.ComponentResource]], name: str, version: str, secret_inputs: set[str]
    ) -> None:
        # ComponentProvider.__init__ (pulumi/provider/experimental/component.py) as it is, but for the analyzer,
        # which it builds itself: no argument lets a caller give it one.
        self._name = name
        self.analyzer = _UnionAnalyzer(name)
        result = self.analyzer.analyze(components)
        self._components = {component.__name__: component for component in components}
        self._component_defs = result["component_definitions"]
        self._type_defs = result["type_definitions"]
        self._external_enum_types = result["external_enum_types"]
        self._dependencies = sorted(result["dependencies"], key=lambda d: f"{d.name}{d.version}")
        schema = generate_schema(name, version, None, self._component_defs, self._type_defs, self._dependencies)
        completed = _with_unions_and_secrets(schema.to_json(), name, self.analyzer.unions, secret_inputs)
        Provider.__init__(self, version, json.dumps(completed))

    def construct(
        self, name: str, resource_type: str, inputs: pulumi.Inputs, options: Optional[pulumi.ResourceOptions] = None
    ) -> ConstructResult:
        self.validate_resource_type(self._name, resource_type)
        component = resource_type.rsplit(":", maxsplit=1)[-1]
        problems = input_problems(inputs, self._component_defs[component].inputs, self._type_defs)
        if problems:
            # The message, with an empty list of property details: the engine prints each detailed property's
            # value (pkg/resource/deploy/source_eval.go, errorToMessage, with %v: a secret in plaintext), and
            # with None the SDK's status lacks the trailing_metadata grpc's abort_with_status reads
            # (pulumi/provider/server.py, create_grpc_invalid_properties_status): the engine would get
            # "Unexpected <class 'AttributeError'>" instead.
            raise InputPropertiesError("\n".join([f"{component} {name}: invalid inputs:", *problems]), [])
        return super().construct(name, resource_type, inputs, options)


def _with_unions_and_secrets(
    schema: dict[str, Any], package: str, unions: Mapping[tuple[str, str], list[str]], secret_inputs: set[str]
) -> dict[str, Any]:
    for (type_name, prop), members in unions.items():
        owner = schema.get("types", {}).get(f"{package}:index:{type_name}")
        if owner is None:  # a component's own input: the resource's inputProperties
            owner = {"properties": schema["resources"][f"{package}:index:{type_name}"]["inputProperties"]}
        spec = owner["properties"][prop]
        del spec["$ref"]
        spec["oneOf"] = [{"type": member} for member in members]
    for resource in schema["resources"].values():
        for prop in secret_inputs & set(resource["inputProperties"]):
            resource["inputProperties"][prop]["secret"] = True
    return schema


def input_problems(
    inputs: Any, properties: Mapping[str, PropertyDefinition], types: Mapping[str, TypeDefinition], path: str = ""
) -> list[str]:
    """One line per input the schema does not know (with the known key it probably meant) and per plain input
    that holds an output, as ``path.key: message``."""
    if not isinstance(inputs, dict):
        return []
    problems = []
    known = list(properties)
    for key, value in inputs.items():
        where = f"{path}{key}"
        prop = properties.get(key)
        if prop is None:
            camel = camel_case(key)
            message = (
                f"unknown key; did you mean {camel}?" if camel in properties else unknown_key_message(key, known)[1]
            )
            problems.append(f"{where}: {message}")
        elif prop.plain and _holds_output(value):
            nested = _type_of(prop, types)
            if nested is not None and isinstance(value, dict):
                problems += input_problems(value, nested.properties, types, f"{where}.")
            else:
                problems.append(f"{where}: {NOT_PLAIN}")
        elif (wrong := _wrong_type(value, prop, types)) is not None:
            problems.append(f"{where}: {wrong}")
        elif isinstance(value, dict) and (nested := _type_of(prop, types)) is not None:
            problems += input_problems(value, nested.properties, types, f"{where}.")
    return problems


def _wrong_type(value: Any, prop: PropertyDefinition, types: Mapping[str, TypeDefinition]) -> str | None:
    """What is wrong with the form of ``value`` for ``prop`` (None: nothing the schema can tell), naming the kinds
    only: the value may be a secret.  Without this, the SDK's mapping reads a list or a string where a mapping is
    due as an empty mapping ("Missing required input 'cluster.zone'"), ``int()``s an infinite count into a
    traceback, and hands a mapping given as the API key to the IBM provider, whose type check prints it."""
    if value is None or _holds_output(value):
        return None
    if _type_of(prop, types) is not None:
        expected, fits = "a mapping", isinstance(value, dict)
    elif prop.type is None:  # Any and the unions: their models check them
        return None
    elif prop.type is PropertyType.STRING:
        expected, fits = "text", isinstance(value, str)
    elif prop.type is PropertyType.BOOLEAN:
        expected, fits = "true or false", isinstance(value, bool)
    elif prop.type is PropertyType.INTEGER:
        expected, fits = "a whole number", _number(value) and float(value).is_integer()
    elif prop.type is PropertyType.NUMBER:
        expected, fits = "a number", _number(value)
    elif prop.type is PropertyType.ARRAY:
        expected, fits = "a list", isinstance(value, list)
        if fits and prop.items is not None:
            wrong = [i for i, item in enumerate(value) if _wrong_type(item, prop.items, types) is not None]
            if wrong:
                return f"item {wrong[0]}: {_wrong_type(value[wrong[0]], prop.items, types)}"
    else:
        expected, fits = "a mapping", isinstance(value, dict)
        if fits and prop.additional_properties is not None:
            for key, item in value.items():
                if (wrong_item := _wrong_type(item, prop.additional_properties, types)) is not None:
                    return f"{key}: {wrong_item}"
    return None if fits else f"expected {expected}, got {_kind(value)}"


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _kind(value: Any) -> str:
    """A value's kind in the words of a stack file, never the value itself."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number" if math.isfinite(value) else "a number that is not finite"
    if isinstance(value, str):
        return "text"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    return type(value).__name__


def _type_of(prop: PropertyDefinition, types: Mapping[str, TypeDefinition]) -> TypeDefinition | None:
    """The object type a property refers to in this package (None: a plain type, Any, a map or a list)."""
    if prop.ref is None or not prop.ref.startswith("#/types/"):
        return None
    found = types.get(prop.ref.rsplit(":", 1)[-1])
    return found if found is not None and found.enum is None else None


def _holds_output(value: Any) -> bool:
    if isinstance(value, (pulumi.Output, Unknown)):
        return True
    if isinstance(value, dict):
        return any(_holds_output(item) for item in value.values())
    if isinstance(value, (list, tuple)):
        return any(_holds_output(item) for item in value)
    return False
