"""Tests of workloads/: the pod entrypoint and the NCCL tools, on real logs."""
