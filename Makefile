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

.PHONY: preview test bench check
preview: $(VENV)/.installed
	$(PY) -m experiments preview $(STACK)

test: $(VENV)/.installed
	$(PY) -m pytest

bench: $(VENV)/.installed
	$(PY) benchmarks/preview_scaling.py

check: $(VENV)/.installed
	scripts/check
