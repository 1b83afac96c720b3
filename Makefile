# ClusterBuy: `make run` sets up and serves; `make test` runs the whole suite.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# Debian packages: gettext (compilemessages), pango (WeasyPrint), CJK fonts, poppler
# (pdftotext in tests), Chromium (browser tests, never downloaded by Playwright).
SYSTEM_PACKAGES := gettext libpango-1.0-0 libpangoft2-1.0-0 fonts-noto-cjk poppler-utils
TEST_SYSTEM_PACKAGES := chromium

.PHONY: install static system-deps test-system-deps messages run worker test lint bench clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) system-deps messages static

static: $(STAMP)
	@$(PY) manage.py collectstatic --noinput -v 0

system-deps:
	@bash .ci/system-deps $(SYSTEM_PACKAGES)

test-system-deps:
	@bash .ci/system-deps $(TEST_SYSTEM_PACKAGES)

messages: $(STAMP)
	@$(PY) manage.py compilemessages --ignore '.venv' -v 0

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_catalog
	$(PY) manage.py load_demo
	@echo "Serving on http://127.0.0.1:8000/ (SQLite, tasks in threads of the server). Ctrl-C to stop."
	DEBUG=1 $(PY) manage.py runserver 127.0.0.1:8000

worker: install
	$(VENV)/bin/celery -A clusterbuy worker --loglevel=INFO --queues=$${CELERY_TASK_DEFAULT_QUEUE:-clusterbuy}

test: install test-system-deps
	@source .ci/services-env; \
	$(PY) -m pytest -n 2 --dist loadgroup $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

bench: install
	@source .ci/services-env; $(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) staticfiles test-artifacts
