"""Instruction-response samples in the study's shape, as InstructLab's messages JSONL (stdlib only).

    python tools/gpu/make_data.py --samples 9872 --mean-tokens 1483 OUT.jsonl

The study trained on 9,872 samples of 1,483 tokens on average; it gives no spread. Lengths here
are log-normal (sigma 0.55: a median near 1,280, most samples between about 600 and 3,000 tokens,
a long tail as chat data has), clipped to ``--max-tokens`` and rescaled so that the mean is the
study's. Each sample is a user turn (a quarter of the words) and an assistant turn, written in
``make_model.py``'s word-level vocabulary, so one word is one token: with the chat template's
eight framing tokens, a sample's token count is its words plus eight.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from pathlib import Path

FRAMING_TOKENS = 8
"""Two turns of ``<|start_of_role|> role <|end_of_role|> ... <|end_of_text|>``."""
FIRST_WORD_ID = 8
"""make_model.py's vocabulary: five special tokens and three role words come first."""


def lengths(samples: int, mean: float, sigma: float, low: int, high: int, rng: random.Random) -> list[int]:
    mu = math.log(mean) - sigma * sigma / 2
    raw = [rng.lognormvariate(mu, sigma) for _ in range(samples)]
    for _ in range(5):  # clipping moves the mean; rescale until it holds
        clipped = [min(high, max(low, x)) for x in raw]
        scale = mean / statistics.fmean(clipped)
        if abs(scale - 1) < 1e-4:
            break
        raw = [x * scale for x in raw]
    return [min(high, max(low, round(x))) for x in raw]


def sample(tokens: int, vocab: int, rng: random.Random) -> dict[str, object]:
    words = max(2, tokens - FRAMING_TOKENS)
    user = max(1, words // 4)
    ids = rng.choices(range(FIRST_WORD_ID, vocab), k=words)
    text = [f"w{i - FIRST_WORD_ID}" for i in ids]
    return {
        "messages": [
            {"role": "user", "content": " ".join(text[:user])},
            {"role": "assistant", "content": " ".join(text[user:])},
        ]
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=9872)
    parser.add_argument("--mean-tokens", type=float, default=1483.0)
    parser.add_argument("--sigma", type=float, default=0.55)
    parser.add_argument("--min-tokens", type=int, default=32)
    parser.add_argument("--max-tokens", type=int, default=4000, help="stay below data_process's --max_seq_len")
    parser.add_argument("--vocab", type=int, default=49155)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    if not (
        args.samples > 0
        and args.min_tokens > FRAMING_TOKENS
        and args.min_tokens <= args.mean_tokens <= args.max_tokens
        and args.sigma > 0
        and args.vocab > FIRST_WORD_ID
    ):
        print("make_data: need samples > 0, 8 < min-tokens <= mean-tokens <= max-tokens, sigma > 0", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    sizes = lengths(args.samples, args.mean_tokens, args.sigma, args.min_tokens, args.max_tokens, rng)
    with args.out.open("w", encoding="utf-8") as out:
        for tokens in sizes:
            out.write(json.dumps(sample(tokens, args.vocab, rng)) + "\n")
    ordered = sorted(sizes)
    print(
        f"make_data: {len(sizes)} samples in {args.out}: mean {statistics.fmean(sizes):.0f} tokens, median "
        f"{ordered[len(ordered) // 2]}, p10 {ordered[len(ordered) // 10]}, p90 {ordered[9 * len(ordered) // 10]}, "
        f"max {ordered[-1]}, total {sum(sizes)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
