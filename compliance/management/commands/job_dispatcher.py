"""Run the job dispatcher in the foreground (compliance.jobs.dispatch every JOBS_DISPATCH_SECONDS).

The beat process runs one already (JOBS_DISPATCHER_IN_BEAT); this command is for installations that
want it separate, or a second one: every change it makes is a conditional UPDATE, so several may run.
`--once` makes one pass and prints what it did."""

import signal
import threading

from django.core.management.base import BaseCommand

from compliance.jobs import dispatch, dispatcher_loop


class Command(BaseCommand):
    help = "Send queued jobs to the broker, re-send lost ones and take back stalled ones, in a loop."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="one pass, then exit")

    def handle(self, *args, **options):
        if options["once"]:
            self.stdout.write(str(dispatch()))
            return
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        dispatcher_loop(stop)
