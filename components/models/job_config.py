"""Config of the training workload: ``gpu-cluster:cluster.job``.

Every field has the published study's value as its default, so a stack file only names
what it changes.  Rules that need the rest of the cluster config (the variant, the
profile, the node count) live in ``jobcheck.py``; the rules here need only the field.
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field, model_validator

from components.models.benchmark_config import BenchmarkConfig
from components.models.main_ds_options import MAIN_DS_MODULE, option_errors
from components.models.model import ConfigModel
from components.models.quantity import parse_byte_size, parse_quantity
from components.models.types import DnsSubdomain, JobName

__all__ = [
    "BenchmarkConfig",
    "DataProcessConfig",
    "ElasticConfig",
    "JobConfig",
    "ResourcesConfig",
    "StorageConfig",
    "TrainingConfig",
    "parse_byte_size",
    "parse_quantity",
]

_OPTION_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
"""What the entrypoint accepts as a config.json key (it becomes ``--key``)."""
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_NCCL_NAME = re.compile(r"^NCCL_[A-Z0-9_]+$")
_RESERVED_ENV = re.compile(
    r"^(NCCL_|GPU_CLUSTER_|PET_|LWS_)|^(NODE_NAME|CONFIG_JSON_PATH|TRAINING_MODULE"
    r"|TRAINING_SCRIPT|MASTER_ADDR|MASTER_PORT|RANK|WORLD_SIZE|NNODES|NPROC_PER_NODE)$"
)
"""Variables the pod spec, the operators or the entrypoint own (see docs/training.md)."""


def _quantity(value: str) -> str:
    parse_quantity(value)
    return value


def _absolute_path(value: str) -> str:
    if not value.startswith("/") or value.rstrip("/") in ("", "/mnt/config", "/mnt/workloads", "/dev/shm"):
        raise ValueError("must be an absolute path other than /, /dev/shm and the pod's ConfigMap mounts")
    return value.rstrip("/")


def _env_text(value: Any) -> Any:
    # YAML turns `NCCL_IB_GID_INDEX: 3` into an int; the environment only holds text.
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


def _nccl_names(env: dict[str, str]) -> dict[str, str]:
    bad = [name for name in env if not _NCCL_NAME.fullmatch(name)]
    if bad:
        raise ValueError(f"{', '.join(bad)}: only NCCL_* variables belong here (others go in job.env)")
    return env


def _extra_env(env: dict[str, str]) -> dict[str, str]:
    for name in env:
        if not _ENV_NAME.fullmatch(name):
            raise ValueError(f"{name!r} is not an environment variable name")
        if _RESERVED_ENV.match(name):
            where = "job.nccl_env" if name.startswith("NCCL_") else "the pod spec and the entrypoint"
            raise ValueError(f"{name} is set by {where}; it cannot be set here")
    return env


Quantity = Annotated[str, AfterValidator(_quantity)]
EnvValue = Annotated[str, BeforeValidator(_env_text)]
_SCALARS = (str, int, float, bool, type(None))


class ResourcesConfig(ConfigModel):
    """CPU and memory of one training pod (GPUs follow ``nproc_per_node``)."""

    cpu: Quantity = "1"
    """CPU request (the study's value: the pod owns the node, so this only guides scheduling)."""
    memory: Quantity = "10Gi"
    """Memory request (the study's value)."""
    cpu_limit: Quantity | None = None
    """No CPU limit by default: CFS throttling stalls NCCL's proxy threads and the data loaders."""
    memory_limit: Quantity | None = None
    """No memory limit by default: CPU offload of an 8B model's parameters and optimizer state
    needs far more than the request, and the /dev/shm volume counts against any limit."""


class StorageConfig(ConfigModel):
    """The volume for the model, the data set and the checkpoints (the training's working directory)."""

    claim_name: DnsSubdomain = "fine-tuning-storage"
    """PersistentVolumeClaim name (the study's)."""
    create: bool = True
    """Create the claim; ``false`` uses an existing claim of that name."""
    size: Quantity = "200Gi"
    storage_class: DnsSubdomain | None = None
    """Storage class of a created claim; the cluster default when unset."""
    access_mode: Literal["ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"] = "ReadWriteMany"
    """Pods on several nodes share the claim, so multi-node jobs need ``ReadWriteMany``."""
    mount_path: Annotated[str, AfterValidator(_absolute_path)] = "/mnt/storage"


class ElasticConfig(ConfigModel):
    """torchrun elastic rendezvous (PyTorchJob ``elasticPolicy``): the job goes on with fewer nodes."""

    min_nodes: int = Field(ge=1, le=1024)
    """Fewest nodes the job runs with; the most is ``nodes.count`` (one pod per node)."""
    max_restarts: int = Field(default=3, ge=0, le=1000)
    """Worker-group restarts torchrun allows before the job fails."""


def _config_keys(extra: dict[str, Any]) -> dict[str, Any]:
    for key, value in extra.items():
        if not _OPTION_NAME.fullmatch(key):
            raise ValueError(f"{key!r} is not a plain option name (it becomes --{key})")
        if key in TrainingConfig.model_fields:
            raise ValueError(f"{key} is a field of job.training; set it there")
        items = value if isinstance(value, list) else [value]
        if not all(isinstance(item, _SCALARS) and not (isinstance(value, list) and item is None) for item in items):
            raise ValueError(f"{key}: values are scalars or lists of scalars (they become command-line arguments)")
        if any(isinstance(item, float) and not math.isfinite(item) for item in items):
            raise ValueError(f"{key}: {value} is not a finite number (config.json is strict JSON)")
    return extra


class TrainingConfig(ConfigModel):
    """Hyperparameters written to config.json; the entrypoint turns each key into ``--key=value``.

    Keys are InstructLab training's (``instructlab.training.main_ds``); defaults are the study's.
    Relative paths resolve in the storage volume, the pod's working directory.
    """

    model_name_or_path: str = "granite-3.1-8b-starter-v2"
    data_path: str = "data.jsonl"
    """The processed (tokenized) data set."""
    output_dir: str = "checkpoints"
    """Where checkpoints and the training logs go."""
    num_epochs: int = Field(default=1, ge=1, le=10_000)
    max_batch_len: int = Field(default=35000, ge=1, le=10_000_000)
    """Tokens per GPU per step."""
    seed: int = Field(default=42, ge=0, le=2**32 - 1)
    save_samples: int = Field(default=0, ge=0, le=10**12)
    """Samples between checkpoints; 0 saves none mid-epoch (throughput runs)."""
    distributed_training_framework: Literal["fsdp", "deepspeed"] = "fsdp"
    fsdp_sharding_strategy: Literal["FULL_SHARD", "SHARD_GRAD_OP", "NO_SHARD", "HYBRID_SHARD"] = "HYBRID_SHARD"
    cpu_offload_optimizer: bool = True
    cpu_offload_params_fsdp: bool = True
    """CPU offload of the parameters (the study's config says ``cpu_offload_params``, an
    abbreviation argparse expands to this option)."""
    effective_batch_size: int = Field(default=3840, ge=1, le=10**9)
    """Samples per optimizer step over all GPUs (main_ds's default; the study does not state it, so its
    runs had this: about three optimizer steps per epoch of 9,872 samples)."""
    learning_rate: float = Field(default=1e-4, gt=0, le=1, allow_inf_nan=False)
    """main_ds's default (the study does not state it); throughput does not depend on it."""
    num_warmup_steps: int = Field(default=1000, ge=0, le=10**9)
    """Learning-rate warm-up steps (main_ds's default; not the measurement's warm-up)."""
    disable_flash_attn: bool = False
    """Attention without flash-attn (padded batches, slower): for images or hosts without it."""
    checkpoint_at_epoch: bool = False
    """Save a checkpoint after each epoch (throughput runs save none)."""
    keep_last_checkpoint_only: bool = False
    """Overwrite one ``last_epoch`` checkpoint instead of keeping one per save."""
    extra: Annotated[dict[str, Any], AfterValidator(_config_keys)] = Field(default_factory=dict)
    """More ``main_ds`` options, e.g. ``lr_scheduler: constant``; ``true`` gives ``--key``,
    ``false``/``null`` leave it out, a list gives ``--key a b``. With ``main_ds`` (the default module)
    every key must be one of its options (``main_ds_options.py``)."""

    def config_json(self) -> dict[str, Any]:
        """config.json's object, typed fields first, in declaration order."""
        fields = self.model_dump(exclude={"extra"})
        return {**fields, **self.extra}


class DataProcessConfig(ConfigModel):
    """InstructLab's own data step in each pod before training (``instructlab.training.data_process``),
    for a stack that points at raw chat data; leave it out for pre-processed data (``training.data_path``)."""

    messages_path: str = Field(min_length=1, max_length=4096)
    """Messages JSONL (InstructLab's chat format), relative to the storage volume or absolute."""
    max_seq_len: int = Field(default=4096, ge=1, le=1_000_000)
    """data_process's ``--max_seq_len``: longer samples are dropped."""


class JobConfig(ConfigModel):
    """The distributed training job of the experiment (and its NCCL benchmark)."""

    kind: Literal["pytorchjob", "leaderworkerset"] = "pytorchjob"
    """Kubeflow ``PyTorchJob`` (Master + Workers), or a ``LeaderWorkerSet`` group of the same pods."""
    name: JobName = "ilab"
    enabled: bool = True
    """Render the training job; the ConfigMaps, storage and service account are rendered either way."""
    image: str = Field(default="registry.redhat.io/rhelai1/instructlab-nvidia-rhel9:1.5.2", min_length=1)
    """Container image with torch, NCCL, bash and python3 (RHEL AI's InstructLab image)."""
    image_pull_policy: Literal["Always", "IfNotPresent", "Never"] = "IfNotPresent"
    training_module: str = Field(default=MAIN_DS_MODULE, min_length=1)
    """Python module torchrun runs (``-m``)."""
    training_script: str | None = None
    """A script path torchrun runs instead of ``training_module``."""
    nproc_per_node: int | None = Field(default=None, ge=1, le=64)
    """Processes (and GPUs) per pod; every GPU of the node by default."""
    resources: ResourcesConfig = ResourcesConfig()
    shm_size: Quantity = "20Gi"
    """Size limit of the in-memory /dev/shm (the study's)."""
    storage: StorageConfig = StorageConfig()
    restart_policy: Literal["Never", "OnFailure", "ExitCode"] = "Never"
    """PyTorchJob replica restart policy (LeaderWorkerSet pods always restart: they are StatefulSet pods)."""
    backoff_limit: int = Field(default=0, ge=0, le=1000)
    """PyTorchJob ``runPolicy.backoffLimit``: retries before the job is marked failed."""
    stall_timeout_s: int = Field(default=1800, ge=60, le=7 * 24 * 3600)
    """main_ds only: a rank that starts no phase of the training loop (a step's forward/backward, its optimizer
    step) for this long stops the job, naming the step and the collective it waits in, instead of spinning until
    the pod is deleted (workloads/main_ds_guard.py). Longer than the slowest step; saves: ``save_timeout_s``."""
    save_timeout_s: int | None = Field(default=None, ge=60, le=4 * 7 * 24 * 3600)
    """main_ds only: the watchdog's limit for a checkpoint save, the final one too (default 4 × stall_timeout_s)."""
    elastic: ElasticConfig | None = None
    master_port: int = Field(default=29500, ge=1024, le=65535)
    """Rendezvous port on the master/leader pod."""
    nccl_env: Annotated[dict[str, EnvValue], AfterValidator(_nccl_names)] = Field(default_factory=dict)
    """Overrides of the variant's NCCL settings (docs/training.md); contradictions are errors."""
    env: Annotated[dict[str, EnvValue], AfterValidator(_extra_env)] = Field(default_factory=dict)
    """Other environment variables of the training container."""
    training: TrainingConfig = TrainingConfig()
    data_process: DataProcessConfig | None = None
    """Process raw messages in the pod first (the entrypoint then trains on its output)."""
    benchmark: BenchmarkConfig = BenchmarkConfig()

    @model_validator(mode="after")
    def _main_ds_accepts_the_config(self) -> JobConfig:
        if (self.save_timeout_s or self.stall_timeout_s) < self.stall_timeout_s:
            raise ValueError(
                f"save_timeout_s: below stall_timeout_s {self.stall_timeout_s} (a save's limit is the longer)"
            )
        # Only main_ds's options are known; another module or script takes what it takes.
        if self.training_script is None and self.training_module == MAIN_DS_MODULE:
            errors = option_errors(self.training.config_json())
            if errors:
                raise ValueError("training (config.json): " + "; ".join(errors))
        elif self.data_process is not None:
            raise ValueError(
                "data_process feeds InstructLab's main_ds; it needs training_module "
                f"{MAIN_DS_MODULE} and no training_script"
            )
        return self

    @property
    def benchmark_name(self) -> str:
        return self.benchmark.name or f"{self.name}-nccl-bench"
