"""``python -m experiments sweep``: one stack per cell of profile x variant x nodes x NICs.

The matrix comes from flags or a YAML file (same axes, plus an optional ``base:`` cluster
mapping); ``--base STACK`` starts every cell from an existing stack's cluster settings.
Cells a profile cannot run (SR-IOV on L40S, more NICs than attached) are skipped with
the validation message; only a matrix with no valid cell at all is an input error.

Each valid cell is rendered by the mock engine first, which gives its variant
fingerprint (the same whether the cell then goes through Pulumi or not), then:

* by default, ``preview`` through the Automation API: one stack per cell on a local file
  backend (``--state-dir``), the inline program being the same ``build()``;
* with ``--up``, ``up`` instead (this creates cloud resources; there is no prompt);
* with ``--offline``, nothing more: the mock engine's rendering is the result.

Modules: ``cells`` (vocabulary), ``matrix`` (flags and files to cells), ``runners`` (offline or
Automation API), ``table`` (results), ``cli`` (arguments and the run).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "AXES": "cells", "Cell": "cells", "CellResult": "cells", "SweepSpec": "cells", "SweepSpecError": "cells",
    "add_parser": "args", "run": "cli", "expand": "matrix", "plan_cells": "matrix", "read_matrix": "matrix",
    "spec_from_args": "matrix",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    """Imported on first use: running cells needs Pulumi, listing the arguments does not."""
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
