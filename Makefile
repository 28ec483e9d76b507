# Two entry points: `make run` (set up + run) and `make test` (set up + every test, lint, type check).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Ranges in pyproject.toml; the exact versions installed (and tested) in constraints.txt.
PIP_INSTALL := $(BIN)/pip install -q -c constraints.txt

.PHONY: setup setup-dev run host build test test-postgres test-lowest docs browser-deps lint typecheck bench mypyc mypyc-clean test-mypyc

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# The server's packages are the `server` extra (the core alone: `pip install shengji`).
setup: $(BIN)/python
	$(PIP_INSTALL) -e '.[server]'

setup-dev: $(BIN)/python
	$(PIP_INSTALL) -e '.[dev]'

run: setup
	$(BIN)/shengji serve --data-dir ./shengji-data

# What a host runs: the compiled build (docs/deploy.md "The compiled build"), then the
# server. The first build takes minutes (a C compiler and mypy compile the engine, the bots
# and the server's per-action path); later starts keep it until a compiled source changes.
# `make run` starts the pure-Python build at once.
host: build
	$(BIN)/shengji serve --data-dir ./shengji-data

build: setup
	$(PIP_INSTALL) mypy
	BIN=$(abspath $(BIN)) bash scripts/build_mypyc.sh

# The browser tests (tests/web) drive Debian's chromium; screenshots need a CJK font.
# Installed when running as root with apt (CI); elsewhere those tests skip, never fail.
browser-deps:
	@if [ "$$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1 \
		&& ! { [ -x /usr/bin/chromium ] && dpkg -s fonts-wqy-microhei >/dev/null 2>&1; }; then \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -qq >/dev/null && apt-get install -y -qq chromium fonts-wqy-microhei >/dev/null; \
	fi

test: setup-dev browser-deps
	$(BIN)/python -m pytest -n 2 --durations=20
	$(BIN)/ruff check src tests bench docs
	$(BIN)/mypy --strict src/shengji
	$(MKDOCS) --quiet
	@if [ -f ../shared/checks/judge_check.py ]; then \
		$(BIN)/python ../shared/checks/judge_check.py ../shared/checks/rules_examples.jsonl; \
	else echo "judge check skipped: ../shared/checks not found"; fi

# The documentation site (mkdocs.yml) into site/, warnings as errors; about 15 s.
MKDOCS := NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict
docs: setup-dev
	$(MKDOCS)

# The lowest allowed versions of the direct dependencies of the core and the server,
# postgres and env extras (not torch, ray) in .venv-lowest, and these tests on them: the
# env suite whole; the core's doctests (every core module imported and exercised: the core
# needs only the standard library and mypy_extensions, so its long property suite is not
# repeated); the arena's (rich); and the server tests that exercise each server dependency
# (FastAPI, uvicorn and websockets, SQLAlchemy, aiosqlite and Alembic, msgspec, limits,
# prometheus-client, redis, pydantic-settings). `make test-lowest LOWEST_TESTS="tests/core
# tests/server tests/env"` runs the whole of those suites (about 15 minutes more).
LOWEST_TESTS ?= tests/env src/shengji/core tests/cli/test_arena.py \
	tests/cli/test_arena_longrun.py tests/server/test_play.py tests/server/test_ws_protocol.py \
	tests/server/test_migrations.py tests/server/test_metrics_ready.py tests/server/test_bus.py \
	tests/server/test_limits.py tests/server/test_protocol_schema.py \
	tests/server/test_startup.py tests/server/test_validation.py tests/server/test_restart.py
test-lowest:
	PY=$(PY) bash scripts/test_lowest.sh $(LOWEST_TESTS)

# The server suite again, against PostgreSQL (docs/deploy.md, "PostgreSQL in tests"): one
# answering on 127.0.0.1:5432 (scripts/postgres_for_tests.sh starts or installs one when
# root); skipped, saying why, when there is none. PG_TESTS picks the tests (default all).
PG_TESTS ?= tests/server
# four workers on two cores: the PostgreSQL pass waits on the database (each worker near a
# quarter of a core with two), so more of them overlap the waits
PG_WORKERS ?= 4
test-postgres: setup-dev
	@url=$$(PY=$(BIN)/python bash scripts/postgres_for_tests.sh) \
		|| { echo "test-postgres skipped: no PostgreSQL to test against (reason above)"; exit 0; }; \
	echo "test-postgres: the server tests against $$url"; \
	SHENGJI_TEST_DATABASE_URL=$$url $(BIN)/python -m pytest -n $(PG_WORKERS) -p no:cacheprovider --durations=10 $(PG_TESTS)

bench: setup
	$(BIN)/python bench/rules.py
	$(BIN)/python bench/deals.py

# The compiled build in a dev checkout (the same as `make build`; docs/bots.md and
# docs/deploy.md for speeds); `make run` and `make test` stay pure Python.
mypyc: setup-dev
	BIN=$(abspath $(BIN)) bash scripts/build_mypyc.sh

# The core's, the bots' and the server's tests against a compiled copy (the checkout stays
# pure); not part of `make test`, which tests the pure-Python build.
MYPYC_TESTS ?=
test-mypyc: setup-dev
	BIN=$(abspath $(BIN)) bash scripts/test_mypyc.sh $(MYPYC_TESTS)

mypyc-clean:
	rm -f src/shengji/core/*.so src/shengji/bots/*.so src/shengji/server/*.so \
	  src/shengji/server/*/*.so src/*__mypyc*.so src/.mypyc-built
	rm -rf src/build
