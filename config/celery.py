"""The Celery application. Configuration comes from Django settings (names prefixed CELERY_).

Job processes announce themselves for /healthz (compliance.jobs): each worker keeps a heartbeat row
fresh from a thread of its main process, and the beat process runs the job dispatcher beside its
schedule (docs/architecture.md, "Jobs")."""

import os
import socket

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("valvoja")
# The one app of every thread of the process: the apps publish through `celery.current_app` (they do
# not import the project), and Celery's "current" app is per thread, so it is made the default too
# (jobs are also published from the dispatcher thread and from the web server's request threads).
app.set_default()
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Without a broker tasks run eagerly in the caller, but Celery still opens a (never used) producer
# connection on .delay(); the in-memory transport gives it somewhere to point instead of warning
# "No hostname was supplied" about a localhost AMQP broker that is not there.
if not app.conf.broker_url:
    app.conf.broker_url = "memory://localhost/"

_stops = {}


@signals.worker_ready.connect
def _worker_ready(sender=None, **kwargs):
    # Imported when the signal fires, not at the top: this module loads before Django's apps are ready.
    from compliance.jobs import start_heartbeat_thread

    # The node name and the process: two workers started with the same name still count as two.
    name = f"{getattr(sender, 'hostname', None) or socket.gethostname()}:{os.getpid()}"
    _stops["worker"] = (start_heartbeat_thread("worker", name), name)


@signals.worker_shutdown.connect
def _worker_shutdown(sender=None, **kwargs):
    entry = _stops.pop("worker", None)
    if entry:
        from compliance.jobs import process_gone  # as above: loaded before the apps are ready

        entry[0].set()
        try:
            process_gone("worker", entry[1])  # gone at once, not after JOBS_STALE_SECONDS
        except Exception:  # noqa: BLE001 - the database may be away; the row goes stale
            pass


@signals.beat_init.connect
def _beat_init(sender=None, **kwargs):
    from django.conf import settings

    from compliance.jobs import start_dispatcher_thread  # as above: loaded before the apps are ready

    if getattr(settings, "JOBS_DISPATCHER_IN_BEAT", True):
        _stops["dispatcher"] = start_dispatcher_thread(f"beat@{socket.gethostname()}:{os.getpid()}")
