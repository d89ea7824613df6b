"""Write a stack's training job out as files, to launch it on a host without Kubernetes.

    .venv/bin/python tools/gpu/render_job.py STACK OUT_DIR [--set KEY=JSON ...]

Renders the stack offline (the same manifests ``pulumi up`` applies) and writes what the pod would
see: ``config.json`` (the ``<job>-config`` ConfigMap), ``workloads/`` (the ``<job>-workloads``
ConfigMap: entrypoint.sh and its helpers) and ``job.env``, the master container's environment as
``export`` lines (values from the downward API are left out: the host has no pod). ``--set`` changes
a config.json key for this launch only and says so; the GPU proof uses it for what one small GPU
needs (``disable_flash_attn``, a smaller ``effective_batch_size``).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def _override(text: str) -> tuple[str, Any]:
    key, equals, value = text.partition("=")
    if not equals or not key:
        raise argparse.ArgumentTypeError(f"{text!r}: expected KEY=JSON")
    try:
        return key, json.loads(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: the value is not JSON") from None


def main(argv: list[str] | None = None) -> int:
    from experiments.base.errors import InputError
    from experiments.live.jobrun import job_manifest_of
    from experiments.stacks.stackfile import load_stack
    from experiments.state.preview import kubernetes_manifests, run_preview

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("stack")
    parser.add_argument("out", type=Path)
    parser.add_argument("--set", type=_override, action="append", default=[], metavar="KEY=JSON")
    args = parser.parse_args(argv)
    try:
        stack = load_stack(args.stack)
        job = job_manifest_of(stack, benchmark=False)
    except InputError as error:
        print(f"render_job: {error}", file=sys.stderr)
        return 2
    name = stack.cluster.job.name
    maps = {
        m["metadata"]["name"]: m["data"] for m in kubernetes_manifests(run_preview(stack)) if m["kind"] == "ConfigMap"
    }
    config = json.loads(maps[f"{name}-config"]["config.json"])
    for key, value in args.set:
        print(f"render_job: config.json {key}: {json.dumps(config.get(key))} -> {json.dumps(value)} (this launch only)")
        config[key] = value
    (args.out / "workloads").mkdir(parents=True, exist_ok=True)
    (args.out / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    for file, text in maps[f"{name}-workloads"].items():
        (args.out / "workloads" / file).write_text(text)
    container = job["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]["containers"][0]
    lines = [f"export {e['name']}={shlex.quote(e['value'])}" for e in container["env"] if "value" in e]
    (args.out / "job.env").write_text("\n".join(lines) + "\n")
    print(
        f"render_job: {stack.name}'s job {name} in {args.out}: config.json, workloads/, job.env "
        f"({len(lines)} variables)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
