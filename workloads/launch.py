"""Training pod launcher: fix the secondary interfaces' addresses, wire NCCL to the RDMA devices
behind them, run InstructLab's data step if asked, then start torchrun with the hyperparameters of
config.json. Shipped in the workloads ConfigMap with the ``launch_*`` modules it imports and run by
``bash /mnt/workloads/entrypoint.sh`` as ``python3 launch.py``.

Needs Python 3.9+ (standard library only) and iproute2 ``ip`` when a mapping file is used. The
modules: ``launch_env`` (settings), ``launch_program`` (config.json, data step), ``launch_net``
(interfaces, RDMA devices, addresses, routes), ``launch_reach`` (the rendezvous between the
nodes), ``launch_run`` (torchrun, the transport watch and assertion), ``launch_messages`` (exit
statuses, output). Each is one concern of the launch, split by concept, not size;
this file keeps the environment contract and the order of the steps.

Environment (set by the Kubernetes layer)
  GPU_CLUSTER_VARIANT     pod | vnic | sriov | sriov-rdma. Informational, and
                          checked against the settings below so a mislabelled
                          run fails instead of measuring the wrong network.
  NCCL_SOCKET_IFNAME      Comma list of the interfaces NCCL may use: the pod's
                          secondary interfaces (net1,net2,...) for vnic, sriov
                          and sriov-rdma; the primary one (eth0) for pod.
  NODE_NAME               The node this pod runs on (downward API
                          spec.nodeName); required with GPU_CLUSTER_IP_MAPPING.
  GPU_CLUSTER_IP_MAPPING  Optional path of the node/interface/IP mapping file.
                          One `node:hostif:netN:ip` per line, e.g.
                          `worker-0:ens13:net1:10.241.1.4`; blank lines and
                          lines starting with `#` are ignored. Each (node, netN)
                          pair and each IP may appear only once.
                          For every netN of NCCL_SOCKET_IFNAME this pod's line
                          gives the address the interface must carry (the IPAM
                          plugin hands out arbitrary addresses; the VPC only
                          forwards the one it assigned to the vNIC/VF). The
                          prefix length is kept from the interface's current
                          address; GPU_CLUSTER_PREFIX_<netN> (non-alphanumerics
                          in the name become `_`) overrides it and is required
                          when the interface has no address. Peers on the same
                          netN outside that prefix get `ip route replace
                          <ip>/32 dev netN`; peers inside it are on-link.
  GPU_CLUSTER_RDMA        1: export NCCL_IB_HCA with the RDMA device of each
                          netN, in NCCL_SOCKET_IFNAME order, read from
                          $SYSFS/class/net/<netN>/device/infiniband/ and
                          written in NCCL's exact-match form `=mlx5_3,mlx5_1`
                          (plain entries are prefixes: mlx5_1 would also pick
                          mlx5_10..19); a user-set NCCL_IB_HCA is kept as is.
                          Also NCCL_IB_DISABLE=0 and NCCL_IB_GID_INDEX
                          (default 3, RoCE v2). Otherwise
                          NCCL_IB_DISABLE defaults to 1 so a socket variant
                          never drifts onto an RDMA device it happens to see.
  GPU_CLUSTER_SYSFS       sysfs root for the lookup above (default /sys; tests).
  CONFIG_JSON_PATH        JSON object of training hyperparameters (default
                          /mnt/config/config.json; when that default is absent
                          the program gets no arguments). Each key becomes an
                          argument of the training program, in file order:
                            "k": "v" / 3 / 2e-5   -> --k=v / --k=3 / --k=2e-5
                                                     (numbers keep their text)
                            "k": true             -> --k
                            "k": false or null    -> (omitted)
                            "k": ["a", 1]         -> --k a 1  (argparse nargs
                                                     style; [] is omitted)
                          Nested objects, and arrays holding arrays, objects
                          or null, are errors.
  TRAINING_MODULE         Run `torchrun ... -m TRAINING_MODULE args`, or
  TRAINING_SCRIPT         run `torchrun ... TRAINING_SCRIPT args` (exactly one).
  Node rank               PET_NODE_RANK, else RANK (Kubeflow PyTorchJob), else
                          LWS_WORKER_INDEX (LeaderWorkerSet).
  Node count              PET_NNODES, else NNODES, else WORLD_SIZE (`N` or an
                          elastic `MIN:MAX`).
  Processes per node      PET_NPROC_PER_NODE, else NPROC_PER_NODE (a count, or
                          auto|gpu|cpu as torchrun accepts).
  Rendezvous              MASTER_ADDR, else LWS_LEADER_ADDRESS; MASTER_PORT
                          (default 29500). torchrun runs with
                          --rdzv_backend=c10d --rdzv_endpoint=ADDR:PORT.
  GPU_CLUSTER_EXPECT_TRANSPORT
                          ib | socket | p2p | shm: tee torchrun's output to
                          GPU_CLUSTER_LOG (default /tmp/torchrun.log), then run
                          ${GPU_CLUSTER_WORKLOADS:-/mnt/workloads}/nccl_transport.py
                          --expect X [--ifnames $NCCL_SOCKET_IFNAME] LOG on it
                          (--ifnames only for socket: the checker refuses it
                          otherwise). NCCL_DEBUG defaults to INFO for this.
  GPU_CLUSTER_DATA_MESSAGES
                          Optional messages JSONL (InstructLab's raw chat
                          format), relative to the working directory: run
                          InstructLab's own data step first, `python3 -m
                          instructlab.training.data_process` with the
                          config's --model_name_or_path (its tokenizer), into
                          GPU_CLUSTER_DATA_OUT (default $TMPDIR/ilab-data,
                          pod-local so that the nodes of one job never write
                          one file together), and train on its data.jsonl:
                          the config's --data_path is replaced. Unset: the
                          config's data_path is already processed data.
  GPU_CLUSTER_DATA_MAX_SEQ_LEN
                          data_process's --max_seq_len (default 4096).
  COLUMNS                 Console width for Rich, which main_ds logs through
                          (default 240 here: off a terminal Rich wraps at 80,
                          splitting each metrics line over several rows).
  GPU_CLUSTER_STALL_SECONDS
                          With TRAINING_MODULE instructlab.training.main_ds,
                          torchrun runs main_ds_guard.py beside this file,
                          which gives every rank the same number of padded
                          minibatches per step (main_ds 0.16.2 deals them out
                          unevenly without flash attention, and the ranks then
                          wait in different collectives forever) and stops a
                          rank that starts no phase of the training loop for
                          this many seconds, naming the step and the collective
                          (docs/training.md). torchrun's output is then teed to
                          GPU_CLUSTER_LOG and the stop is the last error line.
                          A whole number of seconds, 1 to 604800; anything
                          else stops the launch (status 2). A checkpoint save
                          is held to GPU_CLUSTER_SAVE_SECONDS instead.
                          Sets INSTRUCTLAB_NCCL_TIMEOUT_MS (the longer limit +
                          120 s) and TORCH_NCCL_TRACE_BUFFER_SIZE (2000) unless
                          set; with
                          --cpu_offload_params_fsdp, OMP_NUM_THREADS (unless
                          set) to the pod's CPUs / processes per node.
  GPU_CLUSTER_SAVE_SECONDS
                          With GPU_CLUSTER_STALL_SECONDS: the limit of one
                          checkpoint save of main_ds, the final one included
                          (default 4 x the stall limit; 1 to 2419200).
  GPU_CLUSTER_EQUAL_MINIBATCHES
                          0: leave main_ds's padded minibatches uneven (only to
                          reproduce the hang; default 1).
  GPU_CLUSTER_RENDEZVOUS_TIMEOUT
                          Seconds a worker (node rank > 0) waits for the
                          master's rendezvous port (MASTER_ADDR:MASTER_PORT)
                          to answer before torchrun, after its data step
                          (default 900; 0: no rendezvous checks). On node
                          rank 0, MASTER_ADDR must be this node: its
                          hostname or one of its addresses (torch's c10d
                          hosts the store only there). Jobs of one node are
                          not checked.
  GPU_CLUSTER_DRY_RUN     1: print the ip, data step and torchrun commands
                          instead of running them (the read-only `ip addr
                          show` still runs).

Exit status
  2  launch configuration (missing or invalid variable, bad config.json)
  3  address mapping (mapping file, interface addresses, ip failures) and
     an interface of NCCL_SOCKET_IFNAME missing in the pod
  4  RDMA device lookup
  5  the data step (data_process failed or wrote no data.jsonl)
  6  the rendezvous (the master is not MASTER_ADDR; a worker cannot reach it)
  7  NCCL wired the nodes over a transport the variant does not expect
     (read from torchrun's output as it runs, when main_ds or the transport
     assertion runs on several nodes with GPU_CLUSTER_VARIANT set: another
     network transport, a socket
     outside NCCL_SOCKET_IFNAME, fewer nodes than the job's); torchrun is
     stopped at once
  otherwise torchrun's status (a rank stopped by the stall watchdog: 1, with
  the watchdog's line repeated as the error); with GPU_CLUSTER_EXPECT_TRANSPORT, torchrun's
  status when it failed, else the transport assertion's (0 pass, 1 fail).
"""

from __future__ import annotations

import os
import shutil
import sys
import types

if __name__ == "__main__" and not __package__:
    # Run as a file (the pod: `python3 /mnt/workloads/launch.py`): serve this file's folder as the
    # `workloads` package, whatever the folder is called, so the imports below are the repo's.
    _package = types.ModuleType("workloads")
    _package.__path__ = [os.path.dirname(os.path.abspath(__file__))]
    sys.modules["workloads"] = _package

from workloads.launch_env import Network, read_assertion, read_network, read_rendezvous, switch  # noqa: E402
from workloads.launch_guard import guard_main_ds  # noqa: E402
from workloads.launch_messages import E_CONFIG, LaunchError, error, info, shell_line  # noqa: E402
from workloads.launch_net import (  # noqa: E402
    apply_plan,
    check_interfaces,
    ip_changer,
    plan_interface,
    rdma_devices,
    read_mapping,
    run_ip,
)
from workloads.launch_program import plan_data_step, program_arguments  # noqa: E402
from workloads.launch_reach import check_rendezvous, rendezvous_timeout  # noqa: E402
from workloads.launch_run import (  # noqa: E402
    TransportWatch,
    exec_torchrun,
    run_data_step,
    run_watched,
    run_with_assertion,
)

REPORTED = ("NCCL_SOCKET_IFNAME", "NCCL_IB_DISABLE", "NCCL_IB_HCA", "NCCL_IB_GID_INDEX", "NCCL_DEBUG")


def wire_rdma(env: dict[str, str], network: Network) -> None:
    """NCCL_IB_* for the variant: RDMA devices in exact-match form, or IB off for sockets."""
    if not network.rdma:
        # A socket variant must never drift onto an RDMA device it happens to see.
        env["NCCL_IB_DISABLE"] = env.get("NCCL_IB_DISABLE") or "1"
        return
    if env.get("NCCL_IB_HCA"):
        info(f"keeping NCCL_IB_HCA={env['NCCL_IB_HCA']} set by the user")
    else:
        devices = rdma_devices(network.ifnames, env.get("GPU_CLUSTER_SYSFS") or "/sys")
        # The leading `=` makes NCCL match these names exactly; plain entries are prefixes, and
        # mlx5_1 would also pick mlx5_10..mlx5_19.
        env["NCCL_IB_HCA"] = "=" + ",".join(devices)
    env["NCCL_IB_DISABLE"] = "0"
    env["NCCL_IB_GID_INDEX"] = env.get("NCCL_IB_GID_INDEX") or "3"


def remap_addresses(env: dict[str, str], network: Network, dry_run: bool) -> None:
    """Every interface planned (read-only ``ip addr show``) before the first change."""
    node = env.get("NODE_NAME", "")
    if not node:
        raise LaunchError(
            E_CONFIG, "NODE_NAME is not set (downward API spec.nodeName); GPU_CLUSTER_IP_MAPPING needs it"
        )
    mapping = read_mapping(network.mapping_file)
    plans = [plan_interface(name, node, mapping, network.mapping_file, run_ip, env) for name in network.ifnames]
    apply_plan(plans, ip_changer(run_ip, dry_run))


def launch(env: dict[str, str]) -> int:
    """Check everything, change the interfaces, run; ``env`` becomes the programs' environment."""
    dry_run = switch(env, "GPU_CLUSTER_DRY_RUN")
    network = read_network(env)
    assertion = read_assertion(env)
    rendezvous = read_rendezvous(env)
    rendezvous_timeout(env)
    config_path, program_args = program_arguments(env)
    data_step = plan_data_step(env, config_path, program_args, dry_run)
    # Rich, which main_ds logs through, wraps at 80 off a terminal, splitting each metrics line.
    env["COLUMNS"] = env.get("COLUMNS") or "240"
    guarded = guard_main_ds(env, rendezvous, program_args)
    torchrun = guarded.torchrun(program_args)
    if not dry_run and shutil.which("torchrun") is None:
        raise LaunchError(E_CONFIG, "torchrun not found on PATH")
    wire_rdma(env, network)
    if network.mapping_file:
        remap_addresses(env, network, dry_run)
    check_interfaces(network.ifnames, env.get("GPU_CLUSTER_SYSFS") or "/sys")
    for name in REPORTED:
        if env.get(name):
            info(f"{name}={env[name]}")
    if data_step is not None:
        if dry_run:
            info(f"dry-run: {shell_line(data_step.command)}")
        else:
            run_data_step(data_step.command, data_step.data_file, env)
    if dry_run:
        info(f"dry-run: {shell_line(torchrun)}")
        return 0
    check_rendezvous(env, rendezvous)
    info(f"launching: {shell_line(torchrun)}")
    watch = TransportWatch(network.variant, network.ifnames, rendezvous.nnodes, rendezvous.nproc)
    if assertion is not None:
        return run_with_assertion(torchrun, env, assertion, watch)
    if guarded is rendezvous:
        exec_torchrun(torchrun, env)
    # Watched, not exec'd: a wrong transport, or a rank the stall watchdog stopped, is the last line.
    return run_watched(torchrun, env, env.get("GPU_CLUSTER_LOG") or "/tmp/torchrun.log", watch)


def main() -> int:
    try:
        return launch(dict(os.environ))
    except LaunchError as stop:
        error(stop.message)
        return stop.status


if __name__ == "__main__":
    sys.exit(main())
