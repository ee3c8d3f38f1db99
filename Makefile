# Two entry points (README Quick start): `make play` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

# Debian packages the tests need: Chromium (end-to-end), a Japanese font (screenshots),
# PostgreSQL's binaries (the store is tested against a throwaway PostgreSQL server too), poppler
# (the pads' PDF score sheets and the tournament printouts are rendered to PNG and read back as
# text in the tests) and redis-server (several server processes are tested against a throwaway
# Redis).
TEST_PKGS := chromium fonts-ipafont-gothic postgresql poppler-utils redis-server

.PHONY: setup system-packages node-tools play test lint typecheck js unit bench clean

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

$(VENV)/bin/python:
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  echo "python3 -m venv failed; installing Debian's python3-venv"; rm -rf $(VENV); \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-venv && \
	  $(PYTHON) -m venv $(VENV); }

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[server,draw,dev]'
	@touch $(STAMP)

# The tests also need the reinforcement-learning environments' extra (the Gymnasium and
# PettingZoo checkers); `make play` does not.
RL_STAMP := $(VENV)/.installed-rl
$(RL_STAMP): $(STAMP)
	$(PY) -m pip install -q -e '.[rl]'
	@touch $(RL_STAMP)

setup: $(STAMP)

# The end-to-end tests drive Debian's Chromium, never a browser downloaded by a test tool.
system-packages:
	@dpkg -s $(TEST_PKGS) >/dev/null 2>&1 || { \
	  echo "installing Debian's $(TEST_PKGS) for the tests"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y -qq --no-install-recommends $(TEST_PKGS) >/dev/null; }

## The main job: play the game.
play: setup
	$(VENV)/bin/hikone-carrom play

lint: setup $(RL_STAMP)
	$(VENV)/bin/ruff check src tests tools
	$(VENV)/bin/ruff format --check src tests tools

typecheck: setup $(RL_STAMP)
	$(VENV)/bin/mypy --strict

# The browser tests mostly wait (on pages, animations, the server): two workers run them side by
# side, each with its own server, store and Chromium. The page audits (Lighthouse, axe-core) run
# after them on a machine left to them, and print every page's figures.
AUDITS := tests/e2e/test_lighthouse.py tests/e2e/test_axe.py
unit: setup $(RL_STAMP) system-packages $(NODE_STAMP)
	$(PY) -m pytest -q --ignore=tests/e2e
	$(PY) -m pytest -q -n 2 tests/e2e $(addprefix --ignore=,$(AUDITS))
	$(PY) -m pytest -q -s -n 0 -p no:randomly $(AUDITS)

# The browser client's development tools (TypeScript, Node's types) from package-lock.json; the
# stamp is npm's own record of what it installed. Node's built-in test runner runs the unit tests.
NODE_STAMP := node_modules/.package-lock.json
node-tools:
	@command -v node >/dev/null && command -v npm >/dev/null || { \
	  echo "installing Debian's nodejs npm for the browser client's checks"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null; }

$(NODE_STAMP): package-lock.json | node-tools
	npm ci --no-audit --no-fund
	@touch $(NODE_STAMP)

## The browser client: tsc --checkJs (no emit), then its unit tests.
js: $(NODE_STAMP)
	npx --no-install tsc -p tsconfig.json
	node --test tests/js/

## Every test: lint, types, the browser client's checks, then the whole pytest suite.
test: lint typecheck js unit

bench: setup
	$(VENV)/bin/hikone-carrom bench physics

clean:
	rm -rf $(VENV) node_modules .mypy_cache .ruff_cache .pytest_cache .hypothesis
