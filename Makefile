# Fifteen — every set-up step is here; `make serve` and `make test` do all of it.
# Targets are idempotent: a second run with nothing changed does (almost) nothing.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000

.PHONY: all assets db web serve dist package test unit e2e e2e-chromium e2e-firefox e2e-webkit e2e-engines js-test bench clean browser lint lint-python lint-js mutants FORCE

all: assets

# ---------------------------------------------------------------- virtualenv
$(VENV)/.stamp: requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@

venv: $(VENV)/.stamp

# ---------------------------------------------------------------- databases
# build_db.py (the package py/dbbuild) keeps its own cache, keyed by each asset's build
# version and parameters (py/dbbuild/cache.py), and rewrites only what changed.
# Every module of the package, at any depth (py/fifteen/*/...).
FIFTEEN_PY := $(shell find py/fifteen -name '*.py' -not -path '*/__pycache__/*')
DB_INPUTS := build_db.py $(wildcard py/dbbuild/*.py) $(FIFTEEN_PY)

static/db/manifest.json: $(DB_INPUTS) $(VENV)/.stamp
	PYTHONPATH=py $(PY) build_db.py --out static/db

db: static/db/manifest.json

# ---------------------------------------------------------------- web runtime
# Vendored Pyodide (from npm, pinned in package-lock.json), the fifteen wheel (rebuilt when
# py/fifteen changes) and what the worker installs from it, fifteen-*-pyodide.zip: the runtime
# package's files (fifteen/ but its command line: not the wheel's database builder dbbuild/ nor its metadata) plus
# bytecode compiled by Pyodide's own Python (tools/web_pyc.mjs; no micropip in the browser),
# static/wheels/manifest.json and static/build-info.json (asset list + hashes: the
# service worker's cache version).  See docs/web-app.md.  The fifteen wheel is
# reproducible (SOURCE_DATE_EPOCH: fixed zip time stamps), so a rebuild of unchanged sources,
# e.g. every deploy from a fresh checkout, keeps the same cache version.
PYODIDE_DIR   := static/vendor/pyodide
PYODIDE_FILES := pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json
FIFTEEN_SRC   := pyproject.toml $(FIFTEEN_PY)  # what the page's archive is made of
SOURCE_DATE_EPOCH := 315532800  # 1980-01-01, the earliest zip time stamp: every build the same bytes

node_modules/.stamp: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(PYODIDE_DIR)/.stamp: node_modules/.stamp
	mkdir -p $(PYODIDE_DIR)
	cd node_modules/pyodide && cp $(PYODIDE_FILES) $(CURDIR)/$(PYODIDE_DIR)/
	touch $@

static/wheels/.fifteen.stamp: $(FIFTEEN_SRC) tools/web_pyc.mjs | $(VENV)/.stamp node_modules/.stamp
	mkdir -p static/wheels && rm -f static/wheels/fifteen-*.whl static/wheels/fifteen-*.zip
	mkdir -p .cache && SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) $(PY) -m pip wheel -q --no-deps --no-build-isolation -w static/wheels . >.cache/wheel.log 2>&1 \
	  || { cat .cache/wheel.log; exit 1; }
	node tools/web_pyc.mjs static/wheels/fifteen-*.whl
	$(PY) -c "import glob, sys, zipfile; names = zipfile.ZipFile(glob.glob('static/wheels/fifteen-*-pyodide.zip')[0]).namelist(); \
	  extra = [n for n in names if n.split('/')[0] != 'fifteen' or n.startswith(('fifteen/cli/', 'fifteen/__main__'))]; \
	  sys.exit(f'the page\'s archive holds more than the browser runs: {extra}' if extra else None)"
	touch $@

# The xz decoder for the optional 7-8 pack (npm xz-decompress, MIT: xz-embedded compiled to
# WebAssembly, inlined): its UMD bundle, unchanged, wrapped as an ES module for the module worker.
XZ_JS := static/vendor/xz/xz-decompress.mjs
$(XZ_JS): node_modules/.stamp
	mkdir -p $(dir $@)
	{ echo "// npm xz-decompress $$(node -p 'require("./node_modules/xz-decompress/package.json").version') (MIT), dist/package/xz-decompress.min.js"; \
	  echo "// wrapped as an ES module by the Makefile (target web); the bundle below is unchanged."; \
	  echo "const module = { exports: {} }; const exports = module.exports; const require = () => ({});"; \
	  cat node_modules/xz-decompress/dist/package/xz-decompress.min.js; echo; \
	  echo "export const { XzReadableStream } = module.exports;"; } >$@.tmp
	mv $@.tmp $@

static/build-info.json: $(PYODIDE_DIR)/.stamp $(XZ_JS) static/wheels/.fifteen.stamp tools/web_build_info.py FORCE
	$(PY) tools/web_build_info.py

web: static/build-info.json

FORCE:

# ---------------------------------------------------------------- lint and types
# `make lint` (run first by `make test`): every checker, each configured in its own file.
# Python: ruff (lint, then format check) and mypy, configured in pyproject.toml.
PY_LINT_PATHS := py build_db.py tools bench tests data

lint-python: $(VENV)/.stamp
	$(VENV)/bin/ruff check $(PY_LINT_PATHS)
	$(VENV)/bin/ruff format --check $(PY_LINT_PATHS)
	$(VENV)/bin/mypy

# JavaScript: eslint (flat config eslint.config.js, a devDependency pinned in package-lock.json)
# over static/js, sw.js and tests/js.
lint-js: node_modules/.stamp
	node_modules/.bin/eslint --max-warnings=0 .

lint: lint-python lint-js

# ---------------------------------------------------------------- everything served
assets: db web

serve: assets
	@echo "Serving http://127.0.0.1:$(PORT)/"
	$(PY) -m http.server $(PORT) --bind 127.0.0.1

# ---------------------------------------------------------------- deployable site
# dist/: exactly the files the site serves (static/build-info.json, plus the optional packs
# the database manifest lists), and a 404.html; see docs/hosting.md.  SITE_PATH is the URL
# path the site is served under (404.html's links; the Pages workflow passes it);
# PRECOMPRESS="gzip br" adds .gz/.br siblings for servers that send them (nginx, Caddy).
SITE_PATH   ?= /
PRECOMPRESS ?=
dist: assets
	$(PY) tools/web_dist.py --out dist --base "$(SITE_PATH)" --precompress "$(PRECOMPRESS)"

# ---------------------------------------------------------------- the Python package
# `make package`: the wheel and the sdist users install (`pip install`, `pipx install`), in
# build/packages/, built by PyPA build with the venv's hatchling (pyproject.toml; as the page's
# wheel: no download): reproducible (the same SOURCE_DATE_EPOCH as the page's wheel: the same
# bytes from the same sources), the wheel made from the sdist (so the sdist is complete).  The wheel holds fifteen and dbbuild (`fifteen db build`).
PACKAGE_DIR := build/packages
PACKAGE_SRC := pyproject.toml README.md CHANGELOG.md $(FIFTEEN_PY) $(wildcard py/dbbuild/*.py)

$(PACKAGE_DIR)/.stamp: $(PACKAGE_SRC) | $(VENV)/.stamp
	rm -rf $(PACKAGE_DIR)
	mkdir -p .cache && SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) $(PY) -m build -q --no-isolation --outdir $(PACKAGE_DIR) . >.cache/package.log 2>&1 \
	  || { cat .cache/package.log; exit 1; }
	@ls -l $(PACKAGE_DIR)
	touch $@

package: $(PACKAGE_DIR)/.stamp


# The Python tests run on every core (pytest-xdist), each test file on one worker (the files'
# fixtures are module- and session-scoped); the browser tests share one page per worker, so they
# run in one worker of their own, after.
PYTEST_WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
unit: $(VENV)/.stamp db
	$(PY) -m pytest -q -n $(PYTEST_WORKERS) --dist loadfile tests --ignore=tests/e2e

# The three browser engines of the e2e tests, from Debian's packages when missing: chromium
# (Playwright drives it), firefox-esr (driven over WebDriver BiDi by npm puppeteer-core, no
# geckodriver) and WebKitGTK's MiniBrowser with WebKitWebDriver (webkit2gtk-driver, which pulls in
# libwebkit2gtk and its MiniBrowser) under Xvfb (xvfb), through Selenium.  tests/e2e/engines.py.
ENGINE_PACKAGES := chromium:chromium firefox-esr:firefox-esr WebKitWebDriver:webkit2gtk-driver Xvfb:xvfb
browser:
	@missing=""; for pair in $(ENGINE_PACKAGES); do \
	  command -v $${pair%%:*} >/dev/null 2>&1 || missing="$$missing $${pair#*:}"; done; \
	if [ "$$missing" = " chromium" ] && command -v chromium-browser >/dev/null 2>&1; then missing=""; fi; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian's$$missing for the e2e tests"; \
	  if [ "$$(id -u)" = 0 ]; then S=; else S=sudo; fi; \
	  $$S apt-get update -qq && $$S env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

e2e: assets browser
	$(PY) -m pytest -q tests/e2e

# The smoke run of the page in one engine (tests/e2e/test_engines.py: load, Korf #1, Stop, a 5x5
# fast answer, an offline reload); e2e-engines: in the three, one after the other.
e2e-chromium: assets browser
	$(PY) -m pytest -q tests/e2e/test_engines.py -k chromium

e2e-firefox: assets browser
	$(PY) -m pytest -q tests/e2e/test_engines.py -k firefox

e2e-webkit: assets browser
	$(PY) -m pytest -q tests/e2e/test_engines.py -k webkit

e2e-engines: assets browser
	$(PY) -m pytest -q tests/e2e/test_engines.py

# ---------------------------------------------------------------- JavaScript unit tests
# Node's own test runner (no dependency) over tests/js.
js-test: node_modules/.stamp
	node --test tests/js/*.test.mjs

test: lint js-test assets browser
	$(PY) -m pytest -q -n $(PYTEST_WORKERS) --dist loadfile tests --ignore=tests/e2e
	$(PY) -m pytest -q tests/e2e

# ---------------------------------------------------------------- mutation testing (not CI)
# mutmut (pinned; installed into the venv here, not by requirements-dev.txt) over the bound and
# pruning modules, configured in pyproject.toml ([tool.mutmut]). mutmut knows only a src/
# layout, so it runs in a staged copy, $(MUTANTS_DIR), whose results (mutants/) are reused by the
# next run (only changed functions are run again). `make mutants MODULE=bounds.manhattan` runs one
# module; the score per module is printed at the end. The staged copy is no checkout (its package
# is src/fifteen), so the databases are named by $FIFTEEN_DB: the checkout's own.
MUTMUT_VERSION := 3.8.1
MUTANTS_DIR    := .cache/mutmut
$(VENV)/.mutmut-$(MUTMUT_VERSION).stamp: $(VENV)/.stamp
	$(PY) -m pip install -q mutmut==$(MUTMUT_VERSION)
	touch $@

mutants: $(VENV)/.mutmut-$(MUTMUT_VERSION).stamp db
	mkdir -p $(MUTANTS_DIR)/src $(MUTANTS_DIR)/py $(MUTANTS_DIR)/static
	rm -rf $(MUTANTS_DIR)/src/fifteen $(MUTANTS_DIR)/py/dbbuild $(MUTANTS_DIR)/tests $(MUTANTS_DIR)/data $(MUTANTS_DIR)/bench $(MUTANTS_DIR)/static/db $(MUTANTS_DIR)/static/data
	cp -r py/fifteen $(MUTANTS_DIR)/src/fifteen
	cp -r py/dbbuild $(MUTANTS_DIR)/py/dbbuild
	cp -r tests $(MUTANTS_DIR)/tests
	cp -r data $(MUTANTS_DIR)/data
	cp -r bench $(MUTANTS_DIR)/bench
	cp -rL static/db $(MUTANTS_DIR)/static/db
	cp -r static/data $(MUTANTS_DIR)/static/data
	cp pyproject.toml $(MUTANTS_DIR)/
	cd $(MUTANTS_DIR) && FIFTEEN_DB=$(CURDIR)/static/db $(CURDIR)/$(VENV)/bin/mutmut run --max-children 2 $(if $(MODULE),"fifteen.$(MODULE).*")
	cd $(MUTANTS_DIR) && $(CURDIR)/$(VENV)/bin/mutmut results --all true | $(CURDIR)/$(PY) $(CURDIR)/tests/support/mutation_score.py

bench: $(VENV)/.stamp db
	PYTHONPATH=py $(PY) bench/bench_bounds.py

clean:
	rm -rf static/db static/vendor static/wheels static/build-info.json build dist

# ---------------------------------------------------------------- side-by-side benchmark
# Native vs Pyodide (Node) vs the PyPI peers (bench/README.md); not a test.
# The peers live in their own venv; pass options with ARGS="--all --peers none" etc.
.venv-bench/.stamp: bench/requirements-peers.txt
	$(PYTHON) -m venv .venv-bench
	.venv-bench/bin/pip install -q -r bench/requirements-peers.txt
	touch $@

bench-peers: .venv-bench/.stamp node_modules/.stamp db
	PYTHONPATH=py $(PY) bench/side_by_side.py $(ARGS)

# ---------------------------------------------------------------- optional 7-8 pack
# The hard-positions pack (static/db/pdb-78.f15.xz, fifteen.bounds.pdb78): not part of make db / CI.
# Its builder, numba (in requirements-dev.txt, as for the default 7-7-1 tables), takes ~4 GB RAM and
# 10-30 min on 2 cores.  The BFS result is cached (~/.cache/fifteen-db/raw), so re-encoding is quick.
.PHONY: pack
pack: $(VENV)/.stamp
	PYTHONPATH=py $(PY) build_db.py --only pdb-78 --out static/db

# ---------------------------------------------------------------- optional explorer packs
# Exact-distance tables of 3x4 (and 4x3) and 2x6 (and 6x2) for the small-board explorer
# (fifteen.bounds.exact): static/db/explore-3x4.f15.xz, explore-2x6.f15.xz, ~30 MB each.  Not part of
# make db / CI.  numpy only; ~1 min of CPU and ~2.2 GB of RAM per board plus xz (see bench/explorer.md).
# The builder checks each histogram against the published one (OEIS); bench/explorer_pack.py then
# reads the packs back through the runtime reader and checks them again.
.PHONY: explorer-pack
explorer-pack: $(VENV)/.stamp
	PYTHONPATH=py $(PY) build_db.py --only explore-3x4 explore-2x6 --out static/db
	PYTHONPATH=py $(PY) bench/explorer_pack.py --db static/db --shapes 3x4,2x6
