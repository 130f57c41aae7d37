"""The Celery application. Configuration comes from Django settings (names prefixed CELERY_)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("valvoja")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Without a broker tasks run eagerly in the caller, but Celery still opens a (never used) producer
# connection on .delay(); the in-memory transport gives it somewhere to point instead of warning
# "No hostname was supplied" about a localhost AMQP broker that is not there.
if not app.conf.broker_url:
    app.conf.broker_url = "memory://localhost/"
