# The two front-door commands (see README): `make preview` and `make test`.
# Each creates .venv and installs what it needs on first use: the pinned requirements, then the
# project itself in editable mode, which puts the `gpu-cluster` command in .venv/bin.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STACK ?= dev

SUPPORTED := import sys; sys.exit(sys.version_info < (3, 11))
# A .venv made by a Python the project does not support (a first run under 3.10) is replaced, never reused.
STALE_VENV := $(shell [ -e $(VENV) ] && ! $(PY) -c '$(SUPPORTED)' 2>/dev/null && echo stale)

$(VENV)/.installed: requirements.txt requirements-dev.txt pyproject.toml $(shell find sdks/ibm -name '*.py' -o -name '*.toml' -o -name '*.json' 2>/dev/null) $(if $(STALE_VENV),FORCE)
	@$(PYTHON) -c '$(SUPPORTED)' 2>/dev/null || { echo "error: $(PYTHON) is not Python 3.11 or newer, which gpu-cluster needs: make PYTHON=python3.11 (or newer)" >&2; exit 2; }
	@if [ -n "$(STALE_VENV)" ]; then echo "replacing $(VENV): it was made by a Python older than 3.11, which gpu-cluster does not support"; rm -rf $(VENV); fi
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements-dev.txt
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -e .
	touch $@

.PHONY: FORCE preview test test-fast readme bench check gpu-jobs gpu-proof gpu-proof-multi gpu-study-1gpu gpu-study-4gpu gpu-study test-loaded \
	lab-jobs lab-proof lab-study
preview: $(VENV)/.installed
	$(PY) -m experiments preview $(STACK)

# The tests write bytecode even where the environment says not to (PYTHONDONTWRITEBYTECODE): otherwise each
# worker, and each test that starts `python -m experiments`, compiles the project anew and pytest rewrites every
# test file's asserts anew (it keeps them as bytecode too); the caches are the __pycache__ folders git ignores.
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest

# On every core (pytest-xdist; TEST_WORKERS=N runs N workers, TEST_WORKERS=0 runs them here): each worker
# renders a stack once and shares it with its tests (tests/conftest.py). Tests go out one at a time, longest
# first (tests/conftest.py orders them), so that no long test is left to run alone at the end. `make test`
# runs one worker more than there are cores: its slow tests spend seconds waiting for a timeout or a
# subprocess, and a third worker on 2 cores fills that time (137 s -> 118 s); the fast loop waits little, and
# there an extra worker only costs its start (55 s either way, 12 s more CPU).
CORES := $(shell $(PYTHON) -c 'import os; print(os.cpu_count() or 1)' 2>/dev/null || echo 1)
xdist = -n $(1) $(if $(filter 0,$(1)),,--maxschedchunk 1)
SUITE = $(PYTEST) $(call xdist,$(or $(TEST_WORKERS),$(shell expr $(CORES) + 1)))
test: $(VENV)/.installed
	$(SUITE)

# The same suite with every core kept busy by tools/cpu_burner.py (issue 38): a hang check that holds here
# holds on a CI machine whose load nobody controls. The burner stops itself after BURN_SECONDS at the latest;
# the trap stops it as soon as the tests end, fail or are interrupted (Ctrl-C), and the tests' status stands.
BURN_SECONDS ?= 1800
test-loaded: $(VENV)/.installed
	@$(PY) tools/cpu_burner.py --seconds $(BURN_SECONDS) $(if $(BURN_WORKERS),--workers $(BURN_WORKERS)) & burner=$$!; \
	trap 'kill $$burner 2>/dev/null; wait $$burner' EXIT; trap 'exit 130' INT TERM HUP; \
	$(SUITE)

# The quick loop: everything but the tests marked slow (over a second each, by `pytest --durations`: whole-stack
# goldens, the README's outputs, subprocesses, waits for a timeout).
test-fast: $(VENV)/.installed
	$(PYTEST) $(call xdist,$(or $(TEST_WORKERS),$(CORES))) -m "not slow"

# Rewrite the command outputs shown in README.md and docs/*.md (tools/readme_outputs.py; the
# README test fails until they match what the code prints).
readme: $(VENV)/.installed
	$(PY) tools/readme_outputs.py --write

FORCE:

bench: $(VENV)/.installed
	$(PY) tools/bench/preview_scaling.py

check: $(VENV)/.installed
	tools/check

# ---- GPU runs (README, "Proof on a real GPU"): on a host with NVIDIA GPUs, torch, transformers and
# torchrun; WHEELS=DIR installs carried wheels (instructlab-training and what it needs) first, into
# /tmp/site. The job files are the stack's own, rendered by the project; NO_FLASH keeps main_ds off
# flash-attn (absent on a bare host; the study's image has it: NO_FLASH= to use it).
GPU_OUT ?= out/gpu
WHEELS ?= -
NO_FLASH ?= --set disable_flash_attn=true
ARCH := tools/gpu/granite-3.1-8b-instruct.json

gpu-jobs: $(VENV)/.installed
	$(PY) tools/gpu/render_job.py h100-1n $(GPU_OUT)/job-proof $(NO_FLASH) --set effective_batch_size=64
	$(PY) tools/gpu/render_job.py h100-1n $(GPU_OUT)/job-1gpu $(NO_FLASH) --set effective_batch_size=480
	$(PY) tools/gpu/render_job.py h100-1n $(GPU_OUT)/job-1gpu-nooffload $(NO_FLASH) --set effective_batch_size=480 \
		--set cpu_offload_params_fsdp=false
	$(PY) tools/gpu/render_job.py h100-1n $(GPU_OUT)/job-study4 $(NO_FLASH) --set effective_batch_size=1920
	$(PY) tools/gpu/render_job.py h100-1n $(GPU_OUT)/job-study $(NO_FLASH)

# main_ds through the job's entrypoint on one GPU, with a tiny Granite model.
gpu-proof: gpu-jobs
	bash tools/gpu/gpu_batch.sh $(WHEELS) $(GPU_OUT) proof:$(GPU_OUT)/job-proof:tools/gpu/tiny-granite.json:-:2000:600

# main_ds through the job's entrypoint on 2 and on 4 GPUs of one host (HYBRID_SHARD, CPU offload, the
# guard's equal minibatches), 12 and 15 optimizer steps; both recorded as N-GPU proofs.
gpu-proof-multi: gpu-jobs
	bash tools/gpu/gpu_batch.sh $(WHEELS) $(GPU_OUT) proof-2gpu:$(GPU_OUT)/job-proof:tools/gpu/tiny-granite.json:-:800:300::2 \
		proof-4gpu:$(GPU_OUT)/job-proof:tools/gpu/tiny-granite.json:-:1000:300::4
	$(PY) -m experiments results add h100-1n --log $(GPU_OUT)/proof-2gpu.jsonl --gpus 2
	$(PY) -m experiments results add h100-1n --log $(GPU_OUT)/proof-4gpu.jsonl --gpus 4

# The study's per-GPU work on 4 GPUs: granite-3.1-8b's 40 layers, 480 samples per GPU per step, 4 steps.
gpu-study-4gpu: gpu-jobs
	bash tools/gpu/gpu_batch.sh $(WHEELS) $(GPU_OUT) study-4gpu:$(GPU_OUT)/job-study4:$(ARCH):-:7680:1500::4
	$(PY) -m experiments results add h100-1n --log $(GPU_OUT)/study-4gpu.jsonl --gpus 4

# The study on one GPU: granite-3.1-8b's layers, 2, 4 and 8 of them, the study's per-GPU batch (3840 / 8).
gpu-study-1gpu: gpu-jobs
	bash tools/gpu/gpu_batch.sh $(WHEELS) $(GPU_OUT) study-L2:$(GPU_OUT)/job-1gpu:$(ARCH):2:2880:900:80 \
		study-L4:$(GPU_OUT)/job-1gpu:$(ARCH):4:1920:900:80 study-L8:$(GPU_OUT)/job-1gpu:$(ARCH):8:1920:900:80 \
		study-L2-nooffload:$(GPU_OUT)/job-1gpu-nooffload:$(ARCH):2:1920:900:80

# The study's one-node run, h100-1n as rendered (8 processes), granite-3.1-8b, 9,872 samples, one epoch.
gpu-study: gpu-jobs
	bash tools/gpu/gpu_batch.sh $(WHEELS) $(GPU_OUT) study-8gpu:$(GPU_OUT)/job-study:$(ARCH):-:9872:7200

# ---- The lab (docs/lab.md): a 2-node stack's job as two emulated nodes of one host, as root, each node a
# network namespace with the pod's interfaces, the links shaped like the variant (the throughput model's
# figures). lab-jobs renders the three emulable H100 2-node stacks twice: LAB_OUT/proof/ (tiny Granite,
# 32 samples per GPU per step) and LAB_OUT/study/ (granite-3.1-8b's shape cut to 8 layers, 60 samples per GPU
# per step, the study's max_batch_len: the inter-node all-reduce of 3.6 GB per minibatch then weighs as
# much as the compute or more). WHEELS=DIR as above, plus pyroute2's wheel.
LAB_OUT ?= out/lab
LAB_STACKS := h100-2n-pod h100-2n-vnic h100-2n-sriov
LAB_PROOF := --share-gpu --arch tools/gpu/tiny-granite.json --samples 832 --timeout 240
LAB_STUDY := --arch $(ARCH) --layers 8 --samples 2400 --timeout 560

lab-jobs: $(VENV)/.installed
	for s in $(LAB_STACKS); do \
	  $(PY) -m tools.lab.render $$s $(LAB_OUT)/proof/$$s $(NO_FLASH) --set effective_batch_size=64 --set max_batch_len=10000 && \
	  $(PY) -m tools.lab.render $$s $(LAB_OUT)/study/$$s $(NO_FLASH) --set effective_batch_size=240 || exit 1; \
	done
	$(PY) -m tools.lab.render h100-1n $(LAB_OUT)/study/h100-1n $(NO_FLASH) --set effective_batch_size=120

# One GPU: both nodes on GPU 0 (a proof of the node boundary, not a throughput figure), each variant at the
# model's link, a sweep of the pod variant, and the four failed starts.
lab-proof: lab-jobs
	bash tools/lab/batch.sh $(WHEELS) $(LAB_OUT)/proof $(LAB_OUT)/runs \
	  "proof-pod h100-2n-pod $(LAB_PROOF)" "proof-vnic h100-2n-vnic $(LAB_PROOF)" \
	  "proof-sriov h100-2n-sriov $(LAB_PROOF)" "proof-pod-1g h100-2n-pod $(LAB_PROOF) --gbps 1" \
	  "proof-pod-2g h100-2n-pod $(LAB_PROOF) --gbps 2" "proof-pod-5g h100-2n-pod $(LAB_PROOF) --gbps 5" \
	  "proof-pod-unshaped h100-2n-pod $(LAB_PROOF) --unshaped" \
	  "fault-same-host h100-2n-pod $(LAB_PROOF) --samples 128 --fault same-host --grace 20" \
	  "fault-unreachable-master h100-2n-sriov --share-gpu --fault unreachable-master --rendezvous-timeout 20 --grace 10" \
	  "fault-no-mapping-line h100-2n-sriov --share-gpu --fault no-mapping-line --grace 10" \
	  "fault-missing-interface h100-2n-pod --share-gpu --fault missing-interface --grace 10"

# The measured set on a 4-GPU host: the compute baseline (one node of 2 GPUs, the same cut and work per GPU),
# then 2 nodes x 2 GPUs, HYBRID_SHARD and CPU offload as the job has them; each stack at the model's link,
# then the pod variant from 1 Gbit/s to unshaped.
lab-study: lab-jobs
	bash tools/lab/batch.sh $(WHEELS) $(LAB_OUT)/study $(LAB_OUT)/runs "study-1n h100-1n $(LAB_STUDY) --gpus 0,1" \
	  "study-pod h100-2n-pod $(LAB_STUDY)" "study-vnic h100-2n-vnic $(LAB_STUDY)" \
	  "study-sriov h100-2n-sriov $(LAB_STUDY)" "study-pod-1g h100-2n-pod $(LAB_STUDY) --gbps 1" \
	  "study-pod-2g h100-2n-pod $(LAB_STUDY) --gbps 2" "study-pod-10g h100-2n-pod $(LAB_STUDY) --gbps 10" \
	  "study-pod-25g h100-2n-pod $(LAB_STUDY) --gbps 25" "study-pod-unshaped h100-2n-pod $(LAB_STUDY) --unshaped"
