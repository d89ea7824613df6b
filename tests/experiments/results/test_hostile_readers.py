"""Every reader of a file or an answer the project did not write, bounded: JSON nested past the decoder,
gzip that inflates to gigabytes, counts past SQLite's integers, figures past any run (1e308, negative),
a checkpoint's outputs of the wrong shape. Each is one line naming the file or endpoint, exit 2, and no
such figure is ever stored."""

from __future__ import annotations

import gzip
import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from experiments.cli.main import main
from experiments.results.store import ResultsStore
from experiments.results.transfer import _digest, export_document

from ..incluster.incluster_standin import ObjectStandIn, Store
from ..incluster.test_transfer import RUN, cluster_store

NESTED = "[" * 200_000


def one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


def test_a_deeply_nested_export_is_one_line(tmp_path, capsys) -> None:
    (tmp_path / "nested.json").write_text(NESTED)
    local = tmp_path / "local.sqlite"
    assert main(["pull-results", str(tmp_path / "nested.json"), "--store", str(local)]) == 2
    assert "nested.json: nested too deeply" in one_line(capsys)


@pytest.mark.slow
def test_a_deeply_nested_log_from_the_cluster_is_one_line_and_the_pod_goes(tmp_path, capsys) -> None:
    store = Store(pod_log=NESTED)
    with ObjectStandIn(store) as standin:
        code = main(standin.pull_results(tmp_path, tmp_path / "l.sqlite", timeout=10))
    assert code == 2 and "nested too deeply" in one_line(capsys)
    assert not store.objects  # the export pod was deleted


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("steps_counted", 2**70, "steps_counted"),
        ("samples_per_s", 1e308, "samples_per_s"),
        ("samples_per_s", -3.0, "samples_per_s"),
        ("ranks", -1, "ranks"),
        ("step_time_mean_s", 1e300, "step_time"),
    ],
)
def test_a_figure_no_run_can_have_is_refused_whole(tmp_path, capsys, field, value, said) -> None:
    document = export_document(cluster_store(tmp_path))
    document["runs"][1][field] = value
    document["sha256"] = _digest(document["runs"])
    (tmp_path / "bad.json").write_text(json.dumps(document))
    local = tmp_path / "local.sqlite"
    assert main(["pull-results", str(tmp_path / "bad.json"), "--store", str(local)]) == 2
    assert f"{said}" in one_line(capsys) and ResultsStore(local).runs() == []
    with pytest.raises(Exception, match=field):  # nor through any other writer
        ResultsStore(local).add(replace(RUN, **{field: value}))


def test_a_foreign_stores_overflowing_figure_reads_as_empty(tmp_path, capsys) -> None:
    path = tmp_path / "s.sqlite"
    ResultsStore(path).add(RUN)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE runs SET samples_per_s = 1e308, predicted_samples_per_s = 1e-308, steps_counted = -5")
    assert main(["results", "--json", "--store", str(path)]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["samples_per_s"] is None and row["steps_counted"] is None


def _state(tmp_path: Path, name: str, content: bytes) -> Path:
    path = tmp_path / ".pulumi" / "stacks" / "gpu-cluster" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return path


def test_a_nested_checkpoint_or_a_gzip_bomb_is_one_line(tmp_path, capsys) -> None:
    stack = "h100-2n-sriov-rdma"
    _state(tmp_path, f"{stack}.json", NESTED.encode())
    assert main(["stack", "workers", stack, "--state-dir", str(tmp_path), "--no-nodes"]) == 2
    assert "not a readable stack checkpoint (nested too deeply)" in one_line(capsys)
    (tmp_path / ".pulumi" / "stacks" / "gpu-cluster" / f"{stack}.json").unlink()
    # 4 MiB of zeros compress to a few KiB; the cap applies to what they inflate to.
    from experiments.stacks import backend

    bomb = gzip.compress(b"0" * (4 * 2**20))
    _state(tmp_path, f"{stack}.json.gz", bomb)
    original = backend.MAX_STATE_BYTES
    backend.MAX_STATE_BYTES = 2**20
    try:
        assert main(["stack", "workers", stack, "--state-dir", str(tmp_path), "--no-nodes"]) == 2
    finally:
        backend.MAX_STATE_BYTES = original
    assert len(bomb) < 2**20 and "inflates to more than 1 MiB" in one_line(capsys)


def test_outputs_of_the_wrong_shape_and_a_nested_lock_are_reported_not_raised(tmp_path, capsys) -> None:
    stack = "h100-2n-sriov-rdma"
    checkpoint = {
        "checkpoint": {
            "latest": {
                "resources": [{"type": "pulumi:pulumi:Stack", "outputs": {"nodes": 5, "instanceIds": [[[]]]}}],
                "pending_operations": 7,
            }
        }
    }
    _state(tmp_path, f"{stack}.json", json.dumps(checkpoint).encode())
    locks = tmp_path / ".pulumi" / "locks" / "organization" / "gpu-cluster" / stack
    locks.mkdir(parents=True)
    (locks / "a.json").write_text(NESTED)
    (locks / "b.json").write_text(json.dumps({"username": {"x": 1}, "hostname": "h\x1b[31m", "pid": 1}))
    unusable = tmp_path / "kubeconfig"  # named, so it must exist (issue 37); never read: no node names to ask for
    unusable.write_text("not: a kubeconfig\n")
    assert main(["stack", "workers", stack, "--state-dir", str(tmp_path), "--kubeconfig", str(unusable)]) == 0
    out = capsys.readouterr().out
    assert "LOCKED by an unreadable lock file: a.json" in out and "?@h\\x1b[31m (pid 1)" in out
