"""Reads of disputes and complaints shared by their pages, the work queue and the reports (issue 19
items 4 and 5)."""

from __future__ import annotations

import datetime as dt

from django.db.models import Case, DateField, F, QuerySet, When
from django.db.models.functions import Coalesce
from django.utils.translation import pgettext_lazy

from players.models import Person

from .models import Complaint, Dispute

# The state of one deadline (an answer's, a payment's) on a day.
MET, MISSED, OVERDUE, DUE_TODAY, OPEN = "met", "missed", "overdue", "due_today", "open"
DEADLINE_WORDS = {
    MET: pgettext_lazy("deadline", "met"),
    MISSED: pgettext_lazy("deadline", "missed: done late"),
    OVERDUE: pgettext_lazy("deadline", "overdue"),
    DUE_TODAY: pgettext_lazy("deadline", "due today"),
    OPEN: pgettext_lazy("deadline", "open"),
}


def deadline_state(due: dt.date | None, done_on: dt.date | None, today: dt.date) -> str:
    """met / missed (done after the due date) / overdue / due_today / open; '' without a deadline."""
    if due is None:
        return ""
    if done_on is not None:
        return MET if done_on <= due else MISSED
    if today > due:
        return OVERDUE
    return DUE_TODAY if today == due else OPEN


def disputes_filtered(*, venue: int | None = None, day: dt.date | None = None) -> QuerySet[Dispute]:
    """Disputes newest first, per venue and day (the index (venue, day)); each with what amends it."""
    qs = Dispute.objects.all()
    if venue:
        qs = qs.filter(venue_id=venue)
    if day:
        qs = qs.filter(day=day)
    return (qs.select_related("venue", "table", "round").prefetch_related("amendments")
            .order_by("-occurred_at", "-id"))


def people_of(disputes) -> dict[int, Person]:
    """The identified players named in these disputes, in one query."""
    ids = {p["person"] for d in disputes for p in d.players if p.get("person")}
    return Person.objects.in_bulk(ids) if ids else {}


def parties_text(dispute: Dispute, people: dict[int, Person]) -> list[str]:
    """The players as staff read them: 'Aino Virtanen (12)' or the description."""
    out = []
    for party in dispute.players:
        person = people.get(party.get("person")) if party.get("person") else None
        if person is not None:
            out.append(f"{person.first_name} {person.last_name} ({person.pk})")
        elif party.get("person"):
            out.append(str(party["person"]))
        else:
            out.append(party.get("description", ""))
    return out


def next_due_expression():
    """The complaint's next open deadline: the answer's last day until answered, then the payment's
    until paid; null when nothing is open."""
    return Case(
        When(answered_on__isnull=True, then=Coalesce(F("extended_answer_due"), F("answer_due"))),
        When(winnings_cents__isnull=False, paid_on__isnull=True, then=F("payment_due")),
        default=None, output_field=DateField())


def complaints_listed(*, venue: int | None = None, open_only: bool = True) -> QuerySet[Complaint]:
    """Complaints by their next deadline, the nearest (or most overdue) first; then those with none
    open, newest first."""
    qs = Complaint.objects.annotate(next_due=next_due_expression())
    if venue:
        qs = qs.filter(venue_id=venue)
    if open_only:
        qs = qs.filter(next_due__isnull=False)
    return qs.select_related("venue", "person").order_by(F("next_due").asc(nulls_last=True), "-received_on", "-id")


def complaints_due(until: dt.date) -> QuerySet[Complaint]:
    """Complaints with an open deadline on or before `until` (overdue ones included): the work queue."""
    return (Complaint.objects.annotate(next_due=next_due_expression())
            .filter(next_due__isnull=False, next_due__lte=until)
            .select_related("venue", "person").order_by("next_due", "id"))


def complaint_deadlines(c: Complaint, today: dt.date) -> dict:
    """The answer's and the payment's deadline states of a complaint on `today` (pages)."""
    return {"answer": deadline_state(c.due_on, c.answered_on, today),
            "payment": deadline_state(c.payment_due, c.paid_on, today) if c.winnings_cents is not None else ""}


def deadline_words(state: str):
    return DEADLINE_WORDS.get(state, state)

