"""Preview cost versus cluster size: wall time and peak memory of one offline preview.

Each size runs in a fresh interpreter (peak RSS is per process), for H100 nodes on
``sriov-rdma`` with 8 cluster NICs each.  Prints a Markdown table; nothing is timed
inside the test suite.

    python benchmarks/preview_scaling.py [--nodes 1 8 64 256]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]

_CHILD = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
start = time.perf_counter()
from experiments.preview import run_preview
from experiments.stackfile import load_stack
imported = time.perf_counter()
preview = run_preview(load_stack({stack!r}))
done = time.perf_counter()
print(json.dumps({{"resources": len(preview.result.resources), "import_s": imported - start,
                  "preview_s": done - imported,
                  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def measure(nodes: int, workdir: Path) -> dict[str, float]:
    stack = workdir / f"Pulumi.bench-{nodes}.yaml"
    cluster = {
        "name_prefix": f"bench{nodes}",
        "zone": "us-east-3",
        "nodes": {"profile": "gx3d-160x1792x8h100", "count": nodes},
        # /24 holds 124 nodes with room for the pods' temporary addresses; larger clusters say so.
        "network": {
            "variant": "sriov-rdma",
            "nics_per_node": 8,
            **({"subnet_prefix_length": 22} if nodes > 124 else {}),
        },
    }
    stack.write_text(yaml.safe_dump({"config": {"gpu-cluster:cluster": cluster}}))
    code = _CHILD.format(root=str(ROOT), stack=str(stack))
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, nargs="+", default=[1, 8, 64, 256])
    args = parser.parse_args()
    print("| nodes | resources | preview (s) | import (s) | peak RSS (MiB) | ms per node |")
    print("|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for nodes in args.nodes:
            m = measure(nodes, Path(tmp))
            print(
                f"| {nodes} | {m['resources']} | {m['preview_s']:.2f} | {m['import_s']:.2f} | "
                f"{m['peak_mib']:.0f} | {1000 * m['preview_s'] / nodes:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
