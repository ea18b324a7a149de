# The front door. `make run` and `make test` work on a fresh machine with Python 3.11 to 3.13.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1:8000

.PHONY: run test coverage oracle lint format worker demo bench messages lock clean

# The versions installed are the lock's (requirements/development.txt, made by `make lock`
# from pyproject.toml): every machine and CI run gets the same packages.
$(VENV)/.installed: pyproject.toml requirements/development.txt
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11, 3.12 or 3.13 is needed ($(PYTHON) not found)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade "pip>=25.1"
	$(PY) -m pip install --quiet -r requirements/development.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

## run: install, migrate, load the demo club, serve at http://$(HOST)
run: $(VENV)/.installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo --url http://$(HOST)/
	$(PY) manage.py runserver $(HOST)

## test: the whole suite (SQLite and eager tasks unless DATABASE_URL / REDIS_URL are set),
## spread over the machine's cores (pytest-xdist); `--dist loadgroup` keeps a group
## (xdist_group: tests sharing an expensive fixture) on one worker and sends the groups first
test: $(VENV)/.installed
	$(PY) -m pytest -n auto --dist loadgroup --durations=15

## coverage: `make test` under coverage.py (pytest-cov), failing below the floor that
## pyproject.toml ([tool.coverage.report] fail_under) sets for the services, selectors,
## views and API modules; not part of `make test`: the line tracing of Python 3.11 slows
## the suite
coverage: $(VENV)/.installed
	$(PY) -m pytest -n auto --dist loadgroup -m "not oracle" --cov --cov-report=term

## oracle: every writer against every kept read, kept answer vs an empty cache's (part of
## `make test`; alone here, minutes)
oracle: $(VENV)/.installed
	$(PY) -m pytest tests/test_kept_read_oracle.py -n auto -m oracle

## lint: ruff, the layer contracts (import-linter), types (mypy; strict on the rules, services and selectors)
lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

format: $(VENV)/.installed
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

## worker: one Celery worker per queue (needs REDIS_URL; see README "Workers: one per
## queue"): the season reports, the mail, the imports, and the default queue with an
## embedded beat for the periodic tasks; Ctrl-C stops them all. In production run beat
## once per installation (deploy/schockclub-beat.service)
CELERY := $(VENV)/bin/celery -A schockclub worker --loglevel=info --concurrency=1
worker: $(VENV)/.installed
	trap 'kill 0' INT TERM EXIT; \
	$(CELERY) -Q reports -n reports@%h & \
	$(CELERY) -Q mail -n mail@%h & \
	$(CELERY) -Q imports -n imports@%h & \
	$(CELERY) -Q celery -n default@%h --beat --schedule=.celerybeat-schedule & \
	wait

demo: $(VENV)/.installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo --url http://$(HOST)/

bench: $(VENV)/.installed
	@for f in bench/bench_*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

messages: $(VENV)/.installed
	cd . && $(PY) manage.py compilemessages -l de --ignore=.venv

## lock: pin every package anew from pyproject.toml (production and development locks)
lock: $(VENV)/.installed
	$(PY) -m pip install --quiet uv
	$(VENV)/bin/uv pip compile pyproject.toml --universal --python-version 3.11 --upgrade \
		--custom-compile-command "make lock" -o requirements/production.txt
	$(VENV)/bin/uv pip compile pyproject.toml --group dev --universal --python-version 3.11 \
		--upgrade --custom-compile-command "make lock" -o requirements/development.txt

clean:
	rm -rf $(VENV) db.sqlite3 media staticfiles .pytest_cache
