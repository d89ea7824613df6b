"""The render cache of ``preview`` and ``diff`` (``experiments.state.render_cache``): a render is reused only
when nothing that decides it changed, ``--no-cache`` bypasses it, and a damaged entry is rendered again."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from experiments.cli.main import main
from experiments.stacks.stackfile import load_stack
from experiments.state import preview as preview_module
from experiments.state import render_cache
from experiments.state.preview import cached_preview, preview_json
from experiments.state.render_cache import RenderCache

from ...conftest import cluster_config


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The stacks the mock engine rendered (each call of the program), in order."""
    rendered: list[str] = []
    engine = preview_module.run_offline

    def counted(program: Any, **kwargs: Any) -> Any:
        rendered.append(kwargs["stack"])
        return engine(program, **kwargs)

    monkeypatch.setattr(preview_module, "run_offline", counted)
    return rendered


def test_a_second_preview_reuses_the_render_and_writes_the_same_files(tmp_path, renders, capsys) -> None:
    state = tmp_path / "state"
    argv = ["preview", "h100-2n-sriov-rdma", "--state-dir", str(state)]
    assert main([*argv, "--out", str(tmp_path / "first")]) == 0
    first = capsys.readouterr().out
    assert main([*argv, "--out", str(tmp_path / "second")]) == 0
    assert renders == ["h100-2n-sriov-rdma"]
    assert len(list((state / "renders").glob("*.json"))) == 1
    assert capsys.readouterr().out == first.replace(str(tmp_path / "first"), str(tmp_path / "second"))
    written = {
        p.relative_to(tmp_path / "first"): p.read_bytes() for p in (tmp_path / "first").rglob("*") if p.is_file()
    }
    assert written and all((tmp_path / "second" / name).read_bytes() == data for name, data in written.items())


def test_no_cache_neither_reads_nor_keeps_a_render(tmp_path, renders) -> None:
    state = tmp_path / "state"
    for _ in range(2):
        assert main(["preview", "dev", "--state-dir", str(state), "--no-cache", "--out", str(tmp_path / "o")]) == 0
    assert renders == ["dev", "dev"] and not state.exists()


@pytest.mark.slow
def test_a_change_to_any_key_renders_again(tmp_path, write_stack, renders, monkeypatch) -> None:
    cache = RenderCache(tmp_path / "state")
    stack = load_stack(str(write_stack("keyed", cluster_config())))
    reference = preview_json(cached_preview(stack, cache))
    assert preview_json(cached_preview(stack, cache)) == reference and len(renders) == 1

    changed_config = load_stack(str(write_stack("keyed", cluster_config(**{"nodes.count": 3}))))
    cached_preview(changed_config, cache)
    assert len(renders) == 2  # the stack file
    secret = {"gpu-cluster:ibmcloudApiKey": {"secure": "v1:b25l"}}
    with_secret = load_stack(str(write_stack("keyed", cluster_config(), extra=secret)))
    other_secret = load_stack(
        str(write_stack("keyed", cluster_config(), extra={"gpu-cluster:ibmcloudApiKey": {"secure": "v1:dHdv"}}))
    )
    cached_preview(with_secret, cache)
    assert len(renders) == 3  # a secret
    cached_preview(other_secret, cache)
    assert len(renders) == 3  # its ciphertext is not: offline, every encrypted value is the same stand-in
    cached_preview(load_stack(str(write_stack("renamed", cluster_config()))), cache)
    assert len(renders) == 4  # the stack's name
    assert stack.simulated is not None
    other_cluster = dataclasses.replace(stack, simulated=dataclasses.replace(stack.simulated, image_name="other"))
    cached_preview(other_cluster, cache)
    assert len(renders) == 5  # the simulated cluster
    monkeypatch.setattr(render_cache, "code_digest", lambda: "another program")
    cached_preview(stack, cache)
    assert len(renders) == 6  # the program's code
    monkeypatch.undo()
    monkeypatch.setattr(
        preview_module,
        "run_offline",
        lambda program, **kwargs: renders.append(kwargs["stack"]) or pytest.fail("rendered although nothing changed"),
    )
    assert preview_json(cached_preview(stack, cache)) == reference  # every earlier render is still there


def test_the_code_digest_covers_the_program_the_sdks_and_python(tmp_path, monkeypatch) -> None:
    for part in ("components", "experiments", "workloads"):
        (tmp_path / part).mkdir()
        (tmp_path / part / "module.py").write_text(f"# {part}\n")
    monkeypatch.setattr(render_cache, "PROJECT_ROOT", tmp_path)

    def digest() -> str:
        render_cache.code_digest.cache_clear()
        return render_cache.code_digest()

    reference = digest()
    assert digest() == reference
    for part in ("components", "experiments", "workloads"):
        (tmp_path / part / "module.py").write_text(f"# {part}, changed\n")
        assert digest() != reference, part
        (tmp_path / part / "module.py").write_text(f"# {part}\n")
    (tmp_path / "workloads" / "entrypoint.sh").write_text("#!/bin/sh\n")
    assert digest() != reference  # a file added
    (tmp_path / "workloads" / "entrypoint.sh").unlink()
    real = render_cache.metadata.version
    monkeypatch.setattr(
        render_cache.metadata, "version", lambda name: "0.0.0" if name == "pulumi_kubernetes" else real(name)
    )
    assert digest() != reference  # an SDK's version
    monkeypatch.setattr(render_cache.metadata, "version", real)
    monkeypatch.setattr(render_cache.platform, "python_version", lambda: "3.99.0")
    assert digest() != reference  # Python's
    monkeypatch.undo()
    render_cache.code_digest.cache_clear()


@pytest.mark.parametrize("damage", ["", "{", "[]", '{"format": 1}', "not json at all", "truncate"])
def test_a_damaged_entry_is_rendered_again_and_replaced(tmp_path, renders, damage) -> None:
    cache = RenderCache(tmp_path / "state")
    stack = load_stack("dev")
    reference = preview_json(cached_preview(stack, cache))
    (entry,) = (tmp_path / "state" / "renders").glob("*.json")
    entry.write_text(entry.read_text()[: len(entry.read_text()) // 2] if damage == "truncate" else damage)
    assert preview_json(cached_preview(stack, cache)) == reference and len(renders) == 2
    assert json.loads(entry.read_text())["format"] == render_cache.FORMAT
    assert preview_json(cached_preview(stack, cache)) == reference and len(renders) == 2


def test_an_entry_of_another_key_is_a_miss(tmp_path, renders) -> None:
    cache = RenderCache(tmp_path / "state")
    dev, other = load_stack("dev"), load_stack("l40s-1n")
    cached_preview(other, cache)
    (entry,) = (tmp_path / "state" / "renders").glob("*.json")
    entry.rename(entry.with_name(f"{render_cache.render_key(dev)}.json"))  # l40s-1n's render under dev's name
    assert preview_json(cached_preview(dev, cache)) == preview_json(preview_module.run_preview(dev))
    assert renders == ["l40s-1n", "dev", "dev"]


def test_a_warm_diff_renders_nothing(tmp_path, renders, capsys) -> None:
    argv = ["diff", "h100-2n-sriov", "h100-2n-sriov-rdma", "--state-dir", str(tmp_path / "state"), "--json"]
    assert main(argv) == 1
    cold = capsys.readouterr().out
    assert len(renders) == 2
    assert main(argv) == 1
    assert len(renders) == 2 and capsys.readouterr().out == cold


def test_a_state_dir_whose_cache_cannot_be_written_still_previews(tmp_path, renders) -> None:
    # The cache is only a speed-up: where renders/ cannot be made, the preview runs without it. (A
    # --state-dir that is no directory at all is the user's mistake, refused in tests/experiments/cli.)
    state = tmp_path / "state"
    state.mkdir()
    blocked = state / "renders"
    blocked.write_text("not a directory")
    assert main(["preview", "dev", "--state-dir", str(state), "--out", str(tmp_path / "o")]) == 0
    assert (tmp_path / "o" / "preview.json").is_file() and blocked.read_text() == "not a directory"
