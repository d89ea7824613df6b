"""``preview``: run a stack's program offline and write its desired state."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from experiments.base.owned_files import check_owned_dir, check_owned_files
from experiments.stacks.stackfile import load_stack
from experiments.state.preview import cached_preview, render_preview, run_preview, write_preview
from experiments.state.render_cache import RenderCache

__all__ = ["run"]


def run(args: argparse.Namespace, console: Console) -> int:
    stack = load_stack(args.stack)  # validates before the program (and any resource) runs

    out_dir = args.out or Path("out") / stack.name
    check_owned_files(out_dir, ["preview.json"], "--out", given=args.out is not None)
    check_owned_dir(out_dir / "manifests", "--out")
    if args.unknowns:  # a render the cache does not hold: diff and predict read the simulated values
        preview = run_preview(stack, unknowns=True)
    else:
        preview = cached_preview(stack, None if args.no_cache else RenderCache(args.state_dir))
    written = write_preview(preview, out_dir)
    render_preview(preview, console, training_options=args.training_options)
    console.print(f"wrote {', '.join(str(p) for p in written)}")
    return 0
