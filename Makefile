# Two entry points (README Quick start): `make play` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup play test lint typecheck unit bench clean browser

$(VENV)/bin/python:
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  echo "python3 -m venv failed; installing Debian's python3-venv"; \
	  apt-get update -qq && apt-get install -y -qq python3-venv && $(PYTHON) -m venv $(VENV); }

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[server,draw,dev]'
	@touch $(STAMP)

setup: $(STAMP)

## The main job: play the game.
play: setup
	$(VENV)/bin/hikone-carrom play

lint: setup
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/ruff format --check src tests

typecheck: setup
	$(VENV)/bin/mypy --strict

unit: setup
	$(PY) -m pytest -q

## Every test: lint, types, then the whole pytest suite.
test: lint typecheck unit

bench: setup
	$(VENV)/bin/hikone-carrom bench physics

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
