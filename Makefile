# The two front-door commands (see README): `make preview` and `make test`.
# Each creates .venv and installs what it needs on first use: the pinned requirements, then the
# project itself in editable mode, which puts the `gpu-cluster` command in .venv/bin.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STACK ?= dev

$(VENV)/.installed: requirements.txt requirements-dev.txt pyproject.toml $(shell find sdks/ibm -name '*.py' -o -name '*.toml' -o -name '*.json')
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements-dev.txt
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -e .
	touch $@

.PHONY: preview test test-fast readme bench check gpu-jobs gpu-proof gpu-study-1gpu gpu-study
preview: $(VENV)/.installed
	$(PY) -m experiments preview $(STACK)

# On every core (pytest-xdist; -n auto is one worker per core; TEST_WORKERS=0 runs them here): each worker
# renders a stack once and shares it with its tests (tests/conftest.py).
TEST_WORKERS ?= auto
test: $(VENV)/.installed
	$(PY) -m pytest -n $(TEST_WORKERS)

# The quick loop: everything but the tests marked slow (over a second each, by `pytest --durations`: whole-stack
# goldens, the README's outputs, subprocesses, waits for a timeout).
test-fast: $(VENV)/.installed
	$(PY) -m pytest -n $(TEST_WORKERS) -m "not slow"

# Rewrite the command outputs shown in README.md and docs/*.md (tools/readme_outputs.py; the
# README test fails until they match what the code prints).
readme: $(VENV)/.installed
	$(PY) tools/readme_outputs.py --write

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
	$(PY) tools/gpu/render_job.py h100-1n $(GPU_OUT)/job-study $(NO_FLASH)

# Issue 19: main_ds through the job's entrypoint on one GPU, with a tiny Granite model.
gpu-proof: gpu-jobs
	bash tools/gpu/gpu_batch.sh $(WHEELS) $(GPU_OUT) proof:$(GPU_OUT)/job-proof:tools/gpu/tiny-granite.json:-:2000:600

# Issue 22 on one GPU: granite-3.1-8b's layers, 2, 4 and 8 of them, the study's per-GPU batch (3840 / 8).
gpu-study-1gpu: gpu-jobs
	bash tools/gpu/gpu_batch.sh $(WHEELS) $(GPU_OUT) study-L2:$(GPU_OUT)/job-1gpu:$(ARCH):2:2880:900:80 \
		study-L4:$(GPU_OUT)/job-1gpu:$(ARCH):4:1920:900:80 study-L8:$(GPU_OUT)/job-1gpu:$(ARCH):8:1920:900:80 \
		study-L2-nooffload:$(GPU_OUT)/job-1gpu-nooffload:$(ARCH):2:1920:900:80

# Issue 22: the study's one-node run, h100-1n as rendered (8 processes), granite-3.1-8b, 9,872 samples, one epoch.
gpu-study: gpu-jobs
	bash tools/gpu/gpu_batch.sh $(WHEELS) $(GPU_OUT) study-8gpu:$(GPU_OUT)/job-study:$(ARCH):-:9872:7200
