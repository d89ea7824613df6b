#!/usr/bin/env bash
# Training pod launcher: fix the secondary interfaces' addresses, wire NCCL to
# the RDMA devices behind them, then start torchrun with the hyperparameters of
# config.json. Shipped in a ConfigMap and run as `bash /mnt/workloads/entrypoint.sh`.
#
# Needs bash 4.4+ (mapfile -d), python3 (config.json parsing), iproute2 `ip`
# when a mapping file is used, and coreutils (mktemp, mkfifo, tee).
#
# Environment (set by the Kubernetes layer)
#   GPU_CLUSTER_VARIANT     pod | vnic | sriov | sriov-rdma. Informational, and
#                           checked against the settings below so a mislabelled
#                           run fails instead of measuring the wrong network.
#   NCCL_SOCKET_IFNAME      Comma list of the interfaces NCCL may use: the pod's
#                           secondary interfaces (net1,net2,...) for vnic, sriov
#                           and sriov-rdma; the primary one (eth0) for pod.
#   NODE_NAME               The node this pod runs on (downward API
#                           spec.nodeName); required with GPU_CLUSTER_IP_MAPPING.
#   GPU_CLUSTER_IP_MAPPING  Optional path of the node/interface/IP mapping file.
#                           One `node:hostif:netN:ip` per line, e.g.
#                           `worker-0:ens13:net1:10.241.1.4`; blank lines and
#                           lines starting with `#` are ignored. Each (node, netN)
#                           pair and each IP may appear only once.
#                           For every netN of NCCL_SOCKET_IFNAME this pod's line
#                           gives the address the interface must carry (the IPAM
#                           plugin hands out arbitrary addresses; the VPC only
#                           forwards the one it assigned to the vNIC/VF). The
#                           prefix length is kept from the interface's current
#                           address; GPU_CLUSTER_PREFIX_<netN> (non-alphanumerics
#                           in the name become `_`) overrides it and is required
#                           when the interface has no address. Peers on the same
#                           netN outside that prefix get `ip route replace
#                           <ip>/32 dev netN`; peers inside it are on-link.
#   GPU_CLUSTER_RDMA        1: export NCCL_IB_HCA with the RDMA device of each
#                           netN, in NCCL_SOCKET_IFNAME order, read from
#                           $SYSFS/class/net/<netN>/device/infiniband/ and
#                           written in NCCL's exact-match form `=mlx5_3,mlx5_1`
#                           (plain entries are prefixes: mlx5_1 would also pick
#                           mlx5_10..19); a user-set NCCL_IB_HCA is kept as is.
#                           Also NCCL_IB_DISABLE=0 and NCCL_IB_GID_INDEX
#                           (default 3, RoCE v2). Otherwise
#                           NCCL_IB_DISABLE defaults to 1 so a socket variant
#                           never drifts onto an RDMA device it happens to see.
#   GPU_CLUSTER_SYSFS       sysfs root for the lookup above (default /sys; tests).
#   CONFIG_JSON_PATH        JSON object of training hyperparameters (default
#                           /mnt/config/config.json; when that default is absent
#                           the program gets no arguments). Each key becomes an
#                           argument of the training program, in file order:
#                             "k": "v" / 3 / 2e-5   -> --k=v / --k=3 / --k=2e-5
#                                                      (numbers keep their text)
#                             "k": true             -> --k
#                             "k": false or null    -> (omitted)
#                             "k": ["a", 1]         -> --k a 1  (argparse nargs
#                                                      style; [] is omitted)
#                           Nested objects, and arrays holding arrays, objects
#                           or null, are errors.
#   TRAINING_MODULE         Run `torchrun ... -m TRAINING_MODULE args`, or
#   TRAINING_SCRIPT         run `torchrun ... TRAINING_SCRIPT args` (exactly one).
#   Node rank               PET_NODE_RANK, else RANK (Kubeflow PyTorchJob), else
#                           LWS_WORKER_INDEX (LeaderWorkerSet).
#   Node count              PET_NNODES, else NNODES, else WORLD_SIZE (`N` or an
#                           elastic `MIN:MAX`).
#   Processes per node      PET_NPROC_PER_NODE, else NPROC_PER_NODE (a count, or
#                           auto|gpu|cpu as torchrun accepts).
#   Rendezvous              MASTER_ADDR, else LWS_LEADER_ADDRESS; MASTER_PORT
#                           (default 29500). torchrun runs with
#                           --rdzv_backend=c10d --rdzv_endpoint=ADDR:PORT.
#   GPU_CLUSTER_EXPECT_TRANSPORT
#                           ib | socket | p2p | shm: tee torchrun's output to
#                           GPU_CLUSTER_LOG (default /tmp/torchrun.log), then run
#                           ${GPU_CLUSTER_WORKLOADS:-/mnt/workloads}/nccl_transport.py
#                           --expect X [--ifnames $NCCL_SOCKET_IFNAME] LOG on it
#                           (--ifnames only for socket: the checker refuses it
#                           otherwise). NCCL_DEBUG defaults to INFO for this.
#   GPU_CLUSTER_DATA_MESSAGES
#                           Optional messages JSONL (InstructLab's raw chat
#                           format), relative to the working directory: run
#                           InstructLab's own data step first, `python3 -m
#                           instructlab.training.data_process` with the
#                           config's --model_name_or_path (its tokenizer), into
#                           GPU_CLUSTER_DATA_OUT (default $TMPDIR/ilab-data,
#                           pod-local so that the nodes of one job never write
#                           one file together), and train on its data.jsonl:
#                           the config's --data_path is replaced. Unset: the
#                           config's data_path is already processed data.
#   GPU_CLUSTER_DATA_MAX_SEQ_LEN
#                           data_process's --max_seq_len (default 4096).
#   COLUMNS                 Console width for Rich, which main_ds logs through
#                           (default 240 here: off a terminal Rich wraps at 80,
#                           splitting each metrics line over several rows).
#   GPU_CLUSTER_DRY_RUN     1: print the ip, data step and torchrun commands
#                           instead of running them (the read-only `ip addr
#                           show` still runs).
#
# Exit status
#   2  launch configuration (missing or invalid variable, bad config.json)
#   3  address mapping (mapping file, interface addresses, ip failures)
#   4  RDMA device lookup
#   5  the data step (data_process failed or wrote no data.jsonl)
#   otherwise torchrun's status; with GPU_CLUSTER_EXPECT_TRANSPORT, torchrun's
#   status when it failed, else the transport assertion's (0 pass, 1 fail).
#
# Every step is planned and validated before the first `ip` change, so a bad
# setting never leaves an interface half-reconfigured.

set -euo pipefail

readonly E_CONFIG=2
readonly E_MAPPING=3
readonly E_RDMA=4
readonly E_DATA=5

info() { printf 'entrypoint: %s\n' "$*"; }
die() {
  local code=$1
  shift
  printf 'entrypoint: error: %s\n' "$*" >&2
  exit "$code"
}

# Print a command as a shell-quoted line.
quoted() {
  local out='' word
  for word in "$@"; do
    out+=" $(printf '%q' "$word")"
  done
  printf '%s' "${out# }"
}

dry_run=0
case "${GPU_CLUSTER_DRY_RUN:-0}" in
  1) dry_run=1 ;;
  0 | '') ;;
  *) die "$E_CONFIG" "GPU_CLUSTER_DRY_RUN must be 0 or 1, got '${GPU_CLUSTER_DRY_RUN}'" ;;
esac

# Run a state-changing ip command; failures are fatal with ip's own message.
run_ip() {
  if ((dry_run)); then
    info "dry-run: $(quoted ip "$@")"
    return 0
  fi
  local err
  if ! err=$(ip "$@" 2>&1); then
    die "$E_MAPPING" "'$(quoted ip "$@")' failed: ${err//$'\n'/ }"
  fi
}

# ---------------------------------------------------------------- settings --

variant=${GPU_CLUSTER_VARIANT:-}
case "$variant" in
  pod | vnic | sriov | sriov-rdma) info "variant $variant" ;;
  '') info "GPU_CLUSTER_VARIANT not set; skipping the variant checks" ;;
  *) die "$E_CONFIG" "GPU_CLUSTER_VARIANT must be pod, vnic, sriov or sriov-rdma, got '$variant'" ;;
esac

rdma=0
case "${GPU_CLUSTER_RDMA:-0}" in
  1) rdma=1 ;;
  0 | '') ;;
  *) die "$E_CONFIG" "GPU_CLUSTER_RDMA must be 0 or 1, got '${GPU_CLUSTER_RDMA}'" ;;
esac

mapping_file=${GPU_CLUSTER_IP_MAPPING:-}

ifnames=()
if [[ -n "${NCCL_SOCKET_IFNAME:-}" ]]; then
  IFS=',' read -r -a raw_ifnames <<<"$NCCL_SOCKET_IFNAME"
  for name in "${raw_ifnames[@]}"; do
    name=${name//[[:space:]]/}
    [[ -n "$name" ]] && ifnames+=("$name")
  done
fi

case "$variant" in
  pod)
    [[ -z "$mapping_file" ]] || die "$E_CONFIG" "variant pod uses the pod network; unset GPU_CLUSTER_IP_MAPPING"
    ((!rdma)) || die "$E_CONFIG" "variant pod has no RDMA devices; unset GPU_CLUSTER_RDMA"
    ;;
  vnic | sriov)
    ((!rdma)) || die "$E_CONFIG" "variant $variant runs NCCL over sockets; GPU_CLUSTER_RDMA=1 needs variant sriov-rdma"
    ;;
  sriov-rdma)
    ((rdma)) || die "$E_CONFIG" "variant sriov-rdma needs GPU_CLUSTER_RDMA=1"
    ;;
esac
if [[ "$variant" == vnic || "$variant" == sriov || "$variant" == sriov-rdma ]] && ((${#ifnames[@]} == 0)); then
  die "$E_CONFIG" "variant $variant needs NCCL_SOCKET_IFNAME (e.g. net1,net2)"
fi
if [[ -n "$mapping_file" || $rdma == 1 ]]; then
  ((${#ifnames[@]} > 0)) || die "$E_CONFIG" "GPU_CLUSTER_IP_MAPPING and GPU_CLUSTER_RDMA need NCCL_SOCKET_IFNAME"
  for name in "${ifnames[@]}"; do
    # NCCL also accepts `^prefix` and `=name` patterns; the mapping and the
    # sysfs lookup need the interfaces' real names.
    [[ "$name" =~ ^[A-Za-z0-9][A-Za-z0-9_.-]*$ ]] ||
      die "$E_CONFIG" "NCCL_SOCKET_IFNAME entry '$name' is not a plain interface name"
  done
fi

expect=${GPU_CLUSTER_EXPECT_TRANSPORT:-}
workloads_dir=${GPU_CLUSTER_WORKLOADS:-/mnt/workloads}
transport_checker="$workloads_dir/nccl_transport.py"
log_file=${GPU_CLUSTER_LOG:-/tmp/torchrun.log}
if [[ -n "$expect" ]]; then
  case "$expect" in
    ib | socket | p2p | shm) ;;
    *) die "$E_CONFIG" "GPU_CLUSTER_EXPECT_TRANSPORT must be ib, socket, p2p or shm, got '$expect'" ;;
  esac
  [[ -f "$transport_checker" ]] || die "$E_CONFIG" "transport checker $transport_checker not found (GPU_CLUSTER_WORKLOADS)"
  # The checker reads NCCL's INFO lines from torchrun's output.
  case "${NCCL_DEBUG:-}" in
    '') export NCCL_DEBUG=INFO ;;
    INFO | TRACE) ;;
    *) die "$E_CONFIG" "NCCL_DEBUG=${NCCL_DEBUG} hides the INFO lines the transport assertion reads; set INFO or unset it" ;;
  esac
  [[ -z "${NCCL_DEBUG_FILE:-}" ]] || die "$E_CONFIG" "NCCL_DEBUG_FILE sends NCCL's log away from torchrun's output; unset it for the transport assertion"
fi

# ------------------------------------------------------------- torchrun args --

first_set() {
  local var
  for var in "$@"; do
    if [[ -n "${!var:-}" ]]; then
      printf '%s' "$var"
      return 0
    fi
  done
  return 1
}

require() {
  local what=$1 var
  shift
  var=$(first_set "$@") || die "$E_CONFIG" "$what is not set (set one of: $*)"
  printf '%s' "$var"
}

rank_var=$(require "node rank" PET_NODE_RANK RANK LWS_WORKER_INDEX)
node_rank=${!rank_var}
[[ "$node_rank" =~ ^(0|[1-9][0-9]*)$ ]] || die "$E_CONFIG" "$rank_var must be a non-negative integer, got '$node_rank'"

nnodes_var=$(require "node count" PET_NNODES NNODES WORLD_SIZE)
nnodes=${!nnodes_var}
[[ "$nnodes" =~ ^[1-9][0-9]*(:[1-9][0-9]*)?$ ]] || die "$E_CONFIG" "$nnodes_var must be N or MIN:MAX, got '$nnodes'"
if [[ "$nnodes" != *:* ]] && ((node_rank >= nnodes)); then
  die "$E_CONFIG" "node rank $node_rank ($rank_var) is not below the node count $nnodes ($nnodes_var)"
fi

nproc_var=$(require "processes per node" PET_NPROC_PER_NODE NPROC_PER_NODE)
nproc=${!nproc_var}
[[ "$nproc" =~ ^([1-9][0-9]*|auto|gpu|cpu)$ ]] || die "$E_CONFIG" "$nproc_var must be a count or auto/gpu/cpu, got '$nproc'"

master_var=$(require "rendezvous address" MASTER_ADDR LWS_LEADER_ADDRESS)
master_addr=${!master_var}
master_port=${MASTER_PORT:-29500}
if ! [[ "$master_port" =~ ^[1-9][0-9]*$ ]] || ((master_port > 65535)); then
  die "$E_CONFIG" "MASTER_PORT must be a TCP port, got '$master_port'"
fi

if [[ -n "${TRAINING_MODULE:-}" && -n "${TRAINING_SCRIPT:-}" ]]; then
  die "$E_CONFIG" "set only one of TRAINING_MODULE and TRAINING_SCRIPT"
elif [[ -n "${TRAINING_MODULE:-}" ]]; then
  target=(-m "$TRAINING_MODULE")
elif [[ -n "${TRAINING_SCRIPT:-}" ]]; then
  target=("$TRAINING_SCRIPT")
else
  die "$E_CONFIG" "set TRAINING_MODULE or TRAINING_SCRIPT"
fi

workdir=$(mktemp -d "${TMPDIR:-/tmp}/entrypoint.XXXXXX")
trap 'rm -rf -- "$workdir"' EXIT

# Writes the program's arguments NUL-separated to argv[2]; numbers keep their
# literal text so 2e-5 reaches the program as written.
read -r -d '' config_to_args <<'PY' || true
import json, re, sys

path, out = sys.argv[1], sys.argv[2]

def fail(msg):
    print(f"entrypoint: error: {path}: {msg}", file=sys.stderr)
    sys.exit(1)

def reject_constant(name):
    raise ValueError(f"{name} is not valid JSON")

def scalar(key, value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    fail(f"key '{key}': arrays may only hold strings, numbers and booleans")

try:
    with open(path, encoding="utf-8") as handle:
        config = json.load(handle, parse_int=str, parse_float=str,
                           parse_constant=reject_constant)
except (OSError, ValueError) as exc:
    fail(f"cannot read JSON: {exc}")
if not isinstance(config, dict):
    fail("the top level must be a JSON object of hyperparameters")

args = []
for key, value in config.items():
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", key):
        fail(f"key '{key}' is not a plain option name")
    if isinstance(value, dict):
        fail(f"key '{key}': nested objects are not supported")
    if value is None or value is False:
        continue
    if value is True:
        args.append(f"--{key}")
    elif isinstance(value, list):
        if value:
            args.append(f"--{key}")
            args.extend(scalar(key, item) for item in value)
    else:
        args.append(f"--{key}={value}")
for arg in args:
    if "\0" in arg:
        fail("values must not contain NUL characters")
with open(out, "w", encoding="utf-8") as handle:
    handle.write("".join(arg + "\0" for arg in args))
PY

config_path=${CONFIG_JSON_PATH:-/mnt/config/config.json}
training_args=()
if [[ -z "${CONFIG_JSON_PATH:-}" && ! -e "$config_path" ]]; then
  info "no $config_path; the training program gets no arguments"
else
  [[ -f "$config_path" ]] || die "$E_CONFIG" "config file $config_path not found (CONFIG_JSON_PATH)"
  command -v python3 >/dev/null || die "$E_CONFIG" "python3 is needed to read $config_path"
  python3 -c "$config_to_args" "$config_path" "$workdir/args" || exit "$E_CONFIG"
  mapfile -d '' -t training_args <"$workdir/args"
  info "${#training_args[@]} training argument(s) from $config_path"
fi

# -------------------------------------------------------------- data step --

messages=${GPU_CLUSTER_DATA_MESSAGES:-}
data_cmd=()
if [[ -n "$messages" ]]; then
  [[ -n "${TRAINING_MODULE:-}" ]] || die "$E_CONFIG" "GPU_CLUSTER_DATA_MESSAGES needs TRAINING_MODULE (InstructLab's data step feeds main_ds)"
  max_seq_len=${GPU_CLUSTER_DATA_MAX_SEQ_LEN:-4096}
  [[ "$max_seq_len" =~ ^[1-9][0-9]{0,6}$ ]] || die "$E_CONFIG" "GPU_CLUSTER_DATA_MAX_SEQ_LEN must be a positive integer, got '$max_seq_len'"
  data_out=${GPU_CLUSTER_DATA_OUT:-${TMPDIR:-/tmp}/ilab-data}
  model=''
  data_index=-1
  for i in "${!training_args[@]}"; do
    case "${training_args[i]}" in
      --model_name_or_path=*) model=${training_args[i]#--model_name_or_path=} ;;
      --data_path=*) data_index=$i ;;
    esac
  done
  [[ -n "$model" ]] || die "$E_CONFIG" "the data step needs model_name_or_path in $config_path (its tokenizer)"
  if ((data_index >= 0)); then
    info "data step: training on $data_out/data.jsonl instead of ${training_args[data_index]#--data_path=}"
    training_args[data_index]="--data_path=$data_out/data.jsonl"
  else
    training_args+=("--data_path=$data_out/data.jsonl")
  fi
  data_cmd=(python3 -m instructlab.training.data_process "--data_path=$messages" "--data_output_path=$data_out"
    "--max_seq_len=$max_seq_len" "--model_name_or_path=$model")
  if ((!dry_run)); then
    [[ -f "$messages" ]] || die "$E_CONFIG" "messages file $messages not found (GPU_CLUSTER_DATA_MESSAGES, relative to $PWD)"
  fi
fi
export COLUMNS=${COLUMNS:-240}

torchrun_cmd=(
  torchrun
  "--nnodes=$nnodes"
  "--nproc_per_node=$nproc"
  "--node_rank=$node_rank"
  --rdzv_backend=c10d
  "--rdzv_endpoint=$master_addr:$master_port"
  "${target[@]}"
  "${training_args[@]}"
)
if ((!dry_run)); then
  command -v torchrun >/dev/null || die "$E_CONFIG" "torchrun not found on PATH"
fi

# ------------------------------------------------------------ RDMA devices --

if ((rdma)); then
  if [[ -n "${NCCL_IB_HCA:-}" ]]; then
    info "keeping NCCL_IB_HCA=$NCCL_IB_HCA set by the user"
  else
    sysfs=${GPU_CLUSTER_SYSFS:-/sys}
    hcas=()
    for name in "${ifnames[@]}"; do
      # The VF's PCI device lists its RDMA device; the kernel numbers mlx5_N
      # in probe order, so no arithmetic on N survives a reordering.
      ib_dir="$sysfs/class/net/$name/device/infiniband"
      devices=()
      if [[ -d "$ib_dir" ]]; then
        for entry in "$ib_dir"/*; do
          [[ -e "$entry" ]] && devices+=("${entry##*/}")
        done
      fi
      case ${#devices[@]} in
        1) hcas+=("${devices[0]}") ;;
        0) die "$E_RDMA" "interface $name has no RDMA device (nothing under $ib_dir)" ;;
        *) die "$E_RDMA" "interface $name has several RDMA devices (${devices[*]}) under $ib_dir" ;;
      esac
      info "$name: RDMA device ${devices[0]}"
    done
    # The leading `=` makes NCCL match these names exactly; plain entries are
    # prefixes, and mlx5_1 would also pick mlx5_10..mlx5_19.
    NCCL_IB_HCA="=$(IFS=','; printf '%s' "${hcas[*]}")"
    export NCCL_IB_HCA
  fi
  export NCCL_IB_DISABLE=0
  export NCCL_IB_GID_INDEX=${NCCL_IB_GID_INDEX:-3}
else
  export NCCL_IB_DISABLE=${NCCL_IB_DISABLE:-1}
fi

# --------------------------------------------------------- address mapping --

valid_ipv4() {
  local octet='(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
  [[ "$1" =~ ^$octet\.$octet\.$octet\.$octet$ ]]
}

ipv4_to_int() {
  local a b c d
  IFS=. read -r a b c d <<<"$1"
  printf '%d' $(((a << 24) | (b << 16) | (c << 8) | d))
}

int_to_ipv4() {
  local n=$1
  printf '%d.%d.%d.%d' $(((n >> 24) & 255)) $(((n >> 16) & 255)) $(((n >> 8) & 255)) $((n & 255))
}

prefix_mask() {
  local len=$1
  if ((len == 0)); then printf '0'; else printf '%d' $(((0xFFFFFFFF << (32 - len)) & 0xFFFFFFFF)); fi
}

# Parallel arrays, one entry per mapping line; plan_* arrays, one per interface.
map_node=() map_hostif=() map_if=() map_ip=() map_lineno=()
plan_if=() plan_ip=() plan_prefix=() plan_stale=() plan_needs_add=() plan_routes=()

read_mapping() {
  [[ -f "$mapping_file" ]] || die "$E_MAPPING" "mapping file $mapping_file not found (GPU_CLUSTER_IP_MAPPING)"
  local lineno=0 line node hostif netif ip
  local -A seen_pair=() seen_ip=()
  local field='[^:[:space:]]+'
  while IFS= read -r line || [[ -n "$line" ]]; do
    lineno=$((lineno + 1))
    line=${line%$'\r'}
    line="${line#"${line%%[![:space:]]*}"}"
    line="${line%"${line##*[![:space:]]}"}"
    [[ -z "$line" || "$line" == \#* ]] && continue
    [[ "$line" =~ ^($field):($field):($field):($field)$ ]] ||
      die "$E_MAPPING" "$mapping_file:$lineno: expected node:hostif:netN:ip, got '$line'"
    node=${BASH_REMATCH[1]} hostif=${BASH_REMATCH[2]} netif=${BASH_REMATCH[3]} ip=${BASH_REMATCH[4]}
    valid_ipv4 "$ip" || die "$E_MAPPING" "$mapping_file:$lineno: '$ip' is not a dotted-quad IPv4 address"
    [[ -z "${seen_pair[$node/$netif]:-}" ]] ||
      die "$E_MAPPING" "$mapping_file:$lineno: node $node interface $netif is duplicated (first on line ${seen_pair[$node/$netif]})"
    [[ -z "${seen_ip[$ip]:-}" ]] ||
      die "$E_MAPPING" "$mapping_file:$lineno: address $ip is already used on line ${seen_ip[$ip]}"
    seen_pair[$node/$netif]=$lineno
    seen_ip[$ip]=$lineno
    map_node+=("$node") map_hostif+=("$hostif") map_if+=("$netif") map_ip+=("$ip") map_lineno+=("$lineno")
  done <"$mapping_file"
}

# Print the IPv4 addresses (addr/len) found in `ip -o -4 addr show` output,
# primary first.
inet_words() {
  local line word take
  while IFS= read -r line; do
    take=0
    for word in $line; do
      if ((take)); then
        printf '%s\n' "$word"
        break
      fi
      [[ "$word" == inet ]] && take=1
    done
  done <<<"$1"
}

plan_interface() {
  local name=$1 i own=-1 addresses=() address prefix='' stale=() needs_add=1 routes=()
  for i in "${!map_node[@]}"; do
    [[ "${map_node[i]}" == "$NODE_NAME" && "${map_if[i]}" == "$name" ]] && own=$i
  done
  ((own >= 0)) || die "$E_MAPPING" "no line for node $NODE_NAME interface $name in $mapping_file"
  local correct=${map_ip[own]}

  local shown
  if ! shown=$(ip -o -4 addr show dev "$name" 2>&1); then
    die "$E_MAPPING" "cannot read the addresses of interface $name: ${shown//$'\n'/ }"
  fi
  mapfile -t addresses < <(inet_words "$shown")
  for address in "${addresses[@]}"; do
    if ! valid_ipv4 "${address%/*}" || ! [[ "$address" =~ /(3[0-2]|[12]?[0-9])$ ]]; then
      die "$E_MAPPING" "interface $name reports an unexpected address '$address'"
    fi
  done

  local override_var="GPU_CLUSTER_PREFIX_${name//[^A-Za-z0-9]/_}"
  if [[ -n "${!override_var:-}" ]]; then
    prefix=${!override_var}
    [[ "$prefix" =~ ^(3[0-2]|[12]?[0-9])$ ]] || die "$E_MAPPING" "$override_var must be a prefix length 0-32, got '$prefix'"
  elif ((${#addresses[@]} > 0)); then
    prefix=${addresses[0]#*/}
  else
    die "$E_MAPPING" "interface $name has no IPv4 address to take the prefix length from; set $override_var"
  fi

  for address in "${addresses[@]}"; do
    if [[ "$address" == "$correct/$prefix" ]]; then
      needs_add=0
    else
      stale+=("$address")
    fi
  done

  local mask own_net peer
  mask=$(prefix_mask "$prefix")
  own_net=$(($(ipv4_to_int "$correct") & mask))
  for i in "${!map_node[@]}"; do
    [[ "${map_if[i]}" == "$name" && "${map_node[i]}" != "$NODE_NAME" ]] || continue
    peer=${map_ip[i]}
    if ((($(ipv4_to_int "$peer") & mask) != own_net)); then
      routes+=("$peer=${map_node[i]}")
    fi
  done

  plan_if+=("$name")
  plan_ip+=("$correct")
  plan_prefix+=("$prefix")
  plan_stale+=("${stale[*]}")
  plan_needs_add+=("$needs_add")
  plan_routes+=("${routes[*]}")
  info "$name: node $NODE_NAME host interface ${map_hostif[own]} wants $correct/$prefix" \
    "(current: ${addresses[*]:-none}; subnet $(int_to_ipv4 "$own_net")/$prefix)"
}

apply_plan() {
  local i name address route peer node stale routes
  for i in "${!plan_if[@]}"; do
    name=${plan_if[i]}
    read -r -a stale <<<"${plan_stale[i]}"
    # Delete before adding: removing a primary address also drops secondaries
    # of the same subnet unless promote_secondaries is on.
    for address in "${stale[@]}"; do
      run_ip addr del "$address" dev "$name"
    done
    if ((plan_needs_add[i])); then
      run_ip addr add "${plan_ip[i]}/${plan_prefix[i]}" dev "$name"
      run_ip link set "$name" up
      info "$name: set ${plan_ip[i]}/${plan_prefix[i]}"
    else
      info "$name: ${plan_ip[i]}/${plan_prefix[i]} already set"
    fi
    read -r -a routes <<<"${plan_routes[i]}"
    for route in "${routes[@]}"; do
      peer=${route%%=*} node=${route#*=}
      run_ip route replace "$peer/32" dev "$name"
      info "$name: route $peer/32 to node $node"
    done
    ((${#routes[@]} > 0)) || info "$name: every peer is inside ${plan_ip[i]}/${plan_prefix[i]}; no routes"
  done
}

if [[ -n "$mapping_file" ]]; then
  [[ -n "${NODE_NAME:-}" ]] || die "$E_CONFIG" "NODE_NAME is not set (downward API spec.nodeName); GPU_CLUSTER_IP_MAPPING needs it"
  read_mapping
  for name in "${ifnames[@]}"; do
    plan_interface "$name"
  done
  apply_plan
fi

# ------------------------------------------------------------------ launch --

for var in NCCL_SOCKET_IFNAME NCCL_IB_DISABLE NCCL_IB_HCA NCCL_IB_GID_INDEX NCCL_DEBUG; do
  [[ -n "${!var:-}" ]] && info "$var=${!var}"
done

if ((${#data_cmd[@]})); then
  if ((dry_run)); then
    info "dry-run: $(quoted "${data_cmd[@]}")"
  else
    info "data step: $(quoted "${data_cmd[@]}")"
    "${data_cmd[@]}" || die "$E_DATA" "the data step failed (status $?): $(quoted "${data_cmd[@]}")"
    [[ -s "$data_out/data.jsonl" ]] || die "$E_DATA" "the data step wrote no $data_out/data.jsonl"
  fi
fi

if ((dry_run)); then
  info "dry-run: $(quoted "${torchrun_cmd[@]}")"
  exit 0
fi
info "launching: $(quoted "${torchrun_cmd[@]}")"

if [[ -z "$expect" ]]; then
  # exec hands PID 1 to torchrun, which forwards SIGTERM to its workers.
  rm -rf -- "$workdir"
  trap - EXIT
  exec "${torchrun_cmd[@]}"
fi

# With the assertion the shell must outlive torchrun, so it forwards the
# termination signals itself (bash as PID 1 would otherwise sit on them).
signalled=0
last_signal=''
torchrun_pid=''
# shellcheck disable=SC2317  # called from the traps below
forward() {
  signalled=1
  last_signal=$1
  [[ -z "$torchrun_pid" ]] || kill -s "$1" "$torchrun_pid" 2>/dev/null || true
}
trap 'forward TERM' TERM
trap 'forward INT' INT

fifo="$workdir/torchrun.out"
mkfifo -- "$fifo"
: >"$log_file" || die "$E_CONFIG" "cannot write the log $log_file (GPU_CLUSTER_LOG)"
tee -- "$log_file" <"$fifo" &
tee_pid=$!
"${torchrun_cmd[@]}" >"$fifo" 2>&1 &
torchrun_pid=$!
# A signal that came while torchrun was being started is passed on now.
[[ -z "$last_signal" ]] || kill -s "$last_signal" "$torchrun_pid" 2>/dev/null || true

set +e
wait "$torchrun_pid"
torchrun_rc=$?
# A trapped signal interrupts wait before torchrun has exited; wait again
# (bash keeps the status, so a second wait after a real exit returns it too).
while ((signalled)); do
  signalled=0
  wait "$torchrun_pid"
  torchrun_rc=$?
done
wait "$tee_pid"
set -e
trap - TERM INT

if ((torchrun_rc != 0)); then
  die "$torchrun_rc" "torchrun exited with $torchrun_rc; transport assertion skipped (log: $log_file)"
fi
info "torchrun finished; checking the NCCL transport is $expect"
checker_cmd=(python3 "$transport_checker" --expect "$expect")
# The checker only accepts --ifnames with --expect socket: for the others the
# interface list says nothing about which transport carried the data.
if [[ "$expect" == socket && -n "${NCCL_SOCKET_IFNAME:-}" ]]; then
  checker_cmd+=(--ifnames "$NCCL_SOCKET_IFNAME")
fi
checker_cmd+=("$log_file")
info "running: $(quoted "${checker_cmd[@]}")"
checker_rc=0
"${checker_cmd[@]}" || checker_rc=$?
if ((checker_rc == 0)); then
  info "transport assertion passed ($expect)"
else
  printf 'entrypoint: error: transport assertion failed (expected %s, status %d, log %s)\n' \
    "$expect" "$checker_rc" "$log_file" >&2
fi
exit "$checker_rc"
