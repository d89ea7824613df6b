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

from .cells import AXES, Cell, CellResult, SweepSpec, SweepSpecError
from .cli import add_parser, run
from .matrix import expand, plan_cells, read_matrix, spec_from_args

__all__ = [
    "AXES",
    "Cell",
    "CellResult",
    "SweepSpec",
    "SweepSpecError",
    "add_parser",
    "expand",
    "plan_cells",
    "read_matrix",
    "run",
    "spec_from_args",
]
