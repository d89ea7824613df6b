"""Rewrite tests/golden/<stack>.json for every stack file (after an intended change; review the diff)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from experiments.stacks.stackfile import known_stacks  # noqa: E402
from experiments.state.golden import GOLDEN_DIR, golden_path, golden_text  # noqa: E402


def main() -> None:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for stale in set(GOLDEN_DIR.glob("*.json")) - {golden_path(stack) for stack in known_stacks()}:
        stale.unlink()  # a stack file that is gone takes its golden file with it
        print(f"removed {stale}")
    for stack in known_stacks():
        golden_path(stack).write_text(golden_text(stack))
        print(f"wrote {golden_path(stack)}")


if __name__ == "__main__":
    main()
