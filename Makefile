# Two commands on a fresh machine: `make lab` and `make test` (see README.md).
# Both create .venv when missing and install the locked dependencies; a stamp file makes the
# set-up a no-op when requirements.lock and pyproject.toml have not changed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# The engines' numba kernels, compiled once into numba's cache after installing (and again when a
# compiled module changes), so that a game's first call in a notebook or a test loads them.
WARM   := $(VENV)/.warm
COMPILED := $(shell grep -rl --include='*.py' numba workbench)
# nbconvert --execute stores widget state in the notebook by default; committed notebooks must
# not hold it (static renderers would show a blank widget, not an explorer's saved result, and
# it doubles the file), so the environment's nbconvert is configured not to (notebooks/README.md).
NBCONVERT_CONFIG := $(VENV)/etc/jupyter/jupyter_nbconvert_config.json
# JupyterLab refuses to run as root without --allow-root; add it only then. Auth stays on.
ROOT_FLAG := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)
# Extra options for `make lab`, e.g. LAB_OPTS="--no-browser --port=8890".
LAB_OPTS ?=

.PHONY: setup lab test lint pytest browser-check bench lock clean

setup: $(STAMP) $(NBCONVERT_CONFIG) $(WARM)

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
		|| { echo "The workbench needs Python >= 3.11; $(PYTHON) is $$($(PYTHON) -V 2>&1)." >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.lock pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $(STAMP)

# numba checks a cached kernel against its own file only, and some kernels inline another
# module's functions (a game's search round inlines its engine, every game's loops the kit's
# streams): a changed compiled module clears its whole game's cache before warming, and a
# changed compiled kit module every game's, so no kernel keeps the old code.
$(WARM): $(STAMP) $(COMPILED)
	@for d in $(sort $(dir $(filter workbench/games/%,$?))) \
		$(if $(filter workbench/kit/%,$?),workbench/kit/ $(sort $(dir $(wildcard workbench/games/*/)))); do \
		rm -f $${d}__pycache__/*.nbi $${d}__pycache__/*.nbc; done
	$(BIN)/python -m workbench.warm
	@touch $(WARM)

$(NBCONVERT_CONFIG): Makefile | $(BIN)/python
	@mkdir -p $(dir $@)
	@echo '{"NotebookClient": {"store_widget_state": false}}' > $@

lab: setup
	$(BIN)/jupyter lab --ServerApp.root_dir=notebooks $(ROOT_FLAG) $(LAB_OPTS)

test: setup lint pytest browser-check

lint: setup
	$(BIN)/ruff check .

# The tests and notebooks spread over the machine's cores (at most 4), a file to a worker: a
# notebook's cells run in order in one kernel.
pytest: setup
	$(BIN)/python -m pytest -n auto --maxprocesses=4 --dist loadfile

browser-check: setup
	$(BIN)/python tools/browser_check.py
	$(BIN)/python tools/browser_table_check.py

bench: setup
	for script in bench/*.py; do $(BIN)/python $$script || exit 1; done

# Re-resolve the newest versions allowed by pyproject.toml into requirements.lock.
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --disable-pip-version-check ".[dev]" hatchling editables
	{ echo "# Exact versions for reproducible notebook outputs. Regenerate with: make lock"; \
	  .lock-venv/bin/python -m pip freeze --exclude workbench; } > requirements.lock
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache notebooks/.browser-check
