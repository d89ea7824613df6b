"""Every config.json key the project writes is an option the pinned InstructLab ``main_ds`` accepts.

Two records of instructlab-training 0.16.2 back this, neither needing the package (CI has no torch):
the option table read from the published wheel (``tests/fixtures/instructlab/``, provenance inside)
and what ``main_ds`` itself printed of its parsed arguments in the run on the lent H100 (the first
line of its metrics JSONL is ``vars(args)``), launched through the stack's rendered config.json.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from components.models.main_ds_options import (
    MAIN_DS_OPTIONS,
    MAIN_DS_VERSION,
    effective_options,
    option_errors,
)
from experiments.base.paths import PROJECT_ROOT
from experiments.stacks.stackfile import load_stack

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RECORD = json.loads((FIXTURES / "instructlab" / f"main_ds-{MAIN_DS_VERSION}-options.json").read_text())
PARSED = json.loads((FIXTURES / "runs" / "h100-1n-main_ds-proof-2.jsonl").read_text().splitlines()[0])
LAUNCHED = json.loads((FIXTURES / "runs" / "h100-1n-main_ds-proof-2.config.json").read_text())
"""The second proof run's config.json: h100-1n rendered by make gpu-jobs (disable_flash_attn, effective_batch_size)."""
STACKS = sorted(p.name[len("Pulumi.") : -len(".yaml")] for p in PROJECT_ROOT.glob("Pulumi.*.yaml"))


def _dest(option: str) -> str:
    return option.replace("-", "_")  # argparse's attribute name


def test_the_table_in_code_is_the_recorded_one() -> None:
    assert RECORD["version"] == MAIN_DS_VERSION and "sha256" in RECORD["source"]
    recorded = {name: o["kind"] + ("*" if o.get("nargs") == "*" else "") for name, o in RECORD["options"].items()}
    assert {name: kind for name, (kind, _) in MAIN_DS_OPTIONS.items()} == recorded


def test_the_table_is_what_main_ds_parsed_in_the_real_run() -> None:
    # vars(args) holds every option and two values main_ds adds itself.
    assert {_dest(name) for name in MAIN_DS_OPTIONS} == set(PARSED) - {"pretraining_config", "timestamp"}
    for name, (_, default) in MAIN_DS_OPTIONS.items():
        value = PARSED[_dest(name)]
        if name == "data_path":  # the entrypoint's data step replaced it with its own output
            assert value.endswith("/processed/data.jsonl") and LAUNCHED[name] == "data.jsonl"
        else:  # the rendered config.json's value reached main_ds as written; else main_ds's default
            assert value == LAUNCHED.get(name, default), name


@pytest.mark.parametrize("stack", STACKS)
def test_every_stacks_config_json_is_accepted(stack: str) -> None:
    job = load_stack(stack).cluster.job
    config = job.training.config_json()
    assert option_errors(config) == []
    assert set(config) <= set(MAIN_DS_OPTIONS)
    effective = effective_options(config)
    assert set(effective) == set(MAIN_DS_OPTIONS)
    assert effective["max_batch_len"] == config["max_batch_len"]
    assert effective["lr_scheduler"] == "cosine"  # not in config.json: main_ds's default, shown


def test_refusals_name_the_key() -> None:
    assert option_errors({"disable_flash_atn": True}) == [
        "disable_flash_atn: not an option of instructlab-training 0.16.2's main_ds (did you mean disable_flash_attn?)"
    ]
    assert option_errors({"num_epochs": 1.5}) == ["num_epochs: main_ds takes an integer here, not 1.5"]
    (error,) = option_errors({"lora_target_modules": ["q_proj", 3]})
    assert error.startswith("lora_target_modules: main_ds takes a list of strings")
    assert option_errors({"save_samples": None, "chat-tmpl-path": "x.py"}) == []


def test_the_package_itself_when_installed() -> None:
    """Where instructlab-training is installed (the GPU host), its own source agrees with the table."""
    training = pytest.importorskip("instructlab.training")
    import importlib.metadata

    from tools.record_main_ds_options import options

    if importlib.metadata.version("instructlab-training") != MAIN_DS_VERSION:
        pytest.skip("another instructlab-training version is installed")
    source = (Path(training.__file__).parent / "main_ds.py").read_text()
    assert {name: o["kind"] for name, o in options(source).items()} == {
        name: o["kind"] for name, o in RECORD["options"].items()
    }


def test_the_preview_shows_every_option_and_where_its_value_comes_from() -> None:
    from rich.console import Console

    from experiments.state.preview import _render_training_options

    console = Console(record=True, width=200)
    _render_training_options(load_stack("h100-1n").cluster.job, console)
    rows = {
        line.split("│")[0].strip(): [cell.strip() for cell in line.split("│")[1:]]
        for line in console.export_text().splitlines()
        if "│" in line
    }
    assert set(rows) == set(MAIN_DS_OPTIONS)
    assert rows["max_batch_len"] == ["35000", "config.json"]
    assert rows["lr_scheduler"] == ['"cosine"', "main_ds default"]
    assert rows["effective_batch_size"] == ["3840", "config.json"]
