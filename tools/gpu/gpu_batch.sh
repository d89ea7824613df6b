#!/usr/bin/env bash
# Several gpu_run.sh launches in one go, on a host where pip cannot reach an index: install the
# carried wheels, print the versions that matter, then each run under its own time limit, so that
# one run that hangs or fails still leaves the others' logs.
#
#   tools/gpu/gpu_batch.sh WHEEL_DIR OUT_DIR NAME:JOB_DIR:ARCH:LAYERS:SAMPLES:SECONDS[:COLUMNS[:NPROC]] ...
#
# COLUMNS: the console width of that run (80 shows the wrapping a pod without it gets; empty: the
# entrypoint's); NPROC: processes (GPUs) of that run (empty: the job's, capped at the GPUs present).
#
# WHEEL_DIR "-" installs nothing. Wheels go to /tmp/site (PYTHONPATH), never into the system;
# WHEEL_DIR/alt/ holds fallbacks tried when a package then fails to import (an older datasets
# for an older huggingface-hub). OUT_DIR gets each run's NAME.log, NAME.jsonl and summary.txt.
set -uo pipefail
[[ $# -ge 3 ]] || { sed -n '2,14p' "$0" >&2; exit 2; }
wheels=$1 out=$(realpath -m "$2")
shift 2
tools=$(dirname "$(realpath "$0")")
mkdir -p "$out"
summary=$out/summary.txt
: >"$summary"
export PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

if [[ "$wheels" != - ]]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site \
    "$wheels"/*.whl || exit 3
  export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
  if ! python3 -c 'import datasets' 2>>"$summary"; then
    echo "gpu_batch: datasets does not import; installing the fallback from $wheels/alt" | tee -a "$summary"
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site \
      "$wheels"/alt/*.whl || exit 3
  fi
fi
python3 - <<'PY' 2>&1 | tee -a "$summary"
import importlib.metadata as m
import torch
names = ["torch", "transformers", "tokenizers", "accelerate", "datasets", "trl", "instructlab-training",
         "huggingface-hub", "pyarrow", "fsspec", "pydantic", "rich"]
print("gpu_batch: " + ", ".join(f"{n} {m.version(n)}" for n in names))
print(f"gpu_batch: CUDA {torch.version.cuda}, NCCL {'.'.join(map(str, torch.cuda.nccl.version()))}, "
      f"{torch.cuda.device_count()} x {torch.cuda.get_device_name(0)}")
import instructlab.training.data_process, trl  # noqa: E401,F401  (fail here, not inside torchrun)
PY
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee -a "$summary"

failed=0
for spec in "$@"; do
  IFS=: read -r name job arch layers samples seconds columns nproc <<<"$spec"
  echo "gpu_batch: $name: $job $arch layers=$layers samples=$samples limit=${seconds}s nproc=${nproc:-job}" | tee -a "$summary"
  GPU_RUN_COLUMNS=${columns:-} timeout --kill-after=20 "$seconds" bash "$tools/gpu_run.sh" "$name" "$job" "$arch" "$layers" "$samples" "$out" ${nproc:+"$nproc"}
  status=$?
  cat "$out/$name.summary" >>"$summary" 2>/dev/null
  rm -f "$out/$name.summary"
  echo "gpu_batch: $name: status $status" | tee -a "$summary"
  ((status == 0)) || failed=1
done
exit "$failed"
