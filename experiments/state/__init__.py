"""A stack's desired state, rendered offline, and what is derived from it.

Modules: ``preview`` (run the program offline; the preview document and its manifests),
``preview_notes`` (what the preview says it simulated), ``summary`` (the stack as the throughput
model sees it), ``diff`` and ``diff_text`` (semantic diff of two stacks), ``identity`` (the
variant's one fingerprint), ``golden`` (the readable golden documents), ``dependencies`` (the order
of resources read back from a preview document).
"""
