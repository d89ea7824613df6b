"""workloads/entrypoint.sh's data step (InstructLab's data_process before main_ds) and console width,
under bash with a stand-in ``instructlab.training.data_process`` module on PYTHONPATH."""

from __future__ import annotations

import json

import pytest

from .test_entrypoint import Pod, pod, pod_variant  # noqa: F401  (fixtures)

FAKE_DATA_PROCESS = """
import json, os, sys
args = dict(a[2:].split("=", 1) for a in sys.argv[1:])
with open(os.environ["FAKE_DATA_RECORD"], "w") as out:
    json.dump({"argv": sys.argv[1:], "cwd": os.getcwd()}, out)
if os.environ.get("FAKE_DATA_FAIL"):
    sys.exit(3)
os.makedirs(args["data_output_path"], exist_ok=True)
if not os.environ.get("FAKE_DATA_EMPTY"):
    with open(os.path.join(args["data_output_path"], "data.jsonl"), "w") as out:
        out.write('{"input_ids": [1], "labels": [1], "len": 1}\\n')
"""


@pytest.fixture
def data_pod(pod_variant: Pod) -> Pod:  # noqa: F811
    package = pod_variant.root / "site" / "instructlab" / "training"
    package.mkdir(parents=True)
    (package.parent / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "data_process.py").write_text(FAKE_DATA_PROCESS)
    config = json.loads((pod_variant.root / "config.json").read_text())
    (pod_variant.root / "config.json").write_text(json.dumps({"model_name_or_path": "granite", **config}))
    (pod_variant.root / "messages.jsonl").write_text('{"messages": []}\n')
    pod_variant.env.update(
        PYTHONPATH=str(pod_variant.root / "site"),
        FAKE_DATA_RECORD=str(pod_variant.root / "dp"),
        GPU_CLUSTER_DATA_MESSAGES="messages.jsonl",
    )
    return pod_variant


def _record(data_pod: Pod) -> dict[str, object]:
    return json.loads((data_pod.root / "dp").read_text())


def test_raw_messages_are_processed_then_trained_on(data_pod: Pod) -> None:
    result = data_pod.run()
    assert result.returncode == 0, result.stderr
    out = str(data_pod.root / "tmp" / "ilab-data")
    assert _record(data_pod)["argv"] == [
        "--data_path=messages.jsonl",
        f"--data_output_path={out}",
        "--max_seq_len=4096",
        "--model_name_or_path=granite",
    ]
    argv = data_pod.torchrun_argv()
    assert argv is not None and f"--data_path={out}/data.jsonl" in argv
    assert "--data_path=/mnt/storage/data set.jsonl" not in argv  # replaced, not repeated
    assert argv.index("--model_name_or_path=granite") < argv.index(f"--data_path={out}/data.jsonl")
    assert "entrypoint: data step: training on" in result.stdout


def test_sequence_length_and_output_folder_are_taken_from_the_environment(data_pod: Pod) -> None:
    result = data_pod.run(GPU_CLUSTER_DATA_MAX_SEQ_LEN="8192", GPU_CLUSTER_DATA_OUT=str(data_pod.root / "d"))
    assert result.returncode == 0, result.stderr
    assert "--max_seq_len=8192" in _record(data_pod)["argv"]  # type: ignore[operator]
    assert f"--data_path={data_pod.root / 'd'}/data.jsonl" in (data_pod.torchrun_argv() or [])


@pytest.mark.parametrize(
    ("env", "code", "message"),
    [
        ({"FAKE_DATA_FAIL": "1"}, 5, "the data step failed (status 3)"),
        ({"FAKE_DATA_EMPTY": "1"}, 5, "wrote no"),
        ({"GPU_CLUSTER_DATA_MESSAGES": "missing.jsonl"}, 2, "messages file missing.jsonl not found"),
        ({"GPU_CLUSTER_DATA_MAX_SEQ_LEN": "lots"}, 2, "GPU_CLUSTER_DATA_MAX_SEQ_LEN must be a positive integer"),
        ({"TRAINING_MODULE": None, "TRAINING_SCRIPT": "/x.py"}, 2, "needs TRAINING_MODULE"),
    ],
)
def test_data_step_failures_stop_before_torchrun(
    data_pod: Pod, env: dict[str, str | None], code: int, message: str
) -> None:
    result = data_pod.run(**env)
    assert result.returncode == code
    assert message in result.single_error()
    assert data_pod.torchrun_argv() is None


def test_the_data_step_needs_the_model_for_its_tokenizer(data_pod: Pod) -> None:
    config = json.loads((data_pod.root / "config.json").read_text())
    del config["model_name_or_path"]
    (data_pod.root / "config.json").write_text(json.dumps(config))
    result = data_pod.run()
    assert result.returncode == 2 and "needs model_name_or_path" in result.single_error()


def test_dry_run_prints_the_data_step(data_pod: Pod) -> None:
    result = data_pod.run(GPU_CLUSTER_DRY_RUN="1", GPU_CLUSTER_DATA_MESSAGES="not-there-yet.jsonl")
    assert result.returncode == 0, result.stderr
    assert "entrypoint: dry-run: python3 -m instructlab.training.data_process" in result.stdout
    assert not (data_pod.root / "dp").exists()


def test_without_raw_data_there_is_no_data_step_and_the_console_is_wide(pod_variant: Pod) -> None:  # noqa: F811
    result = pod_variant.run()
    assert result.returncode == 0, result.stderr
    assert "data step" not in result.stdout
    assert pod_variant.torchrun_env()["COLUMNS"] == "240"  # Rich would wrap main_ds's metrics at 80
    assert pod_variant.run(COLUMNS="120").returncode == 0
    assert pod_variant.torchrun_env()["COLUMNS"] == "120"
