"""Pulumi entry point: read the stack config, declare the cluster, export the inventory."""

import pulumi

from components.program import ConfigurationError, build, load

try:
    deployment = build(load())
except ConfigurationError as error:
    raise pulumi.RunError(f"invalid stack configuration:\n{error}") from None

for key, value in deployment.outputs().items():
    pulumi.export(key, value)
