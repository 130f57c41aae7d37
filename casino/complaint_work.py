"""The work queue "Complaints due or overdue" (compliance.queues, issue 18 item 3; issue 19 item 4): every
complaint deadline (an answer, a payment of winnings) that has passed or falls within the next
`DUE_SOON_DAYS` days, one sentence each with a link to the complaint, for those who handle complaints
(`casino.handle_complaint`: the Casino manager), counted beside Complaints in the navigation. One
query, however many wait."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from compliance.money import format_cents
from compliance.queues import QueueItem, WorkQueue

from .dispute_selectors import complaints_due

#: A deadline this many days ahead (or nearer) is listed; further ones wait on the complaints page.
DUE_SOON_DAYS = 3


def _day(day: dt.date) -> str:
    return formats.date_format(day, "SHORT_DATE_FORMAT")


def complaint_deadlines(user) -> list[QueueItem]:
    today = timezone.localdate()
    items = []
    for c in complaints_due(today + dt.timedelta(days=DUE_SOON_DAYS)):
        params = {"n": c.pk, "venue": c.venue.name, "player": c.player, "date": _day(c.next_due)}
        if c.answered_on is None:
            text = (gettext("Complaint %(n)s at %(venue)s (%(player)s): the answer was due on %(date)s and is overdue")
                    if c.next_due < today else
                    gettext("Complaint %(n)s at %(venue)s (%(player)s): the answer is due on %(date)s"))
        else:
            params["amount"] = format_cents(c.winnings_cents)
            text = (gettext("Complaint %(n)s at %(venue)s (%(player)s): the winnings of %(amount)s were due to be "
                            "paid on %(date)s and are overdue")
                    if c.next_due < today else
                    gettext("Complaint %(n)s at %(venue)s (%(player)s): the winnings of %(amount)s are to be paid "
                            "by %(date)s"))
        items.append(QueueItem(text=text % params, url=reverse("casino:complaint", args=[c.pk]),
                               key=f"complaint-{c.pk}-{'answer' if c.answered_on is None else 'payment'}"))
    return items


QUEUES = [
    WorkQueue(key="casino.complaints", title=_("Complaints due or overdue"), permission="casino.handle_complaint",
              items=complaint_deadlines, nav="casino:complaints"),
]
