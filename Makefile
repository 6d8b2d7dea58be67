# Fifteen — every set-up step is here; `make serve` and `make test` do all of it.
# Targets are idempotent: a second run with nothing changed does (almost) nothing.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000

.PHONY: all assets db web serve test unit e2e bench clean

all: assets

# ---------------------------------------------------------------- virtualenv
$(VENV)/.stamp: requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@

venv: $(VENV)/.stamp

# ---------------------------------------------------------------- databases
# build_db.py keeps its own cache (see its --help) and rewrites only what changed.
DB_INPUTS := build_db.py $(wildcard py/fifteen/*.py)

static/db/manifest.json: $(DB_INPUTS) $(VENV)/.stamp
	PYTHONPATH=py $(PY) build_db.py --out static/db

db: static/db/manifest.json

# ---------------------------------------------------------------- web runtime
# (vendored Pyodide, micropip wheels, the fifteen wheel) — see the web section below.
web:

# ---------------------------------------------------------------- everything served
assets: db web

serve: assets
	@echo "Serving http://127.0.0.1:$(PORT)/"
	$(PY) -m http.server $(PORT) --bind 127.0.0.1

unit: $(VENV)/.stamp db
	$(PY) -m pytest -q tests --ignore=tests/e2e

test: assets
	$(PY) -m pytest -q tests

bench: $(VENV)/.stamp db
	PYTHONPATH=py $(PY) bench/bench_bounds.py

clean:
	rm -rf static/db static/vendor static/wheels build dist
