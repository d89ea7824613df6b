"""The options of InstructLab's ``main_ds`` (instructlab-training 0.16.2): what ``config.json`` may hold.

The entrypoint turns every ``config.json`` key into ``--key`` (see ``workloads/launch_program.py``), and
``main_ds`` parses them with argparse, so a key that is not one of these options (a typo, or an option
of another version) fails in the pod, after scheduling, image pull and model load. Checked here
instead, at preview. Kinds: ``flag`` (``store_true``: ``true`` gives ``--key``), ``int``, ``float``,
``str``, ``str*`` (a list). Defaults are main_ds's (the two it computes from enums, as a real run
printed them). The table is ``tests/fixtures/instructlab/main_ds-0.16.2-options.json``
(recorded from the published wheel by ``tools/record_main_ds_options.py``) in code; a test holds the
two equal.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["MAIN_DS_MODULE", "MAIN_DS_OPTIONS", "MAIN_DS_VERSION", "effective_options", "option_errors"]

MAIN_DS_MODULE = "instructlab.training.main_ds"
MAIN_DS_VERSION = "0.16.2"
"""instructlab-training on PyPI, run on the lent H100 on 2026-11-25 (tests/fixtures/runs/)."""

MAIN_DS_OPTIONS: dict[str, tuple[str, Any]] = {
    "model_name_or_path": ("str", None),
    "model-class": ("str", "CausalLM"),
    "data_path": ("str", None),
    "output_dir": ("str", None),
    "num_epochs": ("int", 1),
    "current_epoch": ("int", 0),
    "last_step": ("int", 0),
    "effective_batch_size": ("int", 3840),
    "learning_rate": ("float", 0.0001),
    "lr_scheduler": ("str", "cosine"),
    "num_warmup_steps": ("int", 1000),
    "save_samples": ("int", None),
    "save_samples_ds": ("int", None),
    "save_last": ("flag", False),
    "checkpoint_at_epoch": ("flag", False),
    "accelerate_full_state_at_epoch": ("flag", False),
    "log_level": ("str", "INFO"),
    "mlflow_tracking_uri": ("str", None),
    "mlflow_experiment_name": ("str", None),
    "mlflow_run_name": ("str", None),
    "wandb_project": ("str", None),
    "wandb_entity": ("str", None),
    "wandb_run_name": ("str", None),
    "tensorboard_log_dir": ("str", None),
    "seed": ("int", 42),
    "mock_data": ("flag", False),
    "mock_len": ("int", 2600),
    "distributed_training_framework": ("str", "deepspeed"),
    "fsdp_sharding_strategy": ("str", "HYBRID_SHARD"),
    "use_dolomite": ("flag", False),
    "lora_r": ("int", 0),
    "lora_alpha": ("int", 32),
    "lora_dropout": ("float", 0.1),
    "lora_quant_bits": ("int", None),
    "lora_target_modules": ("str*", None),
    "max_batch_len": ("int", 60000),
    "block-size": ("int", None),
    "document-column-name": ("str", None),
    "cpu_offload_optimizer": ("flag", False),
    "cpu_offload_params_fsdp": ("flag", False),
    "cpu_offload_optimizer_pin_memory": ("flag", False),
    "cpu_offload_optimizer_ratio": ("float", 1.0),
    "NEFTune_alpha": ("float", None),
    "chat-tmpl-path": ("str", None),
    "disable_flash_attn": ("flag", False),
    "trust_remote_code": ("flag", False),
    "keep_last_checkpoint_only": ("flag", False),
    "on_demand_checkpointing": ("flag", False),
    "use_liger": ("flag", False),
    "adamw_weight_decay": ("float", 0.0),
    "adamw_beta1": ("float", 0.9),
    "adamw_beta2": ("float", 0.95),
    "adamw_eps": ("float", 1e-08),
    "validation_split": ("float", 0.0),
    "validation_frequency": ("int", None),
    "callbacks": ("str", None),
}
"""Option (as a config.json key) -> (kind, main_ds's default)."""

_KIND_CHECKS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "flag": ("true or false", lambda v: isinstance(v, bool)),
    "int": ("an integer", lambda v: isinstance(v, int) and not isinstance(v, bool)),
    "float": ("a number", lambda v: isinstance(v, int | float) and not isinstance(v, bool)),
    "str": ("a string", lambda v: isinstance(v, str)),
    "str*": ("a list of strings", lambda v: isinstance(v, list) and all(isinstance(i, str) for i in v)),
}


def option_errors(config: Mapping[str, Any]) -> list[str]:
    """What in ``config`` (config.json's object) main_ds would refuse; ``null`` leaves an option out."""
    errors = []
    for key, value in config.items():
        if key not in MAIN_DS_OPTIONS:
            close = difflib.get_close_matches(key, MAIN_DS_OPTIONS, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            errors.append(f"{key}: not an option of instructlab-training {MAIN_DS_VERSION}'s main_ds{hint}")
            continue
        kind = MAIN_DS_OPTIONS[key][0]
        wanted, accepts = _KIND_CHECKS[kind]
        if value is not None and not accepts(value):
            errors.append(f"{key}: main_ds takes {wanted} here, not {value!r}")
    return errors


def effective_options(config: Mapping[str, Any]) -> dict[str, Any]:
    """Every main_ds option with the value the run gets: config.json's, else main_ds's default."""
    return {key: config.get(key, default) for key, (_, default) in MAIN_DS_OPTIONS.items()}
