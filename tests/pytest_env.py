"""pytest plugin (loaded with `-p tests.pytest_env` from pyproject's addopts): the environment of a
developer machine for the test run, set before pytest-django imports the settings.

The settings fail closed (DEBUG is off unless the environment says otherwise), so the tests say
DEBUG=true like `make test` does, and plain `pytest` keeps working. The second factor is off for the
suite (its own tests switch it on), and the API rates are high enough that the bulk API tests are
never throttled (the throttling tests set low rates themselves). Jobs run in-process (an empty
CELERY_BROKER_URL) unless a broker is given, as CI does for the worker tests. Values already in the environment
win, so CI or a developer can still run the suite with other settings.
"""

import os
import tempfile

os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("STAFF_OTP_REQUIRED", "false")
os.environ.setdefault("API_THROTTLE_USER", "1000000/min")
os.environ.setdefault("API_THROTTLE_ANON", "1000000/min")
os.environ.setdefault("CELERY_BROKER_URL", "")
# Audit checkpoints of this run go to a directory of its own (each test also gets its own file, see
# tests/conftest.py), never to the developer's var/audit: a Celery worker started by a test reads this.
os.environ.setdefault(
    "AUDIT_CHECKPOINT_STORE", os.path.join(tempfile.mkdtemp(prefix="valvoja-audit-"), "checkpoints.jsonl")
)
