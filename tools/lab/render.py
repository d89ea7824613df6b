"""Write a stack's job for the lab: what ``tools/gpu/render_job.py`` writes, plus ``lab.json``.

    .venv/bin/python -m tools.lab.render STACK OUT_DIR [--set KEY=JSON ...]

``lab.json`` holds what the lab needs and a host without the project cannot compute: the job's
replicas (the Master's and Workers' container environment, downward-API fields named as such),
the node names of the stack's plan, the IP-mapping ConfigMap's file, each secondary network's
subnet and IPAM range (its NetworkAttachmentDefinition), and the throughput model's per-node link
for every GPU count per node (line rate x efficiency, hop latency: ``effective_bandwidth``).
Runs in the project's environment; ``python3 -m tools.lab`` reads the folder with the standard library.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _env(container: dict[str, Any]) -> list[list[Any]]:
    out: list[list[Any]] = []
    for entry in container.get("env", []):
        if "value" in entry:
            out.append([entry["name"], entry["value"]])
        else:
            out.append([entry["name"], {"fieldRef": entry["valueFrom"]["fieldRef"]["fieldPath"]}])
    return out


def lab_facts(stack_name: str) -> dict[str, Any]:
    from experiments.live.jobrun import job_manifest_of
    from experiments.stacks.stackfile import load_stack
    from experiments.state.preview import kubernetes_manifests, run_preview
    from experiments.state.summary import scenario_for
    from experiments.throughput import effective_bandwidth

    stack = load_stack(stack_name)
    job = job_manifest_of(stack, benchmark=False)
    manifests = kubernetes_manifests(run_preview(stack))
    specs = job["spec"]["pytorchReplicaSpecs"]
    name = job["metadata"]["name"]
    replicas = []
    for role in ("Master", "Worker"):
        spec = specs.get(role)
        for index in range(int(spec["replicas"]) if spec else 0):
            container = spec["template"]["spec"]["containers"][0]
            rank = index if role == "Master" else index + 1
            replicas.append({"pod": f"{name}-{role.lower()}-{index}", "rank": rank, "env": _env(container)})
    container = specs["Master"]["template"]["spec"]["containers"][0]
    port = next(p["containerPort"] for p in container["ports"] if p["name"] == "pytorchjob-port")
    mapping = next(
        (m for m in manifests if m["kind"] == "ConfigMap" and m["metadata"]["name"].endswith("-nic-mapping")), None
    )
    networks = []
    for nad in (m for m in manifests if m["kind"] == "NetworkAttachmentDefinition"):
        config = json.loads(nad["spec"]["config"])
        ifname = config["name"].rsplit("-", 1)[1]
        networks.append(
            {"ifname": ifname, "range": config["ipam"]["range"], "range_start": config["ipam"]["range_start"]}
        )
    scenario = scenario_for(stack.planned.cluster)
    links = {}
    for gpus in range(1, scenario.profile_facts.gpus + 1):
        path = effective_bandwidth(replace(scenario, gpus_per_node=gpus))
        links[str(gpus)] = {
            "transport": path.transport,
            "nics": path.nics,
            "line_gbps_per_nic": path.line_gbps_per_nic,
            "efficiency": path.efficiency,
            "gbps": path.gbps,
            "hop_latency_ms": path.hop_latency_s * 1000,
        }
    cfg = stack.planned.cluster
    return {
        "stack": stack.name,
        "variant": cfg.network.variant,
        "rdma": cfg.network.variant == "sriov-rdma",
        "job": name,
        "port": port,
        "nnodes": sum(int(s["replicas"]) for s in specs.values()),
        "nproc_per_node": job["spec"]["nprocPerNode"],
        "node_names": list(stack.planned.plan.addresses.nodes),
        "replicas": replicas,
        "mapping": None if mapping is None else {"text": "".join(mapping["data"].values())},
        "networks": sorted(networks, key=lambda n: n["ifname"]),
        "links": links,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("stack")
    parser.add_argument("out", type=Path)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=JSON")
    args = parser.parse_args(argv)
    if args.out.exists() and not args.out.is_dir():
        print(f"lab render: {args.out}: is not a folder (the job's files go into it)", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT / "tools" / "gpu"))
    from render_job import main as render_job  # tools/gpu, put on the path above

    from experiments.base.errors import InputError

    status = render_job([args.stack, str(args.out), *(f"--set={s}" for s in args.set)])
    if status:
        return int(status)
    try:
        facts = lab_facts(args.stack)
    except InputError as error:
        print(f"lab render: {error}", file=sys.stderr)
        return 2
    (args.out / "lab.json").write_text(json.dumps(facts, indent=2) + "\n")
    if facts["mapping"]:
        (args.out / "nic-mapping").mkdir(exist_ok=True)
        (args.out / "nic-mapping" / "nodename_ip_mapping.yaml").write_text(facts["mapping"]["text"])
    print(f"lab render: {args.stack}: lab.json ({facts['nnodes']} nodes, variant {facts['variant']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
