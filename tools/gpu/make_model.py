"""A randomly initialised Granite-architecture model and a matching tokenizer, built offline.

    python tools/gpu/make_model.py --arch tools/gpu/granite-3.1-8b-instruct.json [--layers N] OUT_DIR

Throughput depends on the architecture, not on the weights' values, so a model of the published
shape with random weights trains at the speed of the real one. The tokenizer is a word-level one
over ``vocab_size`` entries (``w0`` ... ``wN``) plus Granite's role and end-of-text tokens, with a
Granite-style chat template: a generated word is exactly one token, so ``make_data.py`` controls
each sample's token count. Nothing is downloaded; needs torch, transformers and tokenizers.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

SPECIAL = ["<|end_of_text|>", "<|start_of_role|>", "<|end_of_role|>", "<|tool_call|>", "[UNK]"]
"""Granite 3.x uses id 0 (``<|end_of_text|>``) for bos, eos and pad; the role markers frame turns."""
CHAT_TEMPLATE = (
    "{% for message in messages %}<|start_of_role|>{{ message['role'] }}<|end_of_role|>"
    "{{ message['content'] }}<|end_of_text|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|start_of_role|>assistant<|end_of_role|>{% endif %}"
)
ROLE_WORDS = ["system", "user", "assistant"]


def architecture(path: Path, layers: int | None) -> dict[str, Any]:
    spec = {k: v for k, v in json.loads(path.read_text()).items() if not k.startswith("_")}
    if layers is not None:
        if layers < 1:
            raise ValueError("--layers must be at least 1")
        spec["num_hidden_layers"] = layers
    return spec


def build_tokenizer(vocab_size: int) -> Any:
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    words = SPECIAL + ROLE_WORDS
    words += [f"w{i}" for i in range(vocab_size - len(words))]
    tokenizer = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        bos_token=SPECIAL[0],
        eos_token=SPECIAL[0],
        pad_token=SPECIAL[0],
        unk_token="[UNK]",
        additional_special_tokens=SPECIAL[1:4],
    )
    fast.chat_template = CHAT_TEMPLATE
    return fast


def build(spec: dict[str, Any], out: Path) -> int:
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    config = AutoConfig.for_model(**spec)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    with torch.device(device):
        model = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16)
    model.save_pretrained(out, safe_serialization=True)
    build_tokenizer(spec["vocab_size"]).save_pretrained(out)
    return sum(p.numel() for p in model.parameters())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--arch", type=Path, required=True, help="architecture JSON (keys starting _ are notes)")
    parser.add_argument("--layers", type=int, help="override num_hidden_layers (scaled-down runs)")
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    try:
        spec = architecture(args.arch, args.layers)
    except (OSError, ValueError) as error:
        print(f"make_model: {args.arch}: {error}", file=sys.stderr)
        return 2
    params = build(spec, args.out)
    print(
        f"make_model: {spec['model_type']} {spec['num_hidden_layers']} layers x {spec['hidden_size']}, "
        f"vocab {spec['vocab_size']}: {params / 1e9:.3f}B parameters in {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
