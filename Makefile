# One venv, made on demand and refreshed when pyproject.toml changes.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DATA   ?= ../shared/data

.PHONY: all run run-llm test lint types bench calibrate train-verifier up down clean venv

all: lint test

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	# torch first and pinned, so nothing later pulls a CUDA build
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/python -m workers.agents.demo

# The demo answers with every model stage on a real llama.cpp server (xllamacpp + Gemma 3 270M from
# PyPI, CPU, 127.0.0.1) behind a recording proxy: round trips, calls and tokens per answer (docs/LLM.md).
run-llm: $(STAMP)
	$(BIN)/python -m workers.backends.llm_demo

test: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider

lint: $(STAMP)
	$(BIN)/ruff check workers tests
	$(BIN)/ruff format --check workers tests
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m workers.eval.bench --data $(DATA) --out bench/results

# Per-domain tier-1 thresholds fitted on the dev split, scored on test (docs/EVALUATION.md).
calibrate: $(STAMP)
	$(BIN)/python -m workers.eval.calibrate --data $(DATA) --out bench/results/calibration.json

# Rebuild the trained verifier from scratch on the CPU: train (weights into workers/_models/verifier),
# then choose its support threshold on FaithBench dev (threshold choice only; never trained on).
train-verifier: $(STAMP)
	$(BIN)/python -m workers.training.command --data $(DATA) --report bench/results/verifier
	$(BIN)/python -m workers.training.tune --data $(DATA) --out bench/results/verifier/tuning.json --no-checks --write

up:
	docker compose up -d

down:
	docker compose down

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
