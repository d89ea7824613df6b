"""``diff``: the semantic diff of two stacks' desired state (exit 1 when they differ)."""

from __future__ import annotations

import argparse
import json

from rich.console import Console

from experiments.base.errors import InputError
from experiments.stacks.stackfile import load_stack
from experiments.state.diff import diff_stacks
from experiments.state.diff_text import render_text
from experiments.state.render_cache import RenderCache
from experiments.state.summary import NotModelled, compare, summarize

__all__ = ["run"]


def run(args: argparse.Namespace, console: Console) -> int:
    stacks, problems = [], []
    for arg in (args.a, args.b):
        try:
            stacks.append(load_stack(arg))
        except InputError as error:
            problems.append(str(error))
    if problems:
        raise InputError("\nerror: ".join(problems))
    a, b = stacks

    try:
        summary = compare(summarize(a.name, a.cluster), summarize(b.name, b.cluster))
    except NotModelled as reason:
        summary = f"{a.name} → {b.name}: no throughput prediction ({reason})."
    result = diff_stacks(a, b, summary=summary, renders=None if args.no_cache else RenderCache(args.state_dir))
    if args.json:
        print(json.dumps(result.as_json(), indent=2, sort_keys=True))
    else:
        for line in render_text(result):
            console.print(line)
    return 1 if result.differs else 0
