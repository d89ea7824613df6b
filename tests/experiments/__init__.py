"""Tests of experiments/: the CLI, preview, diff, sweep, throughput model and report."""
