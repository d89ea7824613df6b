"""Failed multi-node starts made on purpose (``python3 -m tools.lab --fault``, issue 35): each must end the
failing pod with one ``entrypoint: error:`` line naming the cause (docs/lab.md, "Failed starts")."""

from __future__ import annotations

from pathlib import Path

from .plan import Plan

FAULTS = ("unreachable-master", "no-mapping-line", "missing-interface", "same-host")


def say(text: str) -> None:
    print(f"lab: {text}", flush=True)


def break_start(fault: str, plan: Plan, work: Path, extra: list[dict[str, str]]) -> None:
    """Break the start the way ``fault`` says, after the nodes exist and before the pods start; ``extra``
    is each pod's environment on top of the plan's."""
    import pyroute2

    worker = plan.nodes[1]
    if fault == "unreachable-master":
        # A partition: the master's pod network is cut off at the bridge; the worker still runs.
        with pyroute2.IPRoute() as host:
            host.link("set", index=host.link_lookup(ifname=plan.nodes[0].interfaces[0].host_end)[0], state="down")
        say(f"fault: {plan.nodes[0].pod}'s eth0 cut off from the pod network")
    elif fault == "no-mapping-line":
        source = Path(worker.environment()["GPU_CLUSTER_IP_MAPPING"])
        kept = [line for line in source.read_text().splitlines() if not line.startswith(f"{worker.node_name}:")]
        mapping = work / "mapping-without-worker.yaml"
        mapping.write_text("".join(f"{line}\n" for line in kept))
        extra[1]["GPU_CLUSTER_IP_MAPPING"] = str(mapping)
        say(f"fault: {worker.pod}'s mapping file {mapping} has no line for {worker.node_name}")
    elif fault == "missing-interface":
        name = worker.environment()["NCCL_SOCKET_IFNAME"].split(",")[0]
        with pyroute2.IPRoute(netns=worker.namespace) as inside:
            inside.link("del", index=inside.link_lookup(ifname=name)[0])
        say(f"fault: {worker.pod} has no {name} (its network was not attached)")
    elif fault == "same-host":
        for node_extra in extra:
            node_extra["NCCL_HOSTID"] = "gclab-one-host"
        say("fault: every node has the same NCCL_HOSTID (NCCL takes them for one host)")
