# exactdp — `make run` verifies the shipped case library, `make test` runs the test suite.
# Both create a local virtual environment (.venv) on first use and install what they need.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test bench docs audit fuzz clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.deps-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.deps-test: pyproject.toml $(VENV)/.deps-run
	$(BIN)/python -m pip install -q -e '.[test,docs]'
	touch $@

run: $(VENV)/.deps-run
	$(BIN)/exactdp verify --jobs auto cases/

# The suite runs on every usable core (pytest-xdist, one worker per core; TEST_JOBS=N to choose).
# With one core it runs in the pytest process itself (-n 0), exactly as `pytest` without -n does.
# --dist loadgroup: tests are handed out one by one, except that the tests of a file with a module-
# or session-scoped fixture stay together on one worker (tests/conftest.py), which builds it once.
TEST_JOBS ?= $(shell $(PYTHON) -c 'import os; print(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)')

test: $(VENV)/.deps-test
	$(BIN)/python -m pytest -q -n $(if $(filter 1,$(TEST_JOBS)),0,$(TEST_JOBS)) --dist loadgroup

# a longer fuzzing run than the bounded one inside `make test`
fuzz: $(VENV)/.deps-test
	EXACTDP_FUZZ_EXAMPLES=$${EXACTDP_FUZZ_EXAMPLES:-3000} $(BIN)/python -m pytest -q tests/test_fuzz.py
# regenerate the generated pages, then build the site (warnings are errors) into docs/_build/html
docs: $(VENV)/.deps-test
	$(BIN)/python -m exactdp.tools.casedoc cases/ > docs/cases.md
	$(BIN)/exactdp plot cases/vadhan-wang/thm-1-8-approx-concurrent.yaml -o docs/img/thm-1-8-profile.png
	$(BIN)/python -m exactdp.tools.registryindex --write
	$(BIN)/python -m exactdp.tools.formatdoc --write
	$(BIN)/python -m exactdp.tools.archdoc --write
	$(BIN)/python -m exactdp.tools.apidoc --write
	$(BIN)/python -m sphinx -b html -W --keep-going -q docs docs/_build/html
	@echo "docs: open docs/_build/html/index.html"

bench: $(VENV)/.deps-run
	$(BIN)/python bench/run.py

# audit of numeric DP accountants: installs the optional `peers` extra into .venv
# (dp-accounting, prv-accountant, autodp, opendp) and rewrites bench/peers/RESULTS.md.
# Not part of `make test`.
audit: $(VENV)/.deps-run
	$(BIN)/python -m pip install -q -e '.[peers]'
	$(BIN)/python bench/peers/audit.py --write bench/peers/RESULTS.md

clean:
	rm -rf $(VENV) .venv-run build *.egg-info .pytest_cache .hypothesis docs/_build
