"""``run_previews`` (what ``diff`` renders its two stacks with): the second stack in a forked process, the
same documents as two previews one after the other, and the second stack's error raised as a lone
preview raises it."""

from __future__ import annotations

import os

import pytest

from experiments.stacks.stackfile import load_stack
from experiments.state import preview as preview_module
from experiments.state.preview import preview_json, run_preview, run_previews


@pytest.fixture
def one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    # Earlier tests may leave the SDK's executor threads behind, which keeps run_previews sequential.
    monkeypatch.setattr(preview_module.threading, "active_count", lambda: 1)
    monkeypatch.setattr(preview_module, "_cores_free", lambda: 2.0)  # an idle machine, whatever this one does
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one core: run_previews runs one preview after the other")


@pytest.mark.slow
def test_the_second_preview_runs_in_another_process_and_renders_the_same(one_thread, monkeypatch) -> None:
    render = preview_module.run_preview

    def marked(stack):  # noqa: ANN001, ANN202
        preview = render(stack)
        preview.result.diagnostics.append(f"pid {os.getpid()}")
        return preview

    monkeypatch.setattr(preview_module, "run_preview", marked)
    a, b = run_previews(load_stack("h100-2n-sriov-rdma"), load_stack("l40s-2n-vnic"))
    assert a.result.diagnostics[-1] == f"pid {os.getpid()}"
    assert b.result.diagnostics[-1] != f"pid {os.getpid()}"
    for preview, name in ((a, "h100-2n-sriov-rdma"), (b, "l40s-2n-vnic")):
        preview.result.diagnostics.pop()
        assert preview_json(preview) == preview_json(run_preview(name))


def test_an_error_of_the_second_stack_is_raised_here(one_thread, monkeypatch) -> None:
    render = preview_module.run_preview

    def failing(stack):  # noqa: ANN001, ANN202
        if stack.name == "l40s-1n":
            raise ValueError(f"cannot render {stack.name}")
        return render(stack)

    monkeypatch.setattr(preview_module, "run_preview", failing)
    with pytest.raises(ValueError, match="^cannot render l40s-1n$"):
        run_previews(load_stack("dev"), load_stack("l40s-1n"))


def test_on_a_busy_machine_both_previews_run_here(monkeypatch) -> None:
    monkeypatch.setattr(preview_module.threading, "active_count", lambda: 1)
    monkeypatch.setattr(preview_module, "_cores_free", lambda: 1.2)  # this process's core and a little more
    render = preview_module.run_preview

    def marked(stack):  # noqa: ANN001, ANN202
        preview = render(stack)
        preview.result.diagnostics.append(f"pid {os.getpid()}")
        return preview

    monkeypatch.setattr(preview_module, "run_preview", marked)
    a, b = run_previews(load_stack("dev"), load_stack("l40s-1n"))
    assert a.result.diagnostics[-1] == b.result.diagnostics[-1] == f"pid {os.getpid()}"


def test_cores_free_is_what_the_load_average_leaves(monkeypatch) -> None:
    monkeypatch.setattr(preview_module.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(preview_module.os, "getloadavg", lambda: (1.5, 0.0, 0.0))
    assert preview_module._cores_free() == 0.5  # noqa: SLF001
