"""Rewrite tests/golden/<stack>.json for every stack file (after an intended change)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from experiments.golden import GOLDEN_DIR, digest, golden_path  # noqa: E402
from experiments.stackfile import known_stacks  # noqa: E402


def main() -> None:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for stack in known_stacks():
        golden_path(stack).write_text(json.dumps(digest(stack), indent=1, sort_keys=True) + "\n")
        print(f"wrote {golden_path(stack)}")


if __name__ == "__main__":
    main()
