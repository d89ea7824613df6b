#!/usr/bin/env bash
# Launch a rendered training job (tools/gpu/render_job.py) on this host's GPUs, through the
# job's own workloads/entrypoint.sh, exactly as the pod would run it, with only what a host
# without Kubernetes lacks supplied here. Nothing is downloaded: the model is built with random
# weights (make_model.py), the data generated in the study's shape (make_data.py) and processed
# by InstructLab's data step inside the entrypoint.
#
#   tools/gpu/gpu_run.sh NAME JOB_DIR ARCH LAYERS SAMPLES OUT_DIR [NPROC]
#
#   NAME     run name: OUT_DIR/NAME.log (console), NAME.jsonl (main_ds's rank-0 metrics),
#            NAME.summary (GPU memory peak, sizes, status)
#   JOB_DIR  config.json, workloads/, job.env as render_job.py writes them
#   ARCH     tools/gpu/*.json architecture; LAYERS overrides its layer count ("-": keep)
#   SAMPLES  generated samples (the study: 9872)
#   NPROC    processes (GPUs); default: the job's NPROC_PER_NODE, capped at the GPUs present
#            (CUDA_VISIBLE_DEVICES, when set, says which and how many)
#
# GPU_RUN_SET="NAME=VALUE ..." overrides the job's environment for this launch only (after job.env),
# e.g. GPU_CLUSTER_EQUAL_MINIBATCHES=0 to reproduce main_ds's uneven-minibatch hang.
#
# What a pod gets from Kubernetes and this host supplies (README, "GPU proof"):
#   PET_NODE_RANK=0, MASTER_ADDR=127.0.0.1 (the operator's), the working directory (the claim),
#   NCCL_SOCKET_IFNAME=lo (one host: NCCL's bootstrap needs an interface, the data goes over
#   NVLink/PCIe, never the socket), and NVLink multicast off (NCCL_NVLS_ENABLE=0 and friends),
#   which this lab's machines require. GPU_RUN_COLUMNS sets the console width (unset: the
#   entrypoint's default); WORK_ROOT (default /tmp/gpu-run) holds model, data and checkpoints.
set -euo pipefail

[[ $# -ge 6 ]] || { sed -n '2,30p' "$0" >&2; exit 2; }
name=$1 job=$(realpath "$2") arch=$(realpath "$3") layers=$4 samples=$5 out=$(realpath -m "$6")
tools=$(dirname "$(realpath "$0")")
mkdir -p "$out"
work=${WORK_ROOT:-/tmp/gpu-run}/$name
rm -rf "$work"
mkdir -p "$work"

# shellcheck disable=SC1091
source "$job/job.env"
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
if [[ -n "${CUDA_VISIBLE_DEVICES:-}" ]]; then
  IFS=, read -ra visible <<<"$CUDA_VISIBLE_DEVICES"
  gpus=${#visible[@]}
fi
for setting in ${GPU_RUN_SET:-}; do
  echo "gpu_run: $setting (this launch only)"
  export "${setting?}"
done
nproc=${7:-$NPROC_PER_NODE}
if ((gpus > 0 && nproc > gpus)); then
  echo "gpu_run: the job asks for $nproc processes per node; this host has $gpus GPU(s): running $gpus" >&2
  nproc=$gpus
fi
export PET_NODE_RANK=0 PET_NNODES=1 PET_NPROC_PER_NODE=$nproc NPROC_PER_NODE=$nproc
export MASTER_ADDR=127.0.0.1 MASTER_PORT=${MASTER_PORT:-29500}
export NCCL_SOCKET_IFNAME=lo NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export CONFIG_JSON_PATH=$job/config.json GPU_CLUSTER_WORKLOADS=$job/workloads
export GPU_CLUSTER_DATA_MESSAGES=messages.jsonl GPU_CLUSTER_DATA_OUT=$work/processed
export PYTHONUNBUFFERED=1 TMPDIR=$work
[[ -z "${GPU_RUN_COLUMNS:-}" ]] || export COLUMNS=$GPU_RUN_COLUMNS

model=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["model_name_or_path"])' "$job/config.json")
output_dir=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["output_dir"])' "$job/config.json")
layer_args=()
[[ "$layers" == - ]] || layer_args=(--layers "$layers")
cd "$work"
start=$(date +%s)
python3 "$tools/make_model.py" --arch "$arch" "${layer_args[@]}" "$model" 2>&1 | grep -v Writing | tee "$out/$name.summary"
python3 "$tools/make_data.py" --samples "$samples" messages.jsonl | tee -a "$out/$name.summary"

nvidia-smi ${CUDA_VISIBLE_DEVICES:+--id=$CUDA_VISIBLE_DEVICES} --query-gpu=memory.used --format=csv,noheader,nounits \
  -lms 500 >"$work/memory.csv" 2>/dev/null &
free -m | awk '/^Mem:/ {print $3}' >"$work/host.csv"
( while sleep 2; do free -m | awk '/^Mem:/ {print $3}'; done >>"$work/host.csv" ) &
host_sampler=$!
sampler=$!
status=0
bash "$job/workloads/entrypoint.sh" >"$out/$name.log" 2>&1 || status=$?
kill "$sampler" "$host_sampler" 2>/dev/null || true
wait "$sampler" "$host_sampler" 2>/dev/null || true
peak=$(sort -n "$work/memory.csv" 2>/dev/null | tail -1)
host_peak=$(sort -n "$work/host.csv" 2>/dev/null | tail -1)
host_base=$(head -1 "$work/host.csv" 2>/dev/null)
cp "$output_dir/training_params_and_metrics_global0.jsonl" "$out/$name.jsonl" 2>/dev/null ||
  echo "gpu_run: no metrics JSONL in $work/$output_dir" | tee -a "$out/$name.summary"
{
  echo "gpu_run: $name: entrypoint status $status after $(($(date +%s) - start)) s, $nproc process(es)"
  echo "gpu_run: peak GPU memory in use (nvidia-smi, sampled every 0.5 s, per GPU, the largest): ${peak:-unknown} MiB"
  echo "gpu_run: host memory in use (free, every 2 s): ${host_base:-?} MiB at the start, peak ${host_peak:-?} MiB"
} | tee -a "$out/$name.summary"
tail -n 5 "$out/$name.log"
rm -rf "$work"
exit "$status"
