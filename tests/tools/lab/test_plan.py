"""The lab's plan, without root or a GPU: what one run creates and tears down (namespaces, bridges, veths,
addresses, qdiscs), each pod's environment per variant, and the refusal of RDMA. The jobs are
``tests/fixtures/lab/<stack>.json``, what ``tools.lab.render`` writes for the study's stacks
(test_render.py keeps them equal to a fresh render)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tools.lab.plan import Interface, LabRefused, Link, Qdisc, make_plan, model_link, override_link

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lab"
PATHS = {
    "config": "/j/config.json",
    "workloads": "/j/workloads",
    "mapping": "/j/nic-mapping/nodename_ip_mapping.yaml",
    "node_root": "/w/nodes",
}
CPUS = list(range(16))
MASTER_NODE, WORKER_NODE = "h100-study-q8wzt-gpu-3-l6gzb", "h100-study-q8wzt-gpu-3-pds7f"


def job(stack: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{stack}.json").read_text())


def plan_of(stack: str, gpus: list[int] | None = None, link: Link | None = None, share: bool = False) -> Any:
    j = job(stack)
    gpus = [0, 1, 2, 3] if gpus is None else gpus
    per_node = 1 if share else len(gpus) // 2
    return make_plan(j, gpus, CPUS, link or model_link(j, per_node), PATHS, share_gpu=share)


def test_a_vnic_run_creates_two_nodes_with_eth0_and_net1_and_shapes_net1_only() -> None:
    plan = plan_of("h100-2n-vnic")
    assert plan.bridges == ("gclab-eth0", "gclab-net1")
    master, worker = plan.nodes
    assert (master.namespace, master.pod, master.node_name, master.gpus) == (
        "gclab-ilab-master-0",
        "ilab-master-0",
        MASTER_NODE,
        (0, 1),
    )
    assert (worker.namespace, worker.pod, worker.node_name, worker.gpus) == (
        "gclab-ilab-worker-0",
        "ilab-worker-0",
        WORKER_NODE,
        (2, 3),
    )
    assert (master.cpus, worker.cpus) == (tuple(range(8)), tuple(range(8, 16)))
    # net1 starts at the NetworkAttachmentDefinition's range_start, as whereabouts would hand it out: the
    # entrypoint then moves it to the mapping's 10.241.192.71 / .66.
    assert worker.interfaces == (
        Interface("eth0", "gclab1-eth0", "gclab-eth0", "10.128.2.10/14", shaped=False),
        Interface("net1", "gclab1-net1", "gclab-net1", "10.241.192.129/24", shaped=True),
    )
    figures = job("h100-2n-vnic")["links"]["2"]  # the model's link for 2 GPUs per node
    rate = int(figures["gbps"] * 1e9 / 8)
    burst = int(rate * 0.001)
    tbf = {"rate_bytes_s": rate, "burst_bytes": burst, "limit_bytes": burst + int(rate * 0.01)}
    assert plan.qdiscs == (
        Qdisc("gclab-ilab-master-0", "net1", "netem", "1:", "root", delay_us=50),
        Qdisc("gclab-ilab-master-0", "net1", "tbf", "10:", "1:1", **tbf),
        Qdisc(None, "gclab0-net1", "tbf", "10:", "root", **tbf),
        Qdisc("gclab-ilab-worker-0", "net1", "netem", "1:", "root", delay_us=50),
        Qdisc("gclab-ilab-worker-0", "net1", "tbf", "10:", "1:1", **tbf),
        Qdisc(None, "gclab1-net1", "tbf", "10:", "root", **tbf),
    )
    assert plan.hosts == "127.0.0.1 localhost\n::1 localhost\n10.128.0.10 ilab-master-0\n10.128.2.10 ilab-worker-0\n"


def test_the_plan_lists_what_it_creates_and_what_tearing_down_removes() -> None:
    plan = plan_of("h100-2n-pod")
    assert plan.created()[:4] == [
        "bridge gclab-eth0",
        "netns gclab-ilab-master-0 (hostname ilab-master-0, node h100-study-q8wzt-gpu-3-l6gzb, GPUs (0, 1))",
        "  veth gclab0-eth0@gclab-eth0 <-> eth0 10.128.0.10/14",
        "netns gclab-ilab-worker-0 (hostname ilab-worker-0, node h100-study-q8wzt-gpu-3-pds7f, GPUs (2, 3))",
    ]
    assert plan.teardown() == ["netns gclab-ilab-master-0", "netns gclab-ilab-worker-0", "bridge gclab-eth0"]
    # The pod variant's NCCL rides eth0: that is the link shaped, at the overlay's figure and latency.
    assert [(q.namespace, q.device, q.kind) for q in plan.qdiscs][:3] == [
        ("gclab-ilab-master-0", "eth0", "netem"),
        ("gclab-ilab-master-0", "eth0", "tbf"),
        (None, "gclab0-eth0", "tbf"),
    ]
    assert plan.qdiscs[0].delay_us == 100


@pytest.mark.parametrize(
    ("stack", "ifname", "mapped"),
    [("h100-2n-pod", "eth0", False), ("h100-2n-vnic", "net1", True), ("h100-2n-sriov", "net1", True)],
)
def test_each_pod_gets_what_the_operator_and_the_downward_api_give_it(stack: str, ifname: str, mapped: bool) -> None:
    plan = plan_of(stack)
    for rank, node in enumerate(plan.nodes):
        pod = dict(node.env)
        # As the cluster gives it: the container's spec, NODE_NAME from spec.nodeName, the operator's.
        assert pod["NODE_NAME"] == (MASTER_NODE, WORKER_NODE)[rank]
        assert (pod["MASTER_ADDR"], pod["MASTER_PORT"]) == ("ilab-master-0", "29500")
        assert (pod["PET_NODE_RANK"], pod["RANK"], pod["PET_NNODES"]) == (str(rank), str(rank), "2")
        assert (pod["PET_NPROC_PER_NODE"], pod["WORLD_SIZE"]) == ("8", "16")
        assert pod["GPU_CLUSTER_VARIANT"] == stack.rsplit("-", 1)[1]
        assert (pod["NCCL_SOCKET_IFNAME"], pod["NCCL_NET"], pod["NCCL_IB_DISABLE"]) == (ifname, "Socket", "1")
        assert pod.get("GPU_CLUSTER_IP_MAPPING") == ("/mnt/nic-mapping/nodename_ip_mapping.yaml" if mapped else None)
        # What the lab changes for one host, and nothing else of the pod's.
        run = node.environment()
        assert (run["PET_NPROC_PER_NODE"], run["NPROC_PER_NODE"], run["WORLD_SIZE"]) == ("2", "2", "4")
        assert run["CUDA_VISIBLE_DEVICES"] == ("0,1", "2,3")[rank]
        assert run.get("GPU_CLUSTER_IP_MAPPING") == (PATHS["mapping"] if mapped else None)
        assert (run["CONFIG_JSON_PATH"], run["GPU_CLUSTER_WORKLOADS"]) == (PATHS["config"], PATHS["workloads"])
        assert run["GPU_CLUSTER_LOG"] == f"/w/nodes/{node.pod}/torchrun.log"
        assert run["NCCL_NVLS_ENABLE"] == "0" and "NCCL_HOSTID" not in run
        changed = {k for k, v in run.items() if pod.get(k) != v}
        assert changed == set(dict(node.lab_env))


def test_rdma_is_refused_with_its_reason() -> None:
    with pytest.raises(LabRefused) as refused:
        plan_of("h100-2n-sriov-rdma")
    assert str(refused.value) == (
        "h100-2n-sriov-rdma: variant sriov-rdma runs NCCL over RDMA devices (GPU_CLUSTER_RDMA=1, NET/IB), which a "
        "network namespace on this host cannot have: the lab runs the socket variants (pod, vnic, sriov over TCP) only"
    )


def test_gpus_that_do_not_split_evenly_are_refused_and_one_gpu_can_be_shared() -> None:
    with pytest.raises(LabRefused, match=r"3 GPU\(s\) do not split evenly among them"):
        plan_of("h100-2n-pod", gpus=[0, 1, 2])
    shared = plan_of("h100-2n-pod", gpus=[0], share=True)
    assert [n.gpus for n in shared.nodes] == [(0,), (0,)] and shared.shared_gpu
    hosts = [n.environment()["NCCL_HOSTID"] for n in shared.nodes]
    assert hosts == ["gclab-ilab-master-0", "gclab-ilab-worker-0"]
    assert shared.nodes[0].environment()["WORLD_SIZE"] == "2"


def test_options_override_the_models_link() -> None:
    model = model_link(job("h100-2n-pod"), 1)
    figures = job("h100-2n-pod")["links"]["1"]
    assert (model.gbps, model.latency_ms, model.source) == (figures["gbps"], figures["hop_latency_ms"], "model")
    assert override_link(model, None, False, None) is model
    swept = override_link(model, 2.0, False, None)
    assert (swept.gbps, swept.latency_ms, swept.source) == (2.0, 0.1, "override")
    unshaped = plan_of("h100-2n-pod", link=override_link(model, None, True, 0.0))
    assert unshaped.qdiscs == ()
    # Past tbf's 32-bit rate (34.4 Gbit/s) a link gets netem only: the veth pair bounds it.
    fast = plan_of("h100-2n-sriov", gpus=[0], share=True, link=override_link(model, 100.0, False, None))
    assert {q.kind for q in fast.qdiscs} == {"netem"}


def test_a_model_figure_for_a_gpu_count_the_profile_lacks_is_refused() -> None:
    with pytest.raises(LabRefused, match="the model gives no link for 9 GPU"):
        model_link(job("h100-2n-vnic"), 9)


def test_a_one_node_job_is_one_namespace_with_no_link_the_compute_baseline() -> None:
    baseline = json.loads((FIXTURES / "h100-1n.json").read_text())
    link = model_link(baseline, 2)
    assert (link.gbps, link.latency_ms, link.source) == (None, 0.0, "model")
    plan = make_plan(baseline, [0, 1], CPUS, link, PATHS)
    assert plan.namespaces == ("gclab-ilab-master-0",) and plan.qdiscs == ()
    assert plan.nodes[0].environment()["CUDA_VISIBLE_DEVICES"] == "0,1"
    assert dict(plan.nodes[0].env)["PET_NNODES"] == "1"
