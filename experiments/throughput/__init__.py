"""A first-principles model of FSDP fine-tuning throughput on IBM Cloud GPU nodes.

The model follows one micro-batch ("step") of InstructLab's FSDP training loop, the
workload of the Red Hat study that ``experiments/throughput/study-throughput.csv`` records:

* **Batching.**  InstructLab fixes the effective batch (3840 samples per optimizer
  step) and picks the smallest gradient accumulation ``a`` whose per-GPU micro-batch
  fits in ``max_batch_len`` tokens.  A step therefore carries ``3840 / a`` samples and
  the optimizer runs once every ``a`` steps; more GPUs mean fewer micro-batches per
  optimizer step, so the optimizer's share of the time grows with the node count.
* **Compute.**  ``6 x params x tokens`` FLOPs per step (forward and backward) at
  ``mfu`` of the GPU's dense BF16 peak; recomputation and kernel efficiency are folded
  into ``mfu``.
* **Host offload.**  Parameters and optimizer state live in host memory.  Every step
  copies each GPU's parameter shard to the device twice (forward, backward) and its
  gradient shard back over PCIe; the CPU Adam update runs once per optimizer step in
  one single-threaded process per GPU (torchrun sets ``OMP_NUM_THREADS=1``).
* **Communication.**  HYBRID_SHARD shards within a node and replicates across nodes.
  Inside a node a step all-gathers the parameters twice and reduce-scatters the
  gradients (NVLink on H100/H200, PCIe on L40S).  Across nodes the gradient shards of
  the ``g`` local ranks are all-reduced by ``g`` independent NCCL rings, so each node
  sends ``2 (n-1)/n x gradient bytes`` per step whatever ``g`` is, plus a per-hop
  latency for each FSDP unit (NCCL's trees keep the hop count logarithmic).
* **Overlap.**  FSDP reduces gradients while the backward pass runs, so a window of
  ``overlap x compute`` seconds hides communication and only the rest is exposed (a
  smooth maximum keeps the fit differentiable).  ``overlap`` is not fitted: it is the
  backward share of the FLOPs with activation recomputation, (2 + 4) / 8.

Inter-node bandwidth comes from the IBM facts in ``components.models.catalog``: the profile's
network share (75 % of its bandwidth) is split evenly over every attached vNIC, the
primary one included, and one vNIC carries at most 32 Gbps on gen-3 GPU profiles; the
H100/H200 cluster network gives 400 Gbps per SR-IOV virtual function.  Every TCP path
follows one law: a direct NIC (vNIC or SR-IOV VF) carries its line rate with one ring,
and loses efficiency when several rings share it (each of the ``g`` local ranks runs its
own ring, so ``g / nics`` synchronised flows converge on every receiving NIC: TCP
incast), by one fitted penalty; one ring moves at most ``tcp_ring_max_gbps``.  The pod
network is that path through the OVN overlay, which keeps a fitted share of it.  RDMA
reaches a fixed share of the line and is taken not to suffer incast.

Fitting the model to the study is ``calibration`` (NumPy and SciPy, which a preview never needs);
import it from there.
"""

from __future__ import annotations

from experiments.throughput.model import (
    NetworkPath,
    Prediction,
    effective_bandwidth,
    grad_accumulation,
    predict,
    vnic_share_gbps,
)
from experiments.throughput.parameters import BOUNDS, DEFAULT_PARAMS_PATH, FITTED, ModelParams, load_params
from experiments.throughput.scenario import (
    DEFAULT_CSV,
    GRANITE_3_1_8B_PARAMS,
    NetworkVariant,
    Scenario,
    Transport,
    Workload,
)

__all__ = [
    "BOUNDS",
    "DEFAULT_CSV",
    "DEFAULT_PARAMS_PATH",
    "FITTED",
    "GRANITE_3_1_8B_PARAMS",
    "ModelParams",
    "NetworkPath",
    "NetworkVariant",
    "Prediction",
    "Scenario",
    "Transport",
    "Workload",
    "effective_bandwidth",
    "grad_accumulation",
    "load_params",
    "predict",
    "vnic_share_gbps",
]
