#!/usr/bin/env bash
# Training pod launcher, run as `bash /mnt/workloads/entrypoint.sh`: the work is done by
# launch.py beside it (standard library Python 3.9+), which documents the environment it reads
# and its exit statuses; exec hands it this PID so torchrun, exec'd in turn, gets the signals.
here=$(dirname -- "${BASH_SOURCE[0]}")
exec python3 "$here/launch.py" "$@"
