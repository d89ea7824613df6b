"""Files shipped into the training pods, flat in one ConfigMap (entrypoint.sh and the launcher it execs,
the NCCL benchmark and transport checker, each with its helper module); importable so the experiment
tools reuse their parsers. Run as files in the pod, the entry modules serve their folder as this
package, so ``from workloads.x import y`` reads the same in the pod and in the repo."""
