"""``run_previews`` and ``cached_previews`` (what ``diff`` renders its two stacks with): the second stack in a
forked process where a second core is free now, the same documents as two previews one after the other, each
render kept by the process that made it, the second stack's error raised as a lone preview raises it; and the
test of "a second core is free now" on ``/proc/stat``, hostile contents included."""

from __future__ import annotations

import os

import pytest

from experiments.stacks.stackfile import load_stack
from experiments.state import side_by_side
from experiments.state.preview import preview_json, run_preview
from experiments.state.render_cache import RenderCache
from experiments.state.side_by_side import (
    FREE_CORES,
    SAMPLE_S,
    cached_previews,
    cpu_ticks,
    idle_cores,
    others_runnable,
    run_previews,
    second_core_free,
)


@pytest.fixture
def one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    # Earlier tests may leave the SDK's executor threads behind, which keeps run_previews sequential.
    monkeypatch.setattr(side_by_side.threading, "active_count", lambda: 1)
    monkeypatch.setattr(side_by_side, "second_core_free", lambda: True)  # an idle machine, whatever this one does
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one core: run_previews runs one preview after the other")


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each preview says which process rendered it, in its last diagnostic."""
    render = side_by_side.run_preview

    def marking(stack):  # noqa: ANN001, ANN202
        preview = render(stack)
        preview.result.diagnostics.append(f"pid {os.getpid()}")
        return preview

    monkeypatch.setattr(side_by_side, "run_preview", marking)


@pytest.mark.slow
def test_the_second_preview_runs_in_another_process_and_renders_the_same(one_thread, marked) -> None:
    a, b = run_previews(load_stack("h100-2n-sriov-rdma"), load_stack("l40s-2n-vnic"))
    assert a.result.diagnostics[-1] == f"pid {os.getpid()}"
    assert b.result.diagnostics[-1] != f"pid {os.getpid()}"
    for preview, name in ((a, "h100-2n-sriov-rdma"), (b, "l40s-2n-vnic")):
        preview.result.diagnostics.pop()
        assert preview_json(preview) == preview_json(run_preview(name))


def test_each_render_is_kept_by_the_process_that_made_it(one_thread, marked, monkeypatch, tmp_path) -> None:
    store = RenderCache.store

    def signed(self, stack, result):  # noqa: ANN001, ANN202
        result.diagnostics.append(f"kept by {os.getpid()}")
        store(self, stack, result)

    monkeypatch.setattr(RenderCache, "store", signed)
    renders = RenderCache(tmp_path)
    first, second = load_stack("dev"), load_stack("l40s-1n")
    a, b = cached_previews(first, second, renders)
    here = f"pid {os.getpid()}", f"kept by {os.getpid()}"
    assert a.result.diagnostics[-2:] == list(here)
    rendered, kept = b.result.diagnostics[-2:]
    assert rendered.startswith("pid ") and rendered not in here and kept == f"kept by {rendered.removeprefix('pid ')}"
    assert renders.load(second) == b.result and renders.load(first) == a.result  # the child's store, read here


def test_an_error_of_the_second_stack_is_raised_here(one_thread, monkeypatch) -> None:
    render = side_by_side.run_preview

    def failing(stack):  # noqa: ANN001, ANN202
        if stack.name == "l40s-1n":
            raise ValueError(f"cannot render {stack.name}")
        return render(stack)

    monkeypatch.setattr(side_by_side, "run_preview", failing)
    with pytest.raises(ValueError, match="^cannot render l40s-1n$"):
        run_previews(load_stack("dev"), load_stack("l40s-1n"))


def test_on_a_busy_machine_both_previews_run_here(marked, monkeypatch) -> None:
    monkeypatch.setattr(side_by_side.threading, "active_count", lambda: 1)
    monkeypatch.setattr(side_by_side, "second_core_free", lambda: False)
    a, b = run_previews(load_stack("dev"), load_stack("l40s-1n"))
    assert a.result.diagnostics[-1] == b.result.diagnostics[-1] == f"pid {os.getpid()}"


@pytest.mark.parametrize("why", ["another thread", "no fork"])
def test_without_a_safe_fork_the_machine_is_not_even_sampled(why, marked, monkeypatch) -> None:
    monkeypatch.setattr(side_by_side.threading, "active_count", lambda: 2 if why == "another thread" else 1)
    if why == "no fork":
        monkeypatch.setattr(side_by_side.multiprocessing, "get_all_start_methods", lambda: ["spawn"])

    def sampled() -> bool:
        raise AssertionError("sampled")

    monkeypatch.setattr(side_by_side, "second_core_free", sampled)
    a, b = run_previews(load_stack("dev"), load_stack("l40s-1n"))
    assert a.result.diagnostics[-1] == b.result.diagnostics[-1] == f"pid {os.getpid()}"


def stat(*cpus: tuple[int, int]) -> str:
    """``/proc/stat`` as Linux writes it: ``(busy, idle)`` ticks per processor, then other statistics."""
    lines = [f"cpu  {sum(b for b, _ in cpus)} 0 0 {sum(i for _, i in cpus)} 0 0 0 0 0 0"]
    lines += [f"cpu{n} {busy} 0 0 {idle} 0 0 0 0 0 0" for n, (busy, idle) in enumerate(cpus)]
    return "\n".join([*lines, "intr 8572316 0 0", "ctxt 19238467", "btime 1764200000", "procs_running 3", ""])


QUIET = "0.50 2.61 2.57 1/93 13925\n"
"""``/proc/loadavg`` when nothing but this process has a task to run this instant."""


def sampled(
    before: str,
    after: str,
    monkeypatch: pytest.MonkeyPatch,
    cpus: set[int] | None = None,
    loadavg: str = QUIET,
    machine: int = 2,
) -> bool:
    """``second_core_free`` reading ``loadavg`` and the two samples of ``/proc/stat``, on ``machine`` cores."""
    monkeypatch.setattr(side_by_side.os, "sched_getaffinity", lambda pid: cpus or {0, 1}, raising=False)
    texts, slept = iter([before, after]), []

    def read(path):  # noqa: ANN001, ANN202
        return loadavg if path == side_by_side._LOADAVG else next(texts)  # noqa: SLF001

    free = second_core_free(read, slept.append, machine)
    assert slept in ([SAMPLE_S], [])
    return free


@pytest.mark.parametrize(
    ("after", "free"),
    [
        (stat((100, 1020), (200, 2020)), True),  # both idle
        (stat((100, 1020), (220, 2000)), False),  # the other processor busy (this one sleeps while sampling)
        (stat((100, 1020), (210, 2010)), True),  # the other half idle: FREE_CORES
        (stat((100, 1020), (211, 2009)), False),  # a little less
        (stat((120, 1000), (220, 2000)), False),  # both busy
    ],
)
def test_a_second_core_is_free_when_the_sample_shows_it_idle(after, free, monkeypatch) -> None:
    assert FREE_CORES == 1.5
    assert sampled(stat((100, 1000), (200, 2000)), after, monkeypatch) is free


def test_only_the_processors_this_process_may_run_on_count(monkeypatch) -> None:
    before = stat((100, 1000), (200, 2000), (0, 0), (0, 0))
    after = stat((120, 1000), (220, 2000), (0, 20), (0, 20))  # the idle two are not ours
    assert sampled(before, after, monkeypatch, machine=4) is False
    assert sampled(before, after, monkeypatch, cpus={2, 3}, machine=4) is True
    assert sampled(before, after, monkeypatch, cpus={3}, machine=4) is False  # one processor: nothing to fork onto


@pytest.mark.parametrize(("runnable", "machine", "free"), [(1, 2, True), (2, 2, False), (3, 4, True), (4, 4, False)])
def test_tasks_runnable_this_instant_on_every_other_core_mean_no_fork_and_no_wait(
    runnable, machine, free, monkeypatch
) -> None:
    # This process is one of them; the others leave a core free only where they number at most cores - 2.
    idle = stat((100, 1020), (200, 2020))
    loadavg = f"2.50 2.61 2.57 {runnable}/93 13925\n"
    assert sampled(stat((100, 1000), (200, 2000)), idle, monkeypatch, loadavg=loadavg, machine=machine) is free


@pytest.mark.parametrize(
    "loadavg",
    [
        "",
        "garbage",
        "0.50 2.61 2.57 0/93 13925\n",  # not even this process
        "0.50 2.61 2.57 94/93 13925\n",  # more runnable than exist
        "0.50 2.61 2.57 -1/93 13925\n",
        "0.50 2.61 2.57 \u0661/93 13925\n",  # a digit, but not ASCII
        "0.50 2.61 2.57 1/93\n",  # a field missing
        "0.50 2.61 2.57 1/93 13925 7\n",  # one more
        "0.50 2.61 2.57 1/93 13925\n0.50 2.61 2.57 1/93 13925\n",
        "0.50 2.61 2.57 1/9999999999 13925\n",  # a number no count reaches
        "nan 2.61 2.57 1/93 13925\n",
    ],
)
def test_odd_proc_loadavg_contents_mean_no_fork(loadavg, monkeypatch) -> None:
    assert (
        sampled(stat((100, 1000), (200, 2000)), stat((100, 1020), (200, 2020)), monkeypatch, loadavg=loadavg) is False
    )
    assert others_runnable(QUIET) == 0 and others_runnable("2.50 2.61 2.57 3/93 13925") == 2


def test_the_real_proc_files_read_as_this_machine() -> None:
    if not os.path.exists("/proc/stat"):
        pytest.skip("no /proc/stat: not Linux")
    cpus = frozenset(os.sched_getaffinity(0))
    ticks = cpu_ticks(side_by_side._read(side_by_side._STAT), cpus)  # noqa: SLF001
    assert set(ticks) == cpus and all(0 <= idle <= total for idle, total in ticks.values())
    assert others_runnable(side_by_side._read(side_by_side._LOADAVG)) >= 0  # noqa: SLF001


IDLE = stat((100, 1000), (200, 2000))


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("", ""),  # empty
        ("\x00\x01garbage", "\x00\x01garbage"),
        (IDLE, "cpu  1 2 3 4\ncpu0 120 0 0 1000 0 0 0 0 0 0\n"),  # a processor missing
        (IDLE, IDLE + "cpu1 300 0 0 3000 0 0 0 0 0 0\n"),  # a processor twice
        (IDLE, IDLE.replace("cpu1 200 0 0 2000", "cpu1 2OO 0 0 2020")),  # not a number
        (IDLE, IDLE.replace("cpu1 200 0 0 2000", "cpu1 -200 0 0 2020")),  # negative
        (IDLE, IDLE.replace("cpu1 200 0 0 2000 0 0 0 0 0 0", "cpu1 200 0 2020")),  # too few counters
        (IDLE, IDLE.replace("cpu1 200 0 0 2000 0 0 0 0 0 0", "cpu1 200 0 0 2020" + " 0" * 9)),  # too many
        (IDLE, IDLE.replace("cpu1 200 0 0 2000", "cpu1 200 0 0 " + "9" * 21)),  # a number no counter reaches
        (IDLE, IDLE.replace("cpu1 200 0 0 2000", "cpu\u0661 200 0 0 2020")),  # a digit, but not ASCII
        (IDLE, IDLE.replace("cpu1 200 0 0 2000", "cpu1  200 0 0 2020")),  # another layout
        (IDLE, IDLE.replace("cpu1 200 0 0 2000", "cpu1\t200 0 0 2020")),
        (IDLE, IDLE.replace("cpu1 200 0 0 2000", "cpufreq 200 0 0 2020")),  # a cpu line of no processor
        (IDLE, IDLE),  # no tick elapsed
        (IDLE, stat((100, 1020), (200, 1990))),  # a counter went back
        (IDLE, stat((90, 1030), (200, 2020))),  # more idle than time passed
        (IDLE.replace("cpu1 200 0 0 2000 0", "cpu1 200 0 0 2000 9000"), stat((100, 1020), (200, 2020))),  # iowait
    ],
)
def test_odd_proc_stat_contents_mean_no_fork(before, after, monkeypatch) -> None:
    assert sampled(before, after, monkeypatch) is False


@pytest.mark.parametrize("unreadable", ["stat", "loadavg"])
def test_a_file_that_cannot_be_read_means_no_fork(unreadable, monkeypatch, tmp_path) -> None:
    (tmp_path / "loadavg").write_text(QUIET)
    (tmp_path / "stat").write_text(IDLE)
    monkeypatch.setattr(side_by_side, "_LOADAVG", tmp_path / "loadavg")
    monkeypatch.setattr(side_by_side, "_STAT", tmp_path / "stat")
    monkeypatch.setattr(side_by_side.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)

    def sampling(seconds: float) -> None:  # the processors' counters move on while this process sleeps
        (tmp_path / "stat").write_text(stat((100, 1020), (200, 2020)))

    assert second_core_free(sleep=sampling, machine_cores=2) is True  # both readable: an idle machine
    monkeypatch.setattr(side_by_side, f"_{unreadable.upper()}", tmp_path / "absent")
    assert second_core_free(sleep=sampling, machine_cores=2) is False
    (tmp_path / "odd").write_bytes((QUIET if unreadable == "loadavg" else IDLE).encode().replace(b"1", b"\xff"))
    monkeypatch.setattr(side_by_side, f"_{unreadable.upper()}", tmp_path / "odd")
    assert second_core_free(sleep=sampling, machine_cores=2) is False  # not ASCII
    (tmp_path / "unreadable").mkdir()
    monkeypatch.setattr(side_by_side, f"_{unreadable.upper()}", tmp_path / "unreadable")
    assert second_core_free(sleep=sampling, machine_cores=2) is False  # a directory: IsADirectoryError


def test_no_affinity_call_means_no_fork(monkeypatch) -> None:
    monkeypatch.delattr(side_by_side.os, "sched_getaffinity", raising=False)  # not Linux
    loadavg = side_by_side._LOADAVG  # noqa: SLF001
    assert second_core_free(lambda path: QUIET if path == loadavg else IDLE, lambda s: None) is False


def test_idle_time_is_counted_per_processor_in_processors() -> None:
    before = cpu_ticks(stat((100, 1000), (200, 2000)), frozenset({0, 1}))
    assert before == {0: (1000, 1100), 1: (2000, 2200)}
    assert idle_cores(before, cpu_ticks(stat((105, 1015), (200, 2020)), frozenset({0, 1}))) == 0.75 + 1.0
    iowait = "cpu0 1 0 0 10 5 0 0 0 7 7\ncpu1 1 0 0 10 0 0 0 0 0 0\n"  # iowait is idle; guest already in user
    assert cpu_ticks(iowait, frozenset({0})) == {0: (15, 16)}
