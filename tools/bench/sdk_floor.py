"""The Pulumi SDK's own cost per resource under the offline engine: the floor under ``make bench``.

Registers N bare ``CustomResource``s, each with k string inputs and no dependencies, through the same
engine the preview runs (``run_offline``: the mock monitor, its recording, the garbage collector settings),
in a fresh interpreter per measurement, and prints wall time, CPU time and peak RSS.  The 256-node bench
stack has 5,158 resources with 1 to 14 inputs each, and dependencies on top: no preview of it can take
less than the row of its size.

    python tools/bench/sdk_floor.py [--resources 5158] [--inputs 1 8] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_FLOOR = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
import pulumi
from experiments.offline.engine import run_offline
start = time.perf_counter()
cpu = time.process_time()
def program():
    for i in range({resources}):
        inputs = {{f"p{{k}}": f"v{{i}}-{{k}}" for k in range({inputs})}}
        pulumi.CustomResource("floor:index:Thing", f"thing-{{i}}", inputs)
    return {{}}
result = run_offline(program, project="floor", stack="floor", config={{}})
print(json.dumps({{"resources": len(result.resources), "wall_s": time.perf_counter() - start,
                  "cpu_s": time.process_time() - cpu,
                  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--resources", type=int, default=5158)
    parser.add_argument("--inputs", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per measurement (the best counts)")
    args = parser.parse_args()
    print("| resources | inputs each | wall (s) | CPU (s) | peak RSS (MiB) |")
    print("|---:|---:|---:|---:|---:|")
    for inputs in args.inputs:
        code = _FLOOR.format(root=str(ROOT), resources=args.resources, inputs=inputs)
        runs = [
            json.loads(
                subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT)
                .stdout.strip()
                .splitlines()[-1]
            )
            for _ in range(args.runs)
        ]
        best = min(runs, key=lambda m: m["cpu_s"])
        print(
            f"| {best['resources']} | {inputs} | {best['wall_s']:.2f} | {best['cpu_s']:.2f} | {best['peak_mib']:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
