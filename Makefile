# `make run` and `make test` set everything up themselves (idempotent; fast once done).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: setup run test lint bench bench-exact bench-expert bench-tournament bench-peers bench-optimal clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/hamle serve --host 127.0.0.1 --port 8000 --db hamle.sqlite3

lint: $(STAMP)
	$(BIN)/ruff format --check src tests bench
	$(BIN)/ruff check src tests bench

# Two workers, each taking whole test files in their order (tests may share a file's state).
test: lint
	$(BIN)/python -m pytest -n 2 --dist loadfile

bench: $(STAMP)
	$(BIN)/python bench/battleship.py
	$(BIN)/python bench/mastermind.py
	$(BIN)/python bench/tour.py
	$(BIN)/python bench/site.py
	$(BIN)/python bench/crash.py
	$(BIN)/python bench/exact.py --quick

# The full exact benchmark plays 1000 Russian games per shooter: about 12 minutes.
bench-exact: $(STAMP)
	$(BIN)/python bench/exact.py

# The Expert beside density and exact on the same games, the exact shooter's 1000 Russian
# games in one process, and the finer measure of what expert and exact save on their base
# along games 1..400: about three and a half hours on two cores.
bench-expert: $(STAMP)
	$(BIN)/python bench/expert.py --games 3000 --exact-games 20 --russian-games 1000

# Shooters × placers, 2000 games a pairing (expert and exact too), and the cluster's wall
# time beside --jobs 2: about 6 hours on two cores, nearly all of it expert and exact.
bench-tournament: $(STAMP)
	$(BIN)/python bench/tournament.py

# hamle beside the public peers, built outside the repository (see the README).
bench-peers: $(STAMP)
	$(BIN)/python bench/peers.py

# Optimal Mastermind (classic, free and at most 5 guesses; 4x7; Bulls and Cows) beside
# fancidev's solver, built outside the repository (see the README): about 65 minutes.
bench-optimal: $(STAMP)
	$(BIN)/python bench/mastermind_optimal.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis battleship-1000.png tests/browser/artifacts
