"""Issue 37: the render cache touches only what it wrote and treats anything it cannot fully validate as a miss.
The user's own files in ``renders/`` survive the prune; an entry of the wrong shape (its outputs, a Kubernetes
object without ``kind``, a field of another type) is rendered again, never used; a FIFO, a directory or a link
at an entry's path is a miss that never blocks and is left alone; a write that fails leaves no temporary file;
``--state-dir ""`` is refused like ``--out ""``."""

from __future__ import annotations

import copy
import json
import os
import resource
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from experiments.cli.main import main
from experiments.offline.engine import EngineResult
from experiments.stacks.stackfile import StackFile, load_stack
from experiments.state import render_cache
from experiments.state.preview import run_preview
from experiments.state.render_cache import KEEP, RenderCache, render_key
from tests.timing import hang_bound

BOUND_S = hang_bound(0.0)
"""Issue 38: a load has no deadline of its own; it must end far below this (it takes milliseconds)."""


@pytest.fixture(scope="module")
def dev(tmp_path_factory: pytest.TempPathFactory) -> tuple[StackFile, EngineResult, dict[str, Any]]:
    """The ``dev`` stack, its render, and the document the cache writes for it (rendered once)."""
    stack = load_stack("dev")
    result = run_preview(stack).result
    with_cache = RenderCache(tmp_path_factory.mktemp("fixture"))
    with_cache.store(stack, result)
    path = with_cache.directory / f"{render_key(stack)}.json"
    document = json.loads(path.read_text())
    path.unlink()
    return stack, result, document


def finishes(call: Callable[[], Any]) -> Any:
    """``call``'s result, failing the test (not hanging it) if it blocks for ``BOUND_S``."""
    box: list[Any] = []
    worker = threading.Thread(target=lambda: box.append(call()), daemon=True)
    worker.start()
    worker.join(BOUND_S)
    assert not worker.is_alive(), "blocked"
    return box[0]


def planted(tmp_path: Path, stack: StackFile, document: Any) -> RenderCache:
    cache = RenderCache(tmp_path / "state")
    cache.directory.mkdir(parents=True)
    (cache.directory / f"{render_key(stack)}.json").write_text(json.dumps(document, separators=(",", ":")))
    return cache


def test_a_good_entry_is_used(tmp_path, dev) -> None:
    stack, result, document = dev
    loaded = planted(tmp_path, stack, document).load(stack)
    assert loaded is not None and loaded.outputs == result.outputs and len(loaded.resources) == len(result.resources)


def _damaged(document: dict[str, Any], how: str) -> dict[str, Any]:
    damaged = copy.deepcopy(document)
    kube = next(r for r in damaged["resources"] if r["custom"] and r["type"].startswith("kubernetes:"))
    if how == "outputs-not-a-mapping":
        damaged["outputs"] = ["nics"]
    elif how == "nics-wrong-shape":
        damaged["outputs"]["nics"] = [{"node": 1}]
    elif how == "nics-not-the-plans":
        damaged["outputs"]["nics"][0]["ip"] = "203.0.113.99"
    elif how == "nics-missing":
        del damaged["outputs"]["nics"]
    elif how == "kind-missing":
        del kube["inputs"]["kind"]
    elif how == "kind-not-text":
        kube["inputs"]["kind"] = ["ConfigMap"]
    elif how == "metadata-not-a-mapping":
        kube["inputs"]["metadata"] = "name"
    elif how == "custom-not-a-bool":
        damaged["resources"][0]["custom"] = "yes"
    elif how == "parent-not-text":
        damaged["resources"][1]["parent"] = 7
    elif how == "extra-key":
        damaged["extra"] = 1
    return damaged


DAMAGES = [
    "outputs-not-a-mapping",
    "nics-wrong-shape",
    "nics-not-the-plans",
    "nics-missing",
    "kind-missing",
    "kind-not-text",
    "metadata-not-a-mapping",
    "custom-not-a-bool",
    "parent-not-text",
    "extra-key",
]


@pytest.mark.parametrize("how", DAMAGES)
def test_an_entry_that_does_not_validate_whole_is_a_miss(tmp_path, dev, how: str) -> None:
    stack, _, document = dev
    assert planted(tmp_path, stack, _damaged(document, how)).load(stack) is None


def test_preview_over_a_damaged_entry_renders_again_and_replaces_it(tmp_path, dev, capsys) -> None:
    """A Kubernetes object without kind was used: preview.json written, then a traceback, every later preview too."""
    stack, _, document = dev
    cache = planted(tmp_path, stack, _damaged(document, "kind-missing"))
    for run in ("first", "second"):
        assert main(["preview", "dev", "--state-dir", str(tmp_path / "state"), "--out", str(tmp_path / run)]) == 0
        assert "Traceback" not in capsys.readouterr().err
    assert cache.load(stack) is not None  # the damaged entry was replaced by the new render
    assert (tmp_path / "second" / "manifests").is_dir()


def _user_files(directory: Path) -> dict[str, bytes]:
    files = {f"notes-{n}.json": f'{{"mine": {n}}}'.encode() for n in range(70)}
    files |= {f"{n:064x}.json": b'{"format":1,"key":"someone else\'s"}' for n in range(5)}  # entry-shaped names
    files["zz.tmp"] = b"a draft"
    for name, data in files.items():
        (directory / name).write_bytes(data)
    return files


def test_the_prune_touches_only_what_the_cache_wrote(tmp_path, dev) -> None:
    """With 70 files of the user's own in renders/, 7 were deleted."""
    stack, result, _ = dev
    cache = RenderCache(tmp_path / "state")
    cache.directory.mkdir(parents=True)
    files = _user_files(cache.directory)
    ours = [f"{n + 100:064x}" for n in range(KEEP + 3)]
    for age, key in enumerate(ours):  # older entries of its own: the prune's to remove
        path = cache.directory / f"{key}.json"
        path.write_text(f'{{"format":1,"key":"{key}","resources":[]}}')
        os.utime(path, (1_000_000 + age, 1_000_000 + age))
    cache.store(stack, result)
    assert {name: (cache.directory / name).read_bytes() for name in files} == files
    left = [key for key in ours if (cache.directory / f"{key}.json").exists()]
    assert left == ours[4:]  # KEEP in all: the new render and the newest KEEP - 1 of the old
    assert cache.load(stack) is not None


def test_a_link_in_the_cache_is_neither_followed_nor_removed(tmp_path, dev) -> None:
    stack, result, document = dev
    outside = tmp_path / "outside"
    outside.mkdir()
    target = outside / "precious.json"
    target.write_text(json.dumps(document, separators=(",", ":")))  # a valid entry, but not in the cache
    cache = RenderCache(tmp_path / "state")
    cache.directory.mkdir(parents=True)
    entry = cache.directory / f"{render_key(stack)}.json"
    entry.symlink_to(target)
    for n in range(KEEP + 2):
        (cache.directory / f"{n:064x}.json").symlink_to(target)
    assert cache.load(stack) is None  # not followed
    cache.store(stack, result)  # nor written through, nor replaced
    assert entry.is_symlink() and target.read_text() == json.dumps(document, separators=(",", ":"))
    assert all((cache.directory / f"{n:064x}.json").is_symlink() for n in range(KEEP + 2))


def test_a_renders_directory_that_is_a_link_is_no_cache(tmp_path, dev) -> None:
    stack, result, _ = dev
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "renders").symlink_to(elsewhere)
    cache = RenderCache(tmp_path / "state")
    cache.store(stack, result)
    assert list(elsewhere.iterdir()) == [] and cache.load(stack) is None


@pytest.mark.parametrize("kind", ["fifo", "directory", "link-to-fifo", "link-to-dev-zero"])
def test_a_non_regular_file_at_an_entry_path_is_a_miss_that_never_blocks_and_stays(tmp_path, dev, kind: str) -> None:
    """A FIFO planted at an entry's path blocked ``preview`` forever."""
    stack, result, _ = dev
    cache = RenderCache(tmp_path / "state")
    cache.directory.mkdir(parents=True)
    entry = cache.directory / f"{render_key(stack)}.json"
    if kind == "fifo":
        os.mkfifo(entry)
    elif kind == "directory":
        entry.mkdir()
    elif kind == "link-to-fifo":
        os.mkfifo(tmp_path / "pipe")
        entry.symlink_to(tmp_path / "pipe")
    else:
        entry.symlink_to("/dev/zero")
    os.mkfifo(cache.directory / f"{0:064x}.json")  # and one more where the prune looks
    assert finishes(lambda: cache.load(stack)) is None
    finishes(lambda: cache.store(stack, result))
    assert not entry.is_file() or entry.is_symlink()  # left as it was: the cache did not write it
    assert list(cache.directory.glob("*.tmp")) == [] and list(cache.directory.glob(".render-*")) == []


def test_preview_over_a_fifo_entry_finishes(tmp_path, dev) -> None:
    stack, _, _ = dev
    directory = tmp_path / "state" / "renders"
    directory.mkdir(parents=True)
    os.mkfifo(directory / f"{render_key(stack)}.json")
    argv = ["preview", "dev", "--state-dir", str(tmp_path / "state"), "--out", str(tmp_path / "o")]
    assert finishes(lambda: main(argv)) == 0


def test_a_write_on_a_full_disk_leaves_no_temporary_file(tmp_path, dev) -> None:
    """A partial ``tmpXXXX.tmp`` was left behind, and these piled up.  The file size limit makes the write fail
    as a full disk does (``EFBIG`` instead of ``ENOSPC``), whatever the cache writes with."""
    stack, result, _ = dev
    cache = RenderCache(tmp_path / "state")
    cache.directory.mkdir(parents=True)
    limits = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (16 * 1024, limits[1]))
    try:
        cache.store(stack, result)  # a render of about 100 KB: the disk is "full" after 16 KB
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limits)
        signal.signal(signal.SIGXFSZ, handler)
    assert list(cache.directory.iterdir()) == []
    cache.store(stack, result)
    assert cache.load(stack) is not None  # room again: kept


class _Interrupted:
    """A file whose write is interrupted half-way (Ctrl-C)."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def write(self, text: str) -> int:
        self.handle.write(text[: len(text) // 2])
        self.handle.flush()
        raise KeyboardInterrupt

    def __enter__(self) -> _Interrupted:
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()


def test_an_interrupted_write_leaves_no_temporary_file(tmp_path, dev, monkeypatch) -> None:
    stack, result, _ = dev
    opened = os.fdopen
    monkeypatch.setattr(render_cache.os, "fdopen", lambda fd, *a, **k: _Interrupted(opened(fd, *a, **k)))
    cache = RenderCache(tmp_path / "state")
    with pytest.raises(KeyboardInterrupt):
        cache.store(stack, result)
    assert list(cache.directory.iterdir()) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["preview", "dev", "--state-dir", ""],
        ["diff", "dev", "dev", "--state-dir", " "],
        ["stack", "workers", "dev", "--state-dir", ""],
        ["sweep", "--offline", "--profile", "l40s", "--variant", "pod", "--nodes", "2", "--state-dir", ""],
    ],
    ids=["preview", "diff", "stack", "sweep"],
)
def test_an_empty_state_dir_is_refused_like_an_empty_out(tmp_path, capsys, monkeypatch, argv: list[str]) -> None:
    """``--state-dir ""`` wrote renders/ into the current directory."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert "--state-dir: must not be empty" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
