"""Files shipped into the training pods (entrypoint, NCCL benchmark and transport checker, the proof
workload); importable so the experiment tools reuse their parsers."""
