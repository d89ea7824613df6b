"""main_ds on several GPUs: the guard's equal minibatch counts, its stall watchdog and what the
launcher makes of them (workloads/main_ds_guard.py, workloads/launch_guard.py, docs/training.md).

The packer below deals whole padded minibatches to the least-loaded rank by padded tokens, as
instructlab-training 0.16.2's ``_distribute_batches_balanced`` does; it is this test's own, not
upstream's code, and reproduces the uneven counts the GPU runs showed ([7, 6], [6, 5])."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from workloads.launch_env import Rendezvous
from workloads.launch_guard import first_stall, guard_main_ds, usable_cpus
from workloads.launch_messages import E_CONFIG, LaunchError
from workloads.main_ds_guard import (
    EQUAL_MARK,
    STALL_EXIT,
    STALL_MARK,
    Progress,
    equal_counts,
    last_collective,
    overdue,
    save_on_stack,
    watch,
    watched_save,
)

ROOT = Path(__file__).resolve().parents[2]
GUARD = ROOT / "workloads" / "main_ds_guard.py"
RUNS = ROOT / "tests" / "fixtures" / "runs"


def balanced_packer(lengths: list[int], max_tokens: int, num_ranks: int, rank: int) -> list[list[int]]:
    """Minibatches of longest-first samples under max_tokens (padded), dealt to the least-loaded rank."""
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    batches: list[list[int]] = []
    for index in order:
        if batches and (len(batches[-1]) + 1) * lengths[batches[-1][0]] <= max_tokens:
            batches[-1].append(index)
        else:
            batches.append([index])
    loads = [0] * num_ranks
    mine: list[list[int]] = []
    for batch in sorted(batches, key=lambda b: -len(b) * lengths[b[0]]):
        target = loads.index(min(loads))
        loads[target] += len(batch) * lengths[batch[0]]
        if target == rank:
            mine.append(batch)
    return mine


def uneven_lengths(seed: int, ranks: int) -> list[int]:
    rng = random.Random(seed)
    while True:
        lengths = [min(4000, max(32, int(rng.lognormvariate(7.15, 0.55)))) for _ in range(64)]
        counts = {len(balanced_packer(lengths, 35000, ranks, r)) for r in range(ranks)}
        if len(counts) > 1:
            return lengths


@pytest.mark.parametrize("ranks", [2, 4, 8])
def test_every_rank_gets_the_same_number_of_minibatches(ranks: int) -> None:
    said: list[str] = []
    for seed in range(20):
        lengths = uneven_lengths(seed, ranks)
        results = [
            equal_counts(balanced_packer, Progress(), said.append)(lengths, 35000, ranks, r) for r in range(ranks)
        ]
        assert len({len(r) for r in results}) == 1, [len(r) for r in results]
        for rank, result in enumerate(results):
            real = [mb for mb in result if mb != [-1]]
            assert real == balanced_packer(lengths, 35000, ranks, rank)  # the rank's own share, in order
        # Every sample is trained exactly once; the fillers are the collator's dummy ([-1]).
        assert sorted(i for r in results for mb in r for i in mb if i != -1) == list(range(len(lengths)))
    assert said and all(line.startswith(EQUAL_MARK) and "each padded to" in line for line in said)


def test_unpadded_mode_keeps_upstream_counts_and_says_so() -> None:
    lengths = uneven_lengths(3, 2)
    said: list[str] = []
    progress = Progress()
    packer = equal_counts(balanced_packer, progress, said.append, pad=False)
    counts = [len(packer(lengths, 35000, 2, r)) for r in range(2)]
    assert counts[0] != counts[1]
    assert len(said) == 1 and "NOT padded" in said[0] and str(counts) in said[0]  # rank 0 only
    assert progress.counts == tuple(counts)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_progress_is_idle_only_inside_the_training_loop() -> None:
    clock = Clock()
    progress = Progress(clock)
    clock.now += 10_000  # model load, data step: not the watchdog's business
    assert progress.idle() == 0.0
    progress.enter("forward/backward of 22 minibatch(es) and the loss all-reduce", next_step=True)
    clock.now += 7
    assert progress.idle() == 7
    progress.enter("the optimizer step, logging and any checkpoint")
    assert progress.idle() == 0 and progress.step == 1
    progress.record_counts([22, 21])
    assert progress.describe() == (
        "step 1, the optimizer step, logging and any checkpoint; minibatches per rank in this step: [22, 21]"
    )


def flight_recorder(*entries: dict[str, object]) -> bytes:
    return pickle.dumps({"version": "2.4", "entries": list(entries)})


def test_the_watchdog_names_the_step_the_counts_and_the_collective() -> None:
    clock = Clock()
    progress = Progress(clock)
    progress.enter("forward/backward of 6 minibatch(es) and the loss all-reduce", next_step=True)
    progress.record_counts([6, 5])
    clock.now += 61
    said: list[str] = []
    stopped = threading.Event()
    statuses: list[int] = []
    trace = flight_recorder(
        {"collective_seq_id": 4, "profiling_name": "nccl:all_gather", "state": "completed"},
        {
            "collective_seq_id": 5,
            "profiling_name": "nccl:all_reduce",
            "state": "scheduled",
            "process_group": ["0", "default_pg"],
        },
    )
    thread = watch(
        progress,
        60,
        "1",
        poll=0.01,
        trace=lambda: trace,
        stop=lambda status: (statuses.append(status), stopped.set()),
        say=said.append,
    )
    assert stopped.wait(30)  # returns once set: the bound is only for a hang
    thread.join(5)
    assert statuses == [STALL_EXIT]
    assert said == [
        f"{STALL_MARK} rank 1 made no progress for 61 s (GPU_CLUSTER_STALL_SECONDS 60) in step 1, "
        "forward/backward of 6 minibatch(es) and the loss all-reduce; minibatches per rank in this "
        "step: [6, 5]; waiting in collective nccl:all_reduce #5 (scheduled, process group "
        "default_pg, 1 not completed)"
    ]


@pytest.mark.parametrize(
    ("trace", "expected"),
    [
        (None, "collective unknown (flight recorder off"),
        (b"not a pickle", "collective unknown (flight recorder unreadable"),
        (pickle.dumps([1, 2]), "collective unknown (flight recorder empty)"),
        (flight_recorder({"profiling_name": "nccl:all_reduce", "state": "completed"}), "no collective in flight"),
        (
            flight_recorder(
                "junk",
                {
                    "profiling_name": "nccl:reduce_scatter",
                    "collective_seq_id": 9,
                    "state": "started",
                    "process_group": "odd",
                },
            ),
            "collective nccl:reduce_scatter #9 (started, 1 not completed)",
        ),
    ],
)
def test_flight_recorder_dumps_of_any_shape_give_one_phrase(trace: bytes | None, expected: str) -> None:
    assert last_collective(trace).startswith(expected)


RENDEZVOUS = Rendezvous("1", "4", "0", "127.0.0.1", "29500", ("-m", "instructlab.training.main_ds"))


def test_main_ds_runs_through_the_guard_with_the_watchdogs_environment() -> None:
    env = {"GPU_CLUSTER_STALL_SECONDS": "1800"}
    guarded = guard_main_ds(env, RENDEZVOUS, ["--cpu_offload_params_fsdp"], cpus=lambda: 64)
    assert guarded.target == (str(GUARD),)
    assert env == {
        "GPU_CLUSTER_STALL_SECONDS": "1800",
        # A save may take 4 stall limits; NCCL waits longer still, as its last barrier waits for rank 0's writes.
        "GPU_CLUSTER_SAVE_SECONDS": "7200",
        "INSTRUCTLAB_NCCL_TIMEOUT_MS": str(7320 * 1000),
        "TORCH_NCCL_TRACE_BUFFER_SIZE": "2000",
        "OMP_NUM_THREADS": "16",
    }


def test_what_the_user_set_is_kept_and_other_programs_run_as_they_are() -> None:
    env = {
        "INSTRUCTLAB_NCCL_TIMEOUT_MS": "5000",
        "TORCH_NCCL_TRACE_BUFFER_SIZE": "64",
        "OMP_NUM_THREADS": "3",
        "GPU_CLUSTER_STALL_SECONDS": "600",
    }
    guard_main_ds(env, RENDEZVOUS, ["--cpu_offload_params_fsdp"], cpus=lambda: 64)
    assert (env["INSTRUCTLAB_NCCL_TIMEOUT_MS"], env["TORCH_NCCL_TRACE_BUFFER_SIZE"], env["OMP_NUM_THREADS"]) == (
        "5000",
        "64",
        "3",
    )
    no_offload: dict[str, str] = {}
    guard_main_ds(no_offload, RENDEZVOUS, [], cpus=lambda: 64)
    assert "OMP_NUM_THREADS" not in no_offload and "INSTRUCTLAB_NCCL_TIMEOUT_MS" not in no_offload
    script = Rendezvous("1", "4", "0", "a", "1", ("/opt/train.py",))
    untouched: dict[str, str] = {}
    assert guard_main_ds(untouched, script, ["--cpu_offload_params_fsdp"]) is script and untouched == {}


BAD_SECONDS = [
    "0",
    "-5",
    "1e3",
    "1e23",
    "inf",
    "-inf",
    "nan",
    "ten",
    "60 ",
    "6.5",
    "0x10",
    "\uff16\uff10",  # full-width digits, which int() would take
    "100000000000000000000000",  # 1e23 written out: a timedelta of it overflows
]


@pytest.mark.parametrize("value", BAD_SECONDS)
def test_a_stall_limit_that_is_not_a_whole_count_in_range_stops_the_launch(value: str) -> None:
    env = {"GPU_CLUSTER_STALL_SECONDS": value}
    with pytest.raises(LaunchError) as caught:
        guard_main_ds(env, RENDEZVOUS, [])
    assert caught.value.status == E_CONFIG and caught.value.message == (
        f"GPU_CLUSTER_STALL_SECONDS must be a whole number of seconds from 1 to 604800, got {value!r}"
    )
    assert env == {"GPU_CLUSTER_STALL_SECONDS": value}  # nothing derived from it
    with pytest.raises(LaunchError):  # whatever the program
        guard_main_ds({"GPU_CLUSTER_STALL_SECONDS": value}, Rendezvous("1", "4", "0", "a", "1", ("/x.py",)), [])


def test_the_limits_bounds_and_the_users_collective_timeout_are_checked_too() -> None:
    guard_main_ds({"GPU_CLUSTER_STALL_SECONDS": "604800"}, RENDEZVOUS, [])
    for env, message in (
        ({"GPU_CLUSTER_STALL_SECONDS": "604801"}, "GPU_CLUSTER_STALL_SECONDS must be a whole number of seconds"),
        ({"GPU_CLUSTER_SAVE_SECONDS": "1e23"}, "GPU_CLUSTER_SAVE_SECONDS must be a whole number of seconds from 1 to "),
        ({"GPU_CLUSTER_SAVE_SECONDS": "nan"}, "GPU_CLUSTER_SAVE_SECONDS must be a whole number of seconds"),
        ({"INSTRUCTLAB_NCCL_TIMEOUT_MS": "1e23"}, "INSTRUCTLAB_NCCL_TIMEOUT_MS must be a whole number of millisec"),
        ({"INSTRUCTLAB_NCCL_TIMEOUT_MS": "9" * 30}, "INSTRUCTLAB_NCCL_TIMEOUT_MS must be a whole number of millisec"),
        ({"INSTRUCTLAB_NCCL_TIMEOUT_MS": "-1"}, "INSTRUCTLAB_NCCL_TIMEOUT_MS must be a whole number of millisec"),
    ):
        with pytest.raises(LaunchError) as caught:
            guard_main_ds(env, RENDEZVOUS, [])
        assert caught.value.status == E_CONFIG and caught.value.message.startswith(message), env
        assert "\n" not in caught.value.message
    long = "9" * 5000
    with pytest.raises(LaunchError) as caught:
        guard_main_ds({"GPU_CLUSTER_STALL_SECONDS": long}, RENDEZVOUS, [])
    assert len(caught.value.message) < 200  # a hostile value is cut, not repeated whole


def test_a_save_limit_of_its_own_is_kept_and_nccl_waits_past_the_longer_limit() -> None:
    env = {"GPU_CLUSTER_STALL_SECONDS": "600", "GPU_CLUSTER_SAVE_SECONDS": "9000"}
    guard_main_ds(env, RENDEZVOUS, [])
    assert (env["GPU_CLUSTER_SAVE_SECONDS"], env["INSTRUCTLAB_NCCL_TIMEOUT_MS"]) == ("9000", str(9120 * 1000))
    with pytest.raises(LaunchError) as caught:  # a save's limit is the longer one, as job.save_timeout_s's
        guard_main_ds({"GPU_CLUSTER_STALL_SECONDS": "600", "GPU_CLUSTER_SAVE_SECONDS": "100"}, RENDEZVOUS, [])
    assert caught.value.status == E_CONFIG and caught.value.message == (
        "GPU_CLUSTER_SAVE_SECONDS 100 is below GPU_CLUSTER_STALL_SECONDS 600: a save's limit is the longer"
    )


@pytest.mark.parametrize(
    ("cpu_max", "cap"),
    [("200000 100000", 2), ("150000 100000", 2), ("max 100000", None), ("garbage", None), ("", None)],
)
def test_usable_cpus_honours_the_pods_cpu_limit(tmp_path: Path, cpu_max: str, cap: int | None) -> None:
    (tmp_path / "cpu.max").write_text(cpu_max + "\n")
    import os

    affinity = len(os.sched_getaffinity(0))
    assert usable_cpus(str(tmp_path)) == (min(affinity, cap) if cap else affinity)
    assert usable_cpus(str(tmp_path / "absent")) == affinity


def test_first_stall_prefers_the_guards_line_then_ncclS_watchdog(tmp_path: Path) -> None:
    log = tmp_path / "torchrun.log"
    nccl = (
        "[rank0]:[E] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, "
        "NumelIn=2, Timeout(ms)=60000) ran for 60004 milliseconds before timing out.\n"
    )
    log.write_text("noise\n" + nccl)
    assert first_stall(str(log)) == (
        "NCCL's watchdog stopped a rank: collective WorkNCCL(SeqNum=5, "
        "OpType=ALLREDUCE, NumelIn=2, Timeout(ms)=60000) timed out"
    )
    log.write_text("noise\n" + nccl + f"[rank1]: {STALL_MARK} rank 1 made no progress\n" + "x" * 100_000 + "\n")
    assert first_stall(str(log)) == f"{STALL_MARK} rank 1 made no progress"
    log.write_bytes(b"\xff\xfe binary \x00 garbage\n" * 100)
    assert first_stall(str(log)) is None
    assert first_stall(str(tmp_path / "missing.log")) is None


def test_the_recorded_hang_names_its_step_and_collective() -> None:
    """The uneven run on two H100s (GPU_CLUSTER_EQUAL_MINIBATCHES=0) stopped with the guard's line."""
    log = RUNS / "h100-1n-main_ds-2gpu-uneven-hang.log"
    stall = first_stall(str(log))
    assert stall is not None and "in step 2" in stall and "nccl:all_reduce" in stall
    assert f"entrypoint: error: training stopped: {stall}" in log.read_text()


FAKE_MAIN_DS = """
import sys, time
from instructlab.training import sampler, batch_loss_manager
from instructlab.training.utils import save_checkpoint  # bound when main_ds is imported, as 0.16's is
collator_packer = sampler.batch_lengths_to_minibatches_padded  # bound when the collator is built
print("argv", sys.argv[1:], flush=True)
for rank in range(2):
    print("rank", rank, collator_packer([3000, 2000, 1000], 10_000, 2, rank), flush=True)
print("processed", batch_loss_manager.BatchLossManager().process_batch([[0], [1]]), flush=True)
if "--hang" in sys.argv:
    time.sleep(60)
def save_model_to_volume(seconds):  # a saver of main_ds's own, which no hook wraps
    time.sleep(seconds)
for arg in sys.argv:
    if arg.startswith("--final-save="):  # the last step is done: the final checkpoint, then the end
        save_checkpoint(float(arg.split("=")[1]))
        print("saved", flush=True)
    if arg.startswith("--own-save="):
        save_model_to_volume(float(arg.split("=")[1]))
        print("saved", flush=True)
"""


@pytest.fixture
def fake_instructlab(tmp_path: Path) -> Path:
    package = tmp_path / "instructlab" / "training"
    package.mkdir(parents=True)
    (tmp_path / "instructlab" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "sampler.py").write_text(
        "def batch_lengths_to_minibatches_padded(lengths, max_tokens, num_ranks, rank):\n"
        "    return [[i] for i in range(len(lengths)) if i % num_ranks == rank]\n"
    )
    (package / "batch_loss_manager.py").write_text(
        "class BatchLossManager:\n    def process_batch(self, batch):\n        return len(batch)\n"
    )
    (package / "utils.py").write_text(
        "import time\n"
        "def save_hf_format_accelerate(seconds):\n    time.sleep(seconds)\n"
        "def save_checkpoint(seconds):\n    save_hf_format_accelerate(seconds)  # as 0.16's does\n"
    )
    (package / "main_ds.py").write_text(FAKE_MAIN_DS)
    return tmp_path


def run_guard(fake: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(GUARD), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(fake), "RANK": "1", **env},
    )


def test_the_guard_runs_main_ds_as_its_main_module_with_the_packer_hooked(fake_instructlab: Path) -> None:
    result = run_guard(fake_instructlab, "--max_batch_len=35000", "--disable_flash_attn")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "argv ['--max_batch_len=35000', '--disable_flash_attn']",
        "rank 0 [[0], [2]]",
        "rank 1 [[1], [-1]]",  # padded with the collator's dummy to rank 0's two minibatches
        "processed 2",
    ]


@pytest.mark.slow
def test_a_stalled_rank_exits_with_the_guards_status_and_line(fake_instructlab: Path) -> None:
    result = run_guard(fake_instructlab, "--hang", GPU_CLUSTER_STALL_SECONDS="1")
    assert result.returncode == STALL_EXIT
    stall = [line for line in result.stderr.splitlines() if line.startswith(STALL_MARK)]
    assert len(stall) == 1 and "rank 1 made no progress" in stall[0] and "in step 1" in stall[0]
    assert "most recent call first" in result.stderr  # every thread's stack, for the post-mortem


@pytest.mark.slow
@pytest.mark.parametrize("save", ["--final-save=3", "--own-save=3"])
def test_a_final_save_longer_than_the_stall_limit_finishes(fake_instructlab: Path, save: str) -> None:
    """The last step is done and the final checkpoint takes 3 s against a 1 s stall limit: a save has its own,
    whether main_ds saves through the hooked savers or through one of its own (seen on the stack)."""
    result = run_guard(fake_instructlab, save, GPU_CLUSTER_STALL_SECONDS="1", GPU_CLUSTER_SAVE_SECONDS="600")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "saved" and STALL_MARK not in result.stderr


def test_a_save_is_found_on_the_stack_of_the_thread_that_runs_it() -> None:
    inside, release = threading.Event(), threading.Event()

    def save_full_state() -> None:
        inside.set()
        release.wait(30)

    def train() -> None:
        save_full_state()

    saver = threading.Thread(target=train)
    idle = threading.Thread(target=release.wait, args=(30,))
    saver.start()
    idle.start()
    try:
        assert inside.wait(30)
        assert save_on_stack(saver.ident) == "save_full_state"
        assert save_on_stack(idle.ident) is None and save_on_stack(None) is None
    finally:
        release.set()
        saver.join(30)
        idle.join(30)
    clock = Clock()
    progress = Progress(clock)
    progress.enter("the optimizer step, logging and any checkpoint", next_step=True)
    clock.now += 61
    assert overdue(progress, 60, 240) == (61, "GPU_CLUSTER_STALL_SECONDS", 60)
    assert overdue(progress, 60, 240, in_save=True) is None


def test_a_bad_limit_given_to_the_guard_itself_is_one_line(fake_instructlab: Path) -> None:
    result = run_guard(fake_instructlab, GPU_CLUSTER_STALL_SECONDS="1e23")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "gpu-cluster: error: GPU_CLUSTER_STALL_SECONDS must be a whole number of seconds from 1 to 604800, got '1e23'"
    ]


def test_a_save_is_held_to_the_save_limit_and_the_loop_to_the_stall_limit() -> None:
    """Injected clock: the watchdog's decision, phase by phase (``overdue``), through the hooks main_ds calls."""
    clock = Clock()
    progress = Progress(clock)
    progress.enter("forward/backward of 6 minibatch(es) and the loss all-reduce", next_step=True)
    progress.enter("the optimizer step, logging and any checkpoint")
    calls: list[str] = []

    def save_hf_format_accelerate(seconds: float) -> None:
        calls.append("hf")
        clock.now += seconds
        assert progress.saving and progress.phase == "saving a checkpoint (save_checkpoint)"
        late = overdue(progress, 60, 240)
        assert late is None if seconds < 240 else late == (seconds, "GPU_CLUSTER_SAVE_SECONDS", 240)

    inner = watched_save(save_hf_format_accelerate, "save_hf_format_accelerate", progress)
    outer = watched_save(lambda seconds: inner(seconds), "save_checkpoint", progress)
    outer(200)  # past the stall limit, within the save's
    assert calls == ["hf"] and progress.saving == 0 and progress.idle() == 0
    assert progress.phase == "after a checkpoint save (save_checkpoint)"
    clock.now += 59
    assert overdue(progress, 60, 240) is None
    clock.now += 1  # after the save, the stall limit again
    assert overdue(progress, 60, 240) == (60, "GPU_CLUSTER_STALL_SECONDS", 60)
    outer(240)

    def full_disk() -> None:
        raise OSError("No space left on device")

    with pytest.raises(OSError, match="No space"):  # a save that fails still ends its phase
        watched_save(full_disk, "save_checkpoint", progress)()
    assert progress.saving == 0


def test_a_save_that_outlasts_its_limit_is_a_stall_naming_the_save() -> None:
    clock = Clock()
    progress = Progress(clock)
    progress.begin_save("save_hf_format_accelerate")
    clock.now += 241
    said: list[str] = []
    stopped = threading.Event()
    thread = watch(
        progress, 60, "0", save_limit=240, poll=0.01, trace=lambda: None, stop=lambda _: stopped.set(), say=said.append
    )
    assert stopped.wait(10)
    thread.join(10)
    assert said[0].startswith(
        f"{STALL_MARK} rank 0 made no progress for 241 s (GPU_CLUSTER_SAVE_SECONDS 240) in step 0, saving a "
        "checkpoint (save_hf_format_accelerate); waiting in collective unknown"
    )
