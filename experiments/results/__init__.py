"""Measured runs and what is reported from them.

Modules: ``runlog_lines`` and ``runlog`` (the training log parser: total and linear), ``store`` (the
results database: its schema, the header checks that refuse a foreign, newer or corrupt file,
read-only readers, one insert path), ``transfer`` (export and idempotent import),
``record`` (a run recorded against its stack's identity), ``runs`` (recorded runs beside the model
and the study), ``report`` (Markdown table and charts).
"""
