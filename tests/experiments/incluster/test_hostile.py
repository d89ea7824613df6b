"""The in-cluster commands against a hostile or unlucky cluster (issue 18's standard, applied to issue 21's
commands): every request through the one kube client with timeouts, credentials never printed, names from
the cluster escaped, odd answers one line and exit 2, and ``--timeout`` / Ctrl-C leaving the workflow running
with the way to follow it."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from experiments.cli.main import main
from experiments.incluster import submit as submit_module
from experiments.incluster.submit import workflow_seconds
from tests.timing import hang_bound

from .incluster_standin import ObjectStandIn, Store
from .test_argo import render, templates, two_cells_on_one_machineset

TOKEN = "sha256~bearer-token-of-the-operator"
PASSWORD = "hunter2-in-the-url"
WORKFLOWS = "/apis/argoproj.io/v1alpha1/namespaces/gpu-cluster/workflows"


def submit(tmp_path: Path, store: Store, *extra: str) -> tuple[int, str, str, Any]:
    with ObjectStandIn(store) as standin:
        kubeconfig = standin.kubeconfig(tmp_path, token=TOKEN + "\n", userinfo=f"admin:{PASSWORD}@")
        code, _ = render(
            tmp_path,
            two_cells_on_one_machineset(tmp_path),
            "--submit",
            "--poll",
            "0.01",
            "--kubeconfig",
            str(kubeconfig),
            *extra,
        )
    return code, *_captured(), store


_capsys: Any = None


def _captured() -> tuple[str, str]:
    out = _capsys.readouterr()
    return out.out, out.err


@pytest.fixture(autouse=True)
def _capture(capsys) -> None:
    global _capsys
    _capsys = capsys


def assert_one_line(err: str) -> None:
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert TOKEN not in err and PASSWORD not in err


@pytest.mark.parametrize(
    ("status", "said"),
    [
        ("garbage", "its status is not an object"),
        ({"phase": "Exploded"}, "status.phase 'Exploded' is not a phase of Argo Workflows"),
        ({"phase": 42}, "status.phase 42 is not a phase of Argo Workflows"),
        ({"phase": ["Succeeded"]}, "is not a phase of Argo Workflows"),
    ],
)
@pytest.mark.slow
def test_a_workflow_with_an_odd_status_is_one_line_exit_2(tmp_path, status, said) -> None:
    code, out, err, _ = submit(tmp_path, Store(workflow_status=status))
    assert code == 2 and said in err
    assert_one_line(err)


def test_cell_names_and_phases_from_the_status_are_escaped_and_the_credentials_never_shown(tmp_path) -> None:
    status = {
        "phase": "Succeeded",
        "nodes": {
            "a": {"templateName": "cell-\x1b]0;owned\x07", "phase": "Succeeded\x1b[2J"},
            "b": {"templateName": 7, "phase": "Running"},
            "c": "not a node",
            "d": {"templateName": "cell-x", "phase": None},
        },
    }
    code, out, err, _ = submit(tmp_path, Store(workflow_status=status))
    assert code == 0, err
    assert "\x1b" not in out and "\\x1b]0;owned\\x07: Succeeded\\x1b[2J" in out and "x: Pending" in out
    assert TOKEN not in out + err and PASSWORD not in out + err
    assert "http://127.0.0.1:" in out and "admin" not in out  # the server, shown without its user information


@pytest.mark.parametrize("name", ["../../etc", None, "x" * 300, "Upper\x1b[31m"])
def test_a_workflow_created_with_a_name_no_cluster_gives_is_refused(tmp_path, name) -> None:
    code, out, err, store = submit(tmp_path, Store(created_name=name if name is not None else ""))
    assert code == 2 and "not a Kubernetes name" in err and "\x1b" not in err
    assert_one_line(err)
    assert not any(path.startswith(WORKFLOWS + "/") for _, path in store.requests)  # never followed


@pytest.mark.slow
def test_timeout_while_the_workflow_runs_leaves_it_running_and_says_how_to_follow_it(tmp_path) -> None:
    started = time.monotonic()
    code, out, err, store = submit(tmp_path, Store(workflow_phases=["Running"]), "--timeout", "3", "--poll", "0.2")
    assert code == 2 and time.monotonic() - started < hang_bound(3)
    assert "still Running at --timeout" in err and "keeps running in the cluster" in err
    assert "argo wait -n gpu-cluster gpu-cluster-sweep-" in err
    assert_one_line(err)
    assert not any(method == "DELETE" for method, _ in store.requests)


@pytest.mark.slow
def test_a_server_that_stalls_while_followed_ends_at_the_timeout(tmp_path) -> None:
    started = time.monotonic()
    code, out, err, _ = submit(tmp_path, Store(stall=(WORKFLOWS + "/",)), "--timeout", "3")
    assert code == 2 and time.monotonic() - started < hang_bound(3)
    assert "--timeout" in err and "argo wait -n gpu-cluster" in err
    assert_one_line(err)


@pytest.mark.slow
def test_ctrl_c_while_following_leaves_the_workflow_running_and_names_argo_wait(tmp_path, monkeypatch) -> None:
    def interrupt(seconds: float) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(submit_module, "_pause", interrupt)  # Ctrl-C between two reads of the workflow
    code, out, err, store = submit(tmp_path, Store(workflow_phases=["Running"]))
    assert code == 130
    assert "interrupted: Workflow gpu-cluster/gpu-cluster-sweep-" in out and "argo wait -n gpu-cluster" in out
    assert not any(method == "DELETE" for method, _ in store.requests)


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (("--timeout", "60"), "--timeout: only with --submit"),
        (("--submit", "--timeout", "nan"), "must be a finite number of seconds above 0"),
        (("--submit", "--poll", "-1"), "must be a finite number of seconds above 0"),
    ],
)
def test_bad_follow_bounds_are_refused_before_anything(tmp_path, extra, said) -> None:
    try:
        code, _ = render(tmp_path, two_cells_on_one_machineset(tmp_path), *extra)
    except SystemExit as exit:  # argparse's own refusal: usage and one error line, exit 2
        code = int(exit.code or 0)
    assert code == 2 and said in _captured()[1] and not (tmp_path / "out").exists()


def test_the_default_bound_lets_every_step_of_the_longest_chain_use_its_whole_deadline(tmp_path) -> None:
    code, out = render(tmp_path, two_cells_on_one_machineset(tmp_path))
    assert code == 0
    (workflow,) = yaml.safe_load_all((out / "workflow.yaml").read_text())
    by_name = templates(workflow)
    leaves = [t for t in by_name.values() if "container" in t]
    # Both cells share workers: one chain, so the bound covers every step one after the other, with retries.
    assert workflow_seconds(workflow) > sum(
        t["activeDeadlineSeconds"] * (1 + t.get("retryStrategy", {}).get("limit", 0)) for t in leaves
    )


def test_out_never_overwrites_a_file_the_tool_did_not_write(tmp_path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / ".gpu-cluster-index.json").write_text(json.dumps(["setup.yaml", "stack.yaml"]))  # a pko run's
    (out / "workflow.yaml").write_text("mine\n")
    code, _ = render(tmp_path, two_cells_on_one_machineset(tmp_path))
    err = _captured()[1]
    assert code == 2 and "workflow.yaml exists and this tool did not write it" in err
    assert (out / "workflow.yaml").read_text() == "mine\n"
    (out / "workflow.yaml").unlink()
    (out / "setup.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    code, _ = render(tmp_path, two_cells_on_one_machineset(tmp_path))
    assert code == 2 and "is a symbolic link" in _captured()[1] and not (tmp_path / "elsewhere.yaml").exists()


@pytest.mark.slow
def test_pull_from_the_cluster_refuses_a_log_that_is_not_utf8_and_deletes_the_pod(tmp_path) -> None:
    store = Store(pod_log_bytes=b'{"format": "gpu-cluster-results/1", \xff\xfe}')
    with ObjectStandIn(store) as standin:
        code = main(standin.pull_results(tmp_path, tmp_path / "local.sqlite", timeout=5, token=TOKEN))
    err = _captured()[1]
    assert code == 2 and "its log is not UTF-8 text (byte 36)" in err
    assert_one_line(err)
    assert not store.objects and not (tmp_path / "local.sqlite").exists()


@pytest.mark.slow
def test_pull_from_the_cluster_refuses_a_huge_log_and_a_pod_without_a_name(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr("experiments.results.transfer.MAX_EXPORT_BYTES", 1024 * 1024)
    store = Store(pod_log_bytes=b" " * (2 * 1024 * 1024))
    with ObjectStandIn(store) as standin:
        args = standin.pull_results(tmp_path, tmp_path / "local.sqlite", timeout=5)
        assert main(args) == 2
        err = _captured()[1]
        assert "the answer exceeds 1 MiB" in err and not store.objects
        assert_one_line(err)
        store.created_name = "../evil"
        assert main(args) == 2
        err = _captured()[1]
        assert "with no pod name" in err
        assert_one_line(err)


@pytest.mark.slow
def test_pull_from_a_stalled_cluster_ends_at_the_timeout_and_still_deletes_the_pod(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr("experiments.incluster.remote.CLEANUP_SECONDS", 1.0)
    store = Store(stall=("/api/v1/namespaces/gpu-cluster/pods/gpu-cluster-results-export-",))
    started = time.monotonic()
    with ObjectStandIn(store) as standin:
        code = main(standin.pull_results(tmp_path, tmp_path / "local.sqlite", timeout=2, token=TOKEN))
    out, err = _captured()
    assert code == 2 and time.monotonic() - started < hang_bound(2 + 1.0)  # --timeout, then the clean-up's bound
    assert "no answer in time" in err or "--timeout" in err
    assert "kubectl delete pod -n gpu-cluster gpu-cluster-results-export-" in err  # the stalled delete, said
    assert TOKEN not in out + err


@pytest.mark.slow
def test_a_trickled_log_still_has_the_pod_deleted_on_a_fresh_connection(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr("experiments.incluster.remote.CLEANUP_SECONDS", 5.0)  # ample for one DELETE, even loaded
    store = Store(pod_log="", trickle_log=True)
    start = time.monotonic()
    with ObjectStandIn(store) as standin:
        code = main(standin.pull_results(tmp_path, tmp_path / "l.sqlite", timeout=3))
    err = _captured()[1]
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert time.monotonic() - start < hang_bound(3 + 5.0)  # the timeout, then the clean-up's own bound
    assert "--timeout reached while reading the log" in err, err
    assert [m for m, p in store.requests if "/pods/" in p and m == "DELETE"] == ["DELETE"]
    assert not store.objects  # the export pod is gone
    # The stand-in keeps connections alive, as an API server does: a DELETE sent on the half-read
    # connection (put back in the pool) would never be answered, and the pod would stay.
    assert store.connections < len(store.requests)
