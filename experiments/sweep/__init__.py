"""Sweeps: one stack per cell of profile x variant x nodes x NICs.

The matrix comes from flags or a YAML file (same axes, plus an optional ``base:`` cluster
mapping); ``--base STACK`` starts every cell from an existing stack's cluster settings.
Cells a profile cannot run (SR-IOV on L40S, more NICs than attached) are skipped with
the validation message; only a matrix with no valid cell at all is an input error.

Each valid cell is rendered by the mock engine first, which gives its variant
fingerprint (the same whether the cell then goes through Pulumi or not), then previewed or
brought up through the Automation API, or nothing more (``--offline``).

Modules: ``cells`` (vocabulary), ``matrix`` (flags and files to cells; a matrix with no valid
cell, or one deployed on the placeholder cluster, refused), ``runners`` (offline or Automation API,
and what ``--up`` asks first: cells side by side, one SSH key per fingerprint), ``table``
(results). The verbs are ``experiments.cli.sweep`` and, for ``--engine argo``, ``experiments.cli.incluster``.
"""
