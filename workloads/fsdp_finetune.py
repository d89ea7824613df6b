"""A small FSDP fine-tuning run that speaks InstructLab's language, for proving the workload path on
any GPU host without the InstructLab image.

It takes the stack's config.json options as ``main_ds`` does (``--max_batch_len``, ``--seed``,
``--num_epochs``, ``--fsdp_sharding_strategy``, ``--cpu_offload_params_fsdp``, ...; others are
accepted and ignored), trains a randomly initialised decoder-only transformer on a generated token
data set with PyTorch FSDP, and prints one JSON object per optimizer step on rank 0 with the keys
InstructLab's metric logger uses (``step``, ``epoch``, ``rank``, ``overall_throughput`` in
samples/s, ``elapsed_time``, ``batch_size``, ``total_loss``, ``num_loss_counted_tokens``,
``samples_seen``), so ``experiments.runlog`` reads both.  Start it with torchrun, as the
entrypoint does (``TRAINING_SCRIPT=/mnt/workloads/fsdp_finetune.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import time

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.fsdp import CPUOffload, FullyShardedDataParallel, ShardingStrategy


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max_batch_len", type=int, default=35000, help="tokens per GPU per step")
    parser.add_argument("--num_epochs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--fsdp_sharding_strategy", default="FULL_SHARD")
    parser.add_argument("--cpu_offload_params_fsdp", action="store_true")
    parser.add_argument("--steps", type=int, default=30, help="optimizer steps per epoch (generated data)")
    parser.add_argument("--seq_len", type=int, default=1024)
    parser.add_argument("--hidden", type=int, default=1024)
    parser.add_argument("--layers", type=int, default=8)
    parser.add_argument("--vocab", type=int, default=32000)
    args, _ignored = parser.parse_known_args(argv)  # the rest of config.json is InstructLab's
    return args


class TinyDecoder(nn.Module):
    def __init__(self, vocab: int, hidden: int, layers: int, seq_len: int) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.position = nn.Embedding(seq_len, hidden)
        block = nn.TransformerEncoderLayer(hidden, nhead=max(1, hidden // 64), dim_feedforward=4 * hidden,
                                           batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(block, layers, enable_nested_tensor=False)
        self.head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(tokens.shape[1], device=tokens.device)
        mask = nn.Transformer.generate_square_subsequent_mask(tokens.shape[1], device=tokens.device)
        x = self.embed(tokens) + self.position(positions)
        return self.head(self.blocks(x, mask=mask, is_causal=True))


def sharding(name: str, world_size: int) -> ShardingStrategy:
    # Hybrid sharding needs more than one node's worth of ranks; on one GPU it is plain sharding.
    strategy = ShardingStrategy[name]
    if strategy in (ShardingStrategy.HYBRID_SHARD, ShardingStrategy._HYBRID_SHARD_ZERO2) and world_size == 1:
        return ShardingStrategy.FULL_SHARD
    return strategy


def main() -> None:
    args = parse_args()
    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(local_rank)
    torch.manual_seed(args.seed)
    device = torch.device("cuda", local_rank)
    model = TinyDecoder(args.vocab, args.hidden, args.layers, args.seq_len)
    model = FullyShardedDataParallel(
        model, device_id=device, sharding_strategy=sharding(args.fsdp_sharding_strategy, world),
        cpu_offload=CPUOffload(offload_params=args.cpu_offload_params_fsdp),
        mixed_precision=torch.distributed.fsdp.MixedPrecision(param_dtype=torch.bfloat16,
                                                              reduce_dtype=torch.bfloat16),
    )
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    samples_per_gpu = max(1, args.max_batch_len // args.seq_len)  # InstructLab packs up to max_batch_len tokens
    generator = torch.Generator(device="cpu").manual_seed(args.seed + rank)
    samples_seen, start = 0, time.time()
    for epoch in range(args.num_epochs):
        for step in range(1, args.steps + 1):
            step_start = time.time()
            tokens = torch.randint(0, args.vocab, (samples_per_gpu, args.seq_len + 1), generator=generator)
            tokens = tokens.to(device, non_blocking=True)
            logits = model(tokens[:, :-1])
            loss = nn.functional.cross_entropy(logits.float().reshape(-1, args.vocab), tokens[:, 1:].reshape(-1))
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            total = torch.tensor([loss.item() * samples_per_gpu, samples_per_gpu], device=device)
            dist.all_reduce(total)
            torch.cuda.synchronize()
            elapsed = time.time() - step_start
            batch = int(total[1].item())
            samples_seen += batch
            if rank == 0:
                print(json.dumps({
                    "epoch": epoch, "step": epoch * args.steps + step, "rank": rank,
                    "overall_throughput": batch / elapsed, "elapsed_time": elapsed, "batch_size": batch,
                    "total_loss": total[0].item() / batch, "num_loss_counted_tokens": batch * args.seq_len,
                    "samples_seen": samples_seen, "total_time": time.time() - start,
                }), flush=True)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
