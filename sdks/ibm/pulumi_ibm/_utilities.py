# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md).
"""Plumbing shared by every pulumi_ibm module.

Two jobs: register the parameterized `terraform-provider` package with the engine (so resources
and invokes carry a package reference instead of asking for a non-existent `pulumi-resource-ibm`
plugin), and replace the per-property boilerplate the generator would spell out in every class.
"""

import base64
import importlib
import json
import weakref
from collections import defaultdict
from typing import Any, Callable, Mapping, Optional, Sequence, TypeVar

import pulumi
import pulumi.runtime
from pulumi.type_token import get_type_token

PACKAGE_NAME = "ibm"
IBM_PROVIDER_VERSION = "2.5.0"
# The bridge plugin that serves every `pulumi package add terraform-provider ...` package. 1.4.0 is
# the newest release pinned in public Pulumi.yaml files we could find; `pulumi install` rewrites it.
BRIDGE_PLUGIN_NAME = "terraform-provider"
BRIDGE_PLUGIN_VERSION = "1.4.0"
TERRAFORM_REGISTRY_SOURCE = "registry.opentofu.org/ibm-cloud/ibm"
# base64 of {"remote":{"url":"registry.opentofu.org/ibm-cloud/ibm","version":"2.5.0"}}, the
# parameter the bridge decodes to fetch the Terraform provider (dynamic/parameterize/value.go).
PARAMETER_VALUE = "eyJyZW1vdGUiOnsidXJsIjoicmVnaXN0cnkub3BlbnRvZnUub3JnL2libS1jbG91ZC9pYm0iLCJ2ZXJzaW9uIjoiMi41LjAifX0="

T = TypeVar("T")


def get_version() -> str:
    return IBM_PROVIDER_VERSION


def get_plugin_download_url() -> Optional[str]:
    return None


def parameter_value() -> dict[str, Any]:
    """The decoded parameterization value (what the bridge receives)."""
    return json.loads(base64.b64decode(PARAMETER_VALUE))


# --------------------------------------------------------------------------- package registration

# One package reference per resource monitor: a program talks to one engine, but test suites swap
# the monitor (set_mocks) between tests and each new monitor must see its own RegisterPackage.
_package_refs: "weakref.WeakKeyDictionary[Any, str]" = weakref.WeakKeyDictionary()
_registered_before = False


async def get_package() -> str:
    """Register the parameterized package once per monitor and return its reference."""
    global _registered_before
    monitor = pulumi.runtime.settings.get_monitor()
    cached = _package_refs.get(monitor) if monitor is not None else None
    if cached is not None:
        return cached
    if _registered_before:
        # A miss after a registration means a new monitor. set_mocks() keeps the SDK's ref cache
        # (SETTINGS.package_refs), which still holds the previous monitor's refs; start a fresh one
        # like Settings() does for every deployment, so register_package really asks this monitor.
        pulumi.runtime.settings.SETTINGS.package_refs = {}
    # register_package has no suspension point before it caches the ref, so the resources created
    # in one synchronous burst still send a single RegisterPackage.
    ref = await _register_package()
    if monitor is not None:
        _package_refs[monitor] = ref
    _registered_before = True
    return ref


async def _register_package() -> str:
    register = getattr(pulumi.runtime.settings, "register_package", None)
    if register is not None:
        return await register(
            BRIDGE_PLUGIN_NAME,
            BRIDGE_PLUGIN_VERSION,
            "",
            PACKAGE_NAME,
            IBM_PROVIDER_VERSION,
            PARAMETER_VALUE,
        )
    # Older pulumi SDKs (< register_package): send the same request directly.
    from pulumi.runtime.proto import resource_pb2

    monitor = pulumi.runtime.settings.get_monitor()
    request = resource_pb2.RegisterPackageRequest(
        name=BRIDGE_PLUGIN_NAME,
        version=BRIDGE_PLUGIN_VERSION,
        download_url="",
        parameterization=resource_pb2.Parameterization(
            name=PACKAGE_NAME,
            version=IBM_PROVIDER_VERSION,
            value=base64.b64decode(PARAMETER_VALUE),
        ),
    )
    return monitor.RegisterPackage(request).ref


# --------------------------------------------------------------------------- resource plumbing


def get_resource_opts_defaults() -> pulumi.ResourceOptions:
    return pulumi.ResourceOptions()


def get_invoke_opts_defaults() -> pulumi.InvokeOptions:
    return pulumi.InvokeOptions()


def get_resource_args_opts(resource_args_type: type, resource_options_type: type, *args: Any, **kwargs: Any):
    """Split a resource constructor's *args/**kwargs into (typed args, options), as generated SDKs do."""
    resource_args, opts = None, None
    if args and isinstance(args[0], resource_args_type):
        resource_args, args = args[0], args[1:]
    if args and isinstance(args[0], resource_options_type):
        opts = args[0]
    if resource_args is None:
        candidate = kwargs.get("args")
        if isinstance(candidate, resource_args_type):
            resource_args = candidate
    if opts is None:
        opts = kwargs.get("opts")
    return resource_args, opts


def input_names(args_type: type) -> tuple[str, ...]:
    """Python names of an `@pulumi.input_type` class declared with annotations."""
    return tuple(args_type.__dict__.get("__annotations__", {}))


def empty_props(args_type: type[T], computed: tuple[str, ...]) -> T:
    """A props object with every input and computed output unset (all get a resolver)."""
    props = args_type.__new__(args_type)
    for name in (*input_names(args_type), *computed):
        props.__dict__[name] = None
    return props


def resource_props(
    args_type: type[T],
    opts: Optional[pulumi.ResourceOptions],
    props: Optional[T],
    kwargs: Mapping[str, Any],
    computed: tuple[str, ...],
) -> tuple[pulumi.ResourceOptions, T]:
    """The generated `_internal_init` preamble: merge options and build the typed props object.

    Typed props matter: the runtime translates Python names (also inside nested dicts) to camelCase
    wire names from the input type's getter metadata; a plain dict would be sent verbatim.
    """
    opts = pulumi.ResourceOptions.merge(get_resource_opts_defaults(), opts)
    if not isinstance(opts, pulumi.ResourceOptions):
        raise TypeError("Expected resource options to be a ResourceOptions instance")
    if opts.id is not None:
        return opts, props if props is not None else empty_props(args_type, computed)
    if props is not None:
        raise TypeError(
            "__props__ is only valid when passed in combination with a valid opts.id to get an existing resource"
        )
    names = input_names(args_type)
    unexpected = sorted(set(kwargs) - set(names))
    if unexpected:
        raise TypeError(f"{args_type.__name__}: unexpected keyword argument '{unexpected[0]}'")
    props = args_type.__new__(args_type)
    for name in names:
        props.__dict__[name] = kwargs.get(name)
    for name in computed:
        props.__dict__[name] = None
    return opts, props


class _OutputDeclaration:
    __slots__ = ("wire_name",)

    def __init__(self, wire_name: str) -> None:
        self.wire_name = wire_name


def output(wire_name: str) -> Any:
    """Declare a resource output in the class body: `crn: pulumi.Output[str] = output("crn")`."""
    return _OutputDeclaration(wire_name)


def output_properties(cls: type[T]) -> type[T]:
    """Turn `output(...)` declarations into `@property @pulumi.getter(name=...)` getters.

    The annotation becomes the getter's return type, which the runtime uses to deserialize nested
    output types; it is removed from the class annotations so it is not read a second time.
    """
    annotations = cls.__dict__.get("__annotations__", {})
    for py_name, declaration in list(vars(cls).items()):
        if isinstance(declaration, _OutputDeclaration):
            getter = _make_getter(py_name, declaration.wire_name, annotations.pop(py_name))
            setattr(cls, py_name, property(getter))
    return cls


def _make_getter(py_name: str, wire_name: str, annotation: Any) -> Callable[[Any], Any]:
    def getter(self: Any) -> Any:
        return pulumi.get(self, py_name)

    getter.__name__ = py_name
    getter.__qualname__ = py_name
    getter.__annotations__ = {"return": annotation}
    return pulumi.getter(name=wire_name)(getter)


# --------------------------------------------------------------------------- resource references


class _Package(pulumi.runtime.ResourcePackage):
    def __init__(self, provider_class: str) -> None:
        super().__init__()
        self._provider_class = provider_class

    def version(self) -> Optional[Any]:
        return None

    def construct_provider(self, name: str, typ: str, urn: str) -> pulumi.ProviderResource:
        if typ != f"pulumi:providers:{PACKAGE_NAME}":
            raise Exception(f"unknown provider type {typ}")
        provider = getattr(importlib.import_module(__package__), self._provider_class)
        return provider(name, pulumi.ResourceOptions(urn=urn))


class _Module(pulumi.runtime.ResourceModule):
    def __init__(self, classes: Mapping[str, str]) -> None:
        super().__init__()
        self._classes = dict(classes)

    def version(self) -> Optional[Any]:
        return None

    def construct(self, name: str, typ: str, urn: str) -> pulumi.Resource:
        class_name = self._classes.get(typ)
        if class_name is None:
            raise Exception(f"unknown resource type {typ}")
        resource_class = getattr(importlib.import_module(__package__), class_name)
        return resource_class(name, pulumi.ResourceOptions(urn=urn))


def register(resource_classes: Sequence[str], provider_class: str) -> None:
    """Let the runtime rehydrate resource references (token -> class), like generated SDKs.

    Called at the end of the package `__init__`, when every class is already importable.
    """
    package = importlib.import_module(__package__)
    by_module: dict[str, dict[str, str]] = defaultdict(dict)
    for class_name in resource_classes:
        token = get_type_token(getattr(package, class_name))
        if token is None:
            raise AssertionError(f"{class_name} has no type token")
        by_module[token.split(":")[1]][token] = class_name
    pulumi.runtime.register_resource_package(PACKAGE_NAME, _Package(provider_class))
    for module, classes in by_module.items():
        pulumi.runtime.register_resource_module(PACKAGE_NAME, module, _Module(classes))
