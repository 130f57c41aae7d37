# Valvoja developer commands. `make run` and `make test` work on a fresh machine with Python 3.11+.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
# The first interpreter found that is Python 3.11 or newer (Django 5.2 LTS needs 3.10+; we test on 3.11+).
PYTHON ?= $(shell for p in python3 python3.13 python3.12 python3.11; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null && { echo $$p; break; }; done)
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?= -n 2
# The settings fail closed (DEBUG off unless set); every target here is for a developer machine.
export DEBUG ?= true

.PHONY: run test venv migrate demo check bench clean messages lint

$(VENV)/.installed: requirements.txt
	@test -n "$(PYTHON)" || { echo "Python 3.11 or newer is required (python3, python3.12, ...)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

venv: $(VENV)/.installed

migrate: venv
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py seed_demo

# Jobs run outside the request, with no server to install: a Celery worker and beat (which runs the
# job dispatcher) on the filesystem transport in var/jobs (the settings' embedded default), beside
# runserver. Ctrl-C stops all three; the trap also stops the two in the background if runserver ends.
run: demo
	@echo "Serving Valvoja on http://$(HOST):$(PORT)/ with a job worker and beat (Ctrl-C to stop)"
	@trap 'kill $$(jobs -p) 2>/dev/null; wait' EXIT; \
	$(PY) -m celery -A config worker --loglevel=WARNING --concurrency=2 --without-gossip --without-mingle & \
	$(PY) -m celery -A config beat --loglevel=WARNING & \
	STAFF_OTP_REQUIRED=$${STAFF_OTP_REQUIRED:-false} $(PY) manage.py runserver $(HOST):$(PORT)

test: venv
	$(PY) -m pytest $(PYTEST_ARGS)

lint: venv
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports

check: venv
	$(PY) manage.py check

messages: venv
	$(PY) manage.py makemessages -l fi -l sv --ignore=.venv --ignore=var --ignore=tests
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) var .pytest_cache .hypothesis
