"""The model's prediction for a lab point: the one-node run's compute, the shaped link, the cut."""

from __future__ import annotations

from dataclasses import replace

import pytest

from experiments.throughput import GRANITE_3_1_8B_PARAMS, load_params
from experiments.throughput.lab import (
    LAB_TBF_EFFICIENCY,
    LabShape,
    lab_path,
    lab_scenario,
    local_scale_of,
    predict_lab,
    suspect_term,
)

BASE = LabShape(1, 2, "H100", "granite-3.1-8b", 8, 64, 35000, None, 0.05)
POINT = replace(BASE, nodes=2, link_gbps=5.0)


def test_the_cut_is_granite_with_fewer_layers() -> None:
    full = lab_scenario(replace(BASE, layers=40, arch="granite-3.1-8b-instruct")).workload
    assert full.params == GRANITE_3_1_8B_PARAMS and full.fsdp_units == 40
    cut = lab_scenario(POINT).workload
    assert cut.params == 201_342_976 + 8 * 199_237_632  # embedding and final norm, then 8 blocks
    assert cut.effective_batch_size == 64 * 4 and cut.max_batch_len == 35000


def test_the_one_node_run_is_reproduced_exactly() -> None:
    scale = local_scale_of(BASE, 20.0)
    assert predict_lab(BASE, BASE, 20.0).samples_per_s == pytest.approx(20.0, rel=1e-9)
    assert predict_lab(BASE, BASE, 10.0).local_scale == pytest.approx(2 * scale, rel=1e-6)  # twice the time


def test_the_shaped_link_is_what_tcp_gets_through_a_tbf() -> None:
    path = lab_path(POINT)
    assert path.gbps == pytest.approx(5.0 * LAB_TBF_EFFICIENCY) and path.hop_latency_s == pytest.approx(5e-5)
    unshaped = lab_path(replace(POINT, link_gbps=None))
    assert unshaped.gbps == 2 * load_params().tcp_ring_max_gbps  # only the rings' ceiling bounds a veth pair


def test_more_bandwidth_never_less_throughput_and_never_past_the_nodes_at_one_node_speed() -> None:
    rates = [predict_lab(replace(POINT, link_gbps=g), BASE, 20.0).samples_per_s for g in (0.5, 1, 2, 5, 20, 80, 400)]
    assert rates == sorted(rates)
    assert rates[-1] < 2 * 20.0
    assert predict_lab(replace(POINT, link_gbps=None), BASE, 20.0).samples_per_s == pytest.approx(rates[-1])


def test_nodes_time_sharing_a_gpu_run_slower() -> None:
    shared = replace(POINT, gpus_per_node=1, shared_gpu=True)
    alone = replace(shared, shared_gpu=False)
    base = replace(BASE, gpus_per_node=1)
    assert predict_lab(shared, base, 10.0).samples_per_s < predict_lab(alone, base, 10.0).samples_per_s


@pytest.mark.parametrize(
    ("baseline", "message"),
    [
        (replace(BASE, layers=16), "same GPU, GPUs per node and model cut"),
        (replace(BASE, gpus_per_node=1), "same GPU, GPUs per node and model cut"),
        (replace(BASE, nodes=2), "the compute is read off a one-node run"),
    ],
)
def test_the_compute_comes_only_from_a_matching_one_node_run(baseline: LabShape, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        predict_lab(POINT, baseline, 20.0)


def test_unknown_gpus_and_architectures_are_refused() -> None:
    with pytest.raises(ValueError, match="no lab GPU 'A100'"):
        lab_scenario(replace(POINT, gpu="A100"))
    with pytest.raises(ValueError, match="no architecture 'llama-70b'"):
        lab_scenario(replace(POINT, arch="llama-70b"))
    with pytest.raises(ValueError, match="one-node run"):
        local_scale_of(POINT, 20.0)
    with pytest.raises(ValueError, match="finite positive"):
        local_scale_of(BASE, float("nan"))


def test_the_term_a_missed_point_names() -> None:
    slow_link = predict_lab(replace(POINT, link_gbps=1.0), BASE, 20.0)
    assert suspect_term(replace(POINT, link_gbps=1.0), slow_link, slow_link.samples_per_s * 1.1) is None
    assert suspect_term(replace(POINT, link_gbps=1.0), slow_link, slow_link.samples_per_s * 1.5) == "bytes per step"
    fast_link = predict_lab(replace(POINT, link_gbps=400.0), BASE, 20.0)
    assert suspect_term(replace(POINT, link_gbps=400.0), fast_link, fast_link.samples_per_s / 2) == "overlap"
    far = replace(POINT, link_gbps=400.0, latency_ms=50.0)
    assert suspect_term(far, predict_lab(far, BASE, 20.0), 1.0) == "latency"


def test_one_gpu_per_node_points_name_fsdps_fallback() -> None:
    # FSDP1 runs HYBRID_SHARD with a one-rank shard group as NO_SHARD over that group: the lab's one-GPU
    # proofs sent no gradient between the nodes (their logs carry FSDP's warning), so a miss is bytes per step.
    one = replace(POINT, gpus_per_node=1, link_gbps=1.0, shared_gpu=True)
    lab = predict_lab(one, replace(BASE, gpus_per_node=1), 20.0)
    term = suspect_term(one, lab, lab.samples_per_s * 2)
    assert term is not None and term.startswith("bytes per step (one GPU per node: FSDP1 runs HYBRID_SHARD as NO_SHARD")
