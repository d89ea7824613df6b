"""Command-line tools around the gpu-cluster program: offline preview, diff, sweeps, predictions."""
