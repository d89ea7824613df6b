"""Measured runs and what is reported from them.

Modules: ``runlog_lines`` and ``runlog`` (the training log parser: total and linear), ``store`` (the
results database: versioned schema, read-only readers), ``record`` (a run recorded against its
stack's identity), ``runs`` (recorded runs beside the model and the study), ``report`` (Markdown
table and charts).
"""
