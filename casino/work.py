"""The casino's work queue (compliance.queues, issue 18 item 3): the discrepancies verification found
and no one has resolved yet, one sentence per venue and day with a link to the discrepancies page, for
those who resolve them (the casino manager, the compliance officer). One query, however many wait."""

from __future__ import annotations

from django.db.models import Count
from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from compliance.queues import QueueItem, WorkQueue

from .models import Discrepancy


def open_discrepancies(user) -> list[QueueItem]:
    groups = (Discrepancy.objects.filter(resolved_at__isnull=True).values("venue_id", "venue__name", "day")
              .annotate(n=Count("pk")).order_by("-day", "venue__name"))
    page = reverse("casino:discrepancies")
    return [QueueItem(text=ngettext("%(n)s open discrepancy at %(venue)s on %(day)s",
                                    "%(n)s open discrepancies at %(venue)s on %(day)s", g["n"]) % {
                          "n": g["n"], "venue": g["venue__name"], "day": formats.date_format(g["day"], "SHORT_DATE_FORMAT")},
                      url=page, key=f"discrepancies-{g['venue_id']}-{g['day'].isoformat()}")
            for g in groups]


QUEUES = [
    WorkQueue(key="casino.discrepancies", title=_("Discrepancies to resolve"), permission="casino.resolve_discrepancy",
              items=open_discrepancies, nav="casino:discrepancies"),
]
