#!/usr/bin/env bash
# Several lab runs in one go on a GPU host where pip cannot reach an index: install the carried
# wheels (instructlab-training and what it needs, pyroute2), say what the host has, then each run
# under its own time limit, so that one that fails still leaves the others' logs.
#
#   tools/lab/batch.sh WHEEL_DIR JOBS_DIR OUT_DIR "NAME STACK [python3 -m tools.lab options]" ...
#
# WHEEL_DIR "-" installs nothing (wheels go to /tmp/site, never into the system). JOBS_DIR holds one
# folder per stack as `python -m tools.lab.render` writes it. OUT_DIR gets each run's logs, metrics
# and NAME.lab.json, and summary.txt.
set -uo pipefail
[[ $# -ge 4 ]] || { sed -n '2,10p' "$0" >&2; exit 2; }
wheels=$1 jobs=$(realpath "$2") out=$(realpath -m "$3")
shift 3
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
summary=$out/summary.txt
export PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
if [[ "$wheels" != - ]]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site \
    "$wheels"/*.whl || exit 3
  export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
fi
{
  python3 -c 'import torch, pyroute2, instructlab.training, transformers
print(f"lab batch: torch {torch.__version__}, CUDA {torch.version.cuda}, NCCL {torch.cuda.nccl.version()}, "
      f"transformers {transformers.__version__}, pyroute2 {pyroute2.__version__}, "
      f"{torch.cuda.device_count()} x {torch.cuda.get_device_name(0)}")'
  echo "lab batch: kernel $(uname -r); ip: $(command -v ip || echo none); netem in /proc/config.gz: $(zcat /proc/config.gz 2>/dev/null | grep -E '^(# )?CONFIG_NET_SCH_NETEM' || echo unknown)"
} 2>&1 | tee -a "$summary"
failed=0
for spec in "$@"; do
  read -r name stack options <<<"$spec"
  echo "lab batch: $name: $stack $options" | tee -a "$summary"
  start=$(date +%s)
  # shellcheck disable=SC2086
  (cd "$root" && timeout --kill-after=30 600 python3 -m tools.lab "$jobs/$stack" --name "$name" --out "$out" $options) \
    >"$out/$name.lab.log" 2>&1
  status=$?
  grep -E '^lab: (link|ilab-|this kernel|every node|fault)' "$out/$name.lab.log" | tee -a "$summary"
  echo "lab batch: $name: status $status after $(($(date +%s) - start)) s" | tee -a "$summary"
  ((status == 0)) || failed=1
done
exit "$failed"
