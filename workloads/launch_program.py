"""The training program's arguments: config.json's hyperparameters as command-line options, and
InstructLab's data step, which turns raw chat messages into the data main_ds trains on.

Apart from ``launch_run`` by concept, not size: this decides what the program is told, that runs it."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NoReturn

from workloads.launch_messages import E_CONFIG, LaunchError, info

DEFAULT_CONFIG = "/mnt/config/config.json"
_OPTION = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not valid JSON")


def config_arguments(path: str) -> list[str]:
    """config.json's keys as options, in file order; numbers keep their text (2e-5 stays 2e-5).

    ``"k": "v"`` or a number -> ``--k=v``; true -> ``--k``; false or null -> nothing;
    ``["a", 1]`` -> ``--k a 1`` (argparse nargs style; [] -> nothing).
    """

    def fail(message: str) -> NoReturn:
        raise LaunchError(E_CONFIG, f"{path}: {message}")

    def scalar(key: str, value: object) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            return value
        fail(f"key '{key}': arrays may only hold strings, numbers and booleans")

    try:
        with open(path, encoding="utf-8") as handle:
            config = json.load(handle, parse_int=str, parse_float=str, parse_constant=_reject_constant)
    except (OSError, ValueError) as exc:
        fail(f"cannot read JSON: {exc}")
    if not isinstance(config, dict):
        fail("the top level must be a JSON object of hyperparameters")
    args: list[str] = []
    for key, value in config.items():
        if not _OPTION.fullmatch(key):
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
    if any("\0" in arg for arg in args):
        fail("values must not contain NUL characters")
    return args


def program_arguments(env: Mapping[str, str]) -> tuple[str, list[str]]:
    """The config file's path and its arguments; none when CONFIG_JSON_PATH is unset and the
    default file is absent."""
    path = env.get("CONFIG_JSON_PATH") or DEFAULT_CONFIG
    if not env.get("CONFIG_JSON_PATH") and not os.path.lexists(path):
        info(f"no {path}; the training program gets no arguments")
        return path, []
    if not os.path.isfile(path):
        raise LaunchError(E_CONFIG, f"config file {path} not found (CONFIG_JSON_PATH)")
    args = config_arguments(path)
    info(f"{len(args)} training argument(s) from {path}")
    return path, args


@dataclass(frozen=True)
class DataStep:
    command: tuple[str, ...]
    data_file: str
    """What the step must leave behind, non-empty."""


def plan_data_step(env: Mapping[str, str], config_path: str, args: list[str], dry_run: bool) -> DataStep | None:
    """InstructLab's data_process on GPU_CLUSTER_DATA_MESSAGES, if set; points ``args``'
    --data_path at its output (replacing the config's, or added)."""
    messages = env.get("GPU_CLUSTER_DATA_MESSAGES", "")
    if not messages:
        return None
    if not env.get("TRAINING_MODULE"):
        raise LaunchError(
            E_CONFIG, "GPU_CLUSTER_DATA_MESSAGES needs TRAINING_MODULE (InstructLab's data step feeds main_ds)"
        )
    max_seq_len = env.get("GPU_CLUSTER_DATA_MAX_SEQ_LEN") or "4096"
    if not re.fullmatch(r"[1-9][0-9]{0,6}", max_seq_len):
        raise LaunchError(E_CONFIG, f"GPU_CLUSTER_DATA_MAX_SEQ_LEN must be a positive integer, got '{max_seq_len}'")
    # Pod-local by default, so that the nodes of one job never write one file together.
    out = env.get("GPU_CLUSTER_DATA_OUT") or f"{env.get('TMPDIR') or '/tmp'}/ilab-data"
    model, data_index = "", -1
    for index, arg in enumerate(args):
        if arg.startswith("--model_name_or_path="):
            model = arg.removeprefix("--model_name_or_path=")
        elif arg.startswith("--data_path="):
            data_index = index
    if not model:
        raise LaunchError(E_CONFIG, f"the data step needs model_name_or_path in {config_path} (its tokenizer)")
    data_file = f"{out}/data.jsonl"
    if data_index >= 0:
        info(f"data step: training on {data_file} instead of {args[data_index].removeprefix('--data_path=')}")
        args[data_index] = f"--data_path={data_file}"
    else:
        args.append(f"--data_path={data_file}")
    command = (
        "python3",
        "-m",
        "instructlab.training.data_process",
        f"--data_path={messages}",
        f"--data_output_path={out}",
        f"--max_seq_len={max_seq_len}",
        f"--model_name_or_path={model}",
    )
    if not dry_run and not os.path.isfile(messages):
        raise LaunchError(
            E_CONFIG, f"messages file {messages} not found (GPU_CLUSTER_DATA_MESSAGES, relative to {os.getcwd()})"
        )
    return DataStep(command, data_file)
