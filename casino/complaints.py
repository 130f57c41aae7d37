"""Players' complaints and their deadlines (issue 19 item 4; 004 S2 §2.15, §2.16.4).

The deadlines are the pure engine's (`casino.rules.complaints`, the `casino_compute` kind `complaint`),
counted in the working days of the venue's country (`Venue.jurisdiction`, the `holidays` library's
calendar): the answer 10 working days from the next working day, one extension of 10 more when the
player is notified by the original due date, and winnings found payable paid within 30 calendar days of
the player's request. Each complaint keeps the engine's input and answer with the dates they gave.

Every write takes `actor=`, runs in one transaction with its audit event, and changes the row by a
conditional update (never an in-place edit): `complaint_record`, `complaint_extend` (once; a second is
refused), `complaint_answer`, `complaint_mark_paid`, and the periodic job's `complaints_mark_overdue`,
which marks each deadline that passed unmet once, with a significant audit event.
docs/casino-operations.md, "Complaints".
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.rules import complaints as engine
from casino.rules.base import EngineError
from compliance.audit import audit_record
from compliance.errors import InvalidInput, StateConflict
from compliance.money import format_cents
from players.models import Person

from .models import Complaint, Dispute, RecordedRound, Venue

ACTOR = "system:complaint_deadlines"
MAX_TEXT = 4000
#: Winnings above this are refused as a typing error (a billion euros).
MAX_WINNINGS_CENTS = 100_000_000_000


def _name(actor) -> str:
    return actor if isinstance(actor, str) else actor.get_username()


def _user(actor):
    return None if isinstance(actor, str) else actor


def deadlines(*, received_on: dt.date, channel: str, country: str, extension_notified_on: dt.date | None = None,
              payout_requested_on: dt.date | None = None) -> tuple[dict, dict]:
    """(engine input, engine answer) for a complaint: the document `casino_compute` reads and its answer."""
    doc: dict[str, Any] = {"kind": "complaint", "received": received_on.isoformat(), "channel": channel,
                           "country": country}
    if extension_notified_on is not None:
        doc["extension_notified_on"] = extension_notified_on.isoformat()
    if payout_requested_on is not None:
        doc["payout_requested"] = payout_requested_on.isoformat()
    return doc, engine.complaint(doc)


def _date(answer: dict, key: str) -> dt.date | None:
    value = answer.get(key)
    return dt.date.fromisoformat(value) if value else None


def _check_day(day: dt.date | None, field: str, fields: dict, *, not_before: dt.date | None = None,
               before_message: Any = None) -> None:
    if day is None:
        fields.setdefault(field, []).append(_("Give the date."))
    elif day > timezone.localdate():
        fields.setdefault(field, []).append(_("The date is in the future."))
    elif day.year < engine.FIRST_YEAR:
        fields.setdefault(field, []).append(_("A date from %(year)s on.") % {"year": engine.FIRST_YEAR})
    elif not_before is not None and day < not_before:
        fields.setdefault(field, []).append(before_message)


def _check_winnings(cents: int | None, fields: dict) -> None:
    if cents is not None and not 0 < cents <= MAX_WINNINGS_CENTS:
        fields.setdefault("winnings", []).append(
            _("An amount above zero, at most %(max)s.") % {"max": format_cents(MAX_WINNINGS_CENTS)})


def find_round(venue: Venue, text: str, fields: dict) -> RecordedRound | None:
    """A recorded round of the venue by its reference, or `table/reference` when several tables use it."""
    text = (text or "").strip()
    if not text:
        return None
    qs = RecordedRound.objects.filter(venue=venue)
    if "/" in text:
        table, ref = text.split("/", 1)
        qs = qs.filter(table__code=table.strip(), ref=ref.strip())
    else:
        qs = qs.filter(ref=text)
    found = list(qs.select_related("table")[:2])
    if not found:
        fields["round"] = [_("No round of %(venue)s has this reference.") % {"venue": venue.name}]
    elif len(found) > 1:
        fields["round"] = [_("Several tables have a round with this reference: write table/reference.")]
    else:
        return found[0]
    return None


@transaction.atomic
def complaint_record(*, actor, venue: Venue, received_on: dt.date, channel: str, subject: str,
                     person: Person | None = None, player_name: str = "", round: RecordedRound | None = None,
                     round_ref: str = "", dispute: Dispute | int | None = None, winnings_cents: int | None = None,
                     payout_requested_on: dt.date | None = None, request=None) -> Complaint:
    """A complaint received at `venue` (identified `person`, or `player_name`), with its deadlines from
    the engine in the venue's working days. `winnings_cents`: winnings already found payable (an unpaid
    win), paid within 30 days of `payout_requested_on` (default: the day received)."""
    fields: dict[str, list] = {}
    player_name = (player_name or "").strip()[:200]
    if person is None and not player_name:
        fields["player_name"] = [_("Give an identified player's id, or the player's name.")]
    if channel not in Complaint.Channel.values:
        fields["channel"] = [_("Choose how the complaint was received.")]
    _check_day(received_on, "received_on", fields)
    subject = (subject or "").strip()
    if not subject:
        fields["subject"] = [_("Write what the complaint is about.")]
    elif len(subject) > MAX_TEXT:
        fields["subject"] = [_("At most %(n)s characters.") % {"n": MAX_TEXT}]
    if round is None and round_ref:
        round = find_round(venue, round_ref, fields)
    if round is not None and round.venue_id != venue.pk:
        fields["round"] = [_("The round was played at another venue.")]
    if isinstance(dispute, int):
        found = Dispute.objects.filter(pk=dispute).first()
        if found is None:
            fields["dispute"] = [_("No dispute has the number %(n)s.") % {"n": dispute}]
        dispute = found
    if dispute is not None and dispute.venue_id != venue.pk:
        fields["dispute"] = [_("The dispute was at another venue.")]
    _check_winnings(winnings_cents, fields)
    if winnings_cents is not None:
        payout_requested_on = payout_requested_on or received_on
        _check_day(payout_requested_on, "payout_requested_on", fields)
    elif payout_requested_on is not None:
        fields["winnings"] = [_("Give the winnings payable, or leave the request date empty.")]
    if fields:
        raise InvalidInput(_("The complaint was not recorded: see the messages beside the fields."), fields=fields)
    try:
        doc, answer = deadlines(received_on=received_on, channel=channel, country=venue.jurisdiction,
                                payout_requested_on=payout_requested_on if winnings_cents is not None else None)
    except EngineError as exc:
        if exc.field == "country":
            raise InvalidInput(_("The working days of %(country)s are not known: the venue's jurisdiction must be a "
                                 "country code such as FI or UA."), fields={"venue": [_("No calendar of working days.")]},
                               country=venue.jurisdiction) from None
        raise
    complaint = Complaint.objects.create(
        venue=venue, person=person, player_name=player_name if person is None else "", channel=channel,
        received_on=received_on, subject=subject, round=round, dispute=dispute, country=venue.jurisdiction,
        deadline_input=doc, deadline_answer=answer, answer_due=_date(answer, "answer_due"),
        winnings_cents=winnings_cents, winnings_recorded_at=timezone.now() if winnings_cents is not None else None,
        payout_requested_on=payout_requested_on if winnings_cents is not None else None,
        payment_due=_date(answer, "payment_due"), recorded_by=_user(actor), recorded_by_name=_name(actor))
    audit_record(actor=actor, action="casino.complaint_recorded", obj=complaint, request=request,
                 after={"venue": venue.pk, "person": person.pk if person else None, "player_name": complaint.player_name,
                        "channel": channel, "received_on": received_on.isoformat(), "subject": subject,
                        "round": round.pk if round else None, "dispute": dispute.pk if dispute else None,
                        "winnings_cents": winnings_cents, "deadline_input": doc, "answer_due": answer["answer_due"],
                        "payment_due": answer.get("payment_due")})
    return complaint


def _locked(complaint: Complaint) -> Complaint:
    return Complaint.objects.select_for_update().select_related("venue").get(pk=complaint.pk)


def _recompute(c: Complaint, *, extension_notified_on=None, payout_requested_on=None) -> tuple[dict, dict]:
    return deadlines(received_on=c.received_on, channel=c.channel, country=c.country,
                     extension_notified_on=extension_notified_on or c.extension_notified_on,
                     payout_requested_on=payout_requested_on or c.payout_requested_on)


@transaction.atomic
def complaint_extend(*, actor, complaint: Complaint, notified_on: dt.date, request=None) -> Complaint:
    """Extend the answer's deadline by 10 working days (004 S2 §2.16.4), once, when the player was
    notified by the original due date; refused once answered, a second time, or notified too late."""
    c = _locked(complaint)
    if c.answered_on is not None:
        raise StateConflict(_("Complaint %(n)s is answered: there is nothing to extend."), n=c.pk)
    if c.extension_notified_on is not None:
        raise StateConflict(
            _("Complaint %(n)s was already extended once (the player was notified on %(date)s; the answer is due on "
              "%(due)s): the rules allow one extension only (004 S2 §2.16.4)."),
            n=c.pk, date=c.extension_notified_on.isoformat(), due=c.extended_answer_due.isoformat(),
            code="extended_already")
    fields: dict[str, list] = {}
    _check_day(notified_on, "notified_on", fields, not_before=c.received_on,
               before_message=_("The player was notified before the complaint was received?"))
    if not fields and notified_on > c.answer_due:
        raise InvalidInput(
            _("The answer was due on %(due)s: the extension must be notified to the player by then (004 S2 §2.16.4, "
              "A30)."), fields={"notified_on": [_("At the latest on %(due)s.") % {"due": c.answer_due.isoformat()}]},
            due=c.answer_due.isoformat(), code="extension_too_late")
    if fields:
        raise InvalidInput(_("The extension was not recorded: see the messages beside the fields."), fields=fields)
    doc, answer = _recompute(c, extension_notified_on=notified_on)
    extended = _date(answer, "extended_answer_due")
    now = timezone.now()
    moved = Complaint.objects.filter(pk=c.pk, extension_notified_on__isnull=True, answered_on__isnull=True).update(
        extension_notified_on=notified_on, extended_answer_due=extended, extended_at=now,
        extended_by_name=_name(actor), deadline_input=doc, deadline_answer=answer)
    assert moved == 1  # the row is locked
    audit_record(actor=actor, action="casino.complaint_extended", obj=c, request=request,
                 before={"answer_due": c.answer_due.isoformat()},
                 after={"extension_notified_on": notified_on.isoformat(), "extended_answer_due": extended.isoformat(),
                        "deadline_input": doc})
    return Complaint.objects.get(pk=c.pk)


@transaction.atomic
def complaint_answer(*, actor, complaint: Complaint, answered_on: dt.date, text: str,
                     winnings_cents: int | None = None, payout_requested_on: dt.date | None = None,
                     request=None) -> Complaint:
    """Record the answer (its date, its text, who); with `winnings_cents` when the answer finds winnings
    payable, paid within 30 days of `payout_requested_on` (default: the day the complaint was received).
    An answer after the due date is recorded, and its audit event is significant (the deadline was missed)."""
    c = _locked(complaint)
    if c.answered_on is not None:
        raise StateConflict(_("Complaint %(n)s was already answered on %(date)s."), n=c.pk,
                            date=c.answered_on.isoformat())
    fields: dict[str, list] = {}
    _check_day(answered_on, "answered_on", fields, not_before=c.received_on,
               before_message=_("Not before the complaint was received (%(date)s).") % {"date": c.received_on.isoformat()})
    text = (text or "").strip()
    if not text:
        fields["text"] = [_("Write the answer given to the player.")]
    elif len(text) > MAX_TEXT:
        fields["text"] = [_("At most %(n)s characters.") % {"n": MAX_TEXT}]
    updates: dict[str, Any] = {}
    if winnings_cents is not None:
        if c.winnings_cents is not None:
            fields["winnings"] = [_("The winnings payable were recorded with the complaint (%(amount)s).") % {
                "amount": format_cents(c.winnings_cents)}]
        _check_winnings(winnings_cents, fields)
        payout_requested_on = payout_requested_on or c.received_on
        _check_day(payout_requested_on, "payout_requested_on", fields)
    elif payout_requested_on is not None:
        fields["winnings"] = [_("Give the winnings payable, or leave the request date empty.")]
    if fields:
        raise InvalidInput(_("The answer was not recorded: see the messages beside the fields."), fields=fields)
    if winnings_cents is not None:
        doc, answer = _recompute(c, payout_requested_on=payout_requested_on)
        updates.update(winnings_cents=winnings_cents, winnings_recorded_at=timezone.now(),
                       payout_requested_on=payout_requested_on,
                       payment_due=_date(answer, "payment_due"), deadline_input=doc, deadline_answer=answer)
    late = answered_on > c.due_on
    moved = Complaint.objects.filter(pk=c.pk, answered_on__isnull=True).update(
        answered_on=answered_on, answer_text=text, answered_at=timezone.now(), answered_by=_user(actor),
        answered_by_name=_name(actor), **updates)
    assert moved == 1
    audit_record(actor=actor, action="casino.complaint_answered", obj=c, request=request, significant=late,
                 after={"answered_on": answered_on.isoformat(), "answer_due": c.due_on.isoformat(), "late": late,
                        "text": text, "winnings_cents": winnings_cents,
                        "payment_due": updates["payment_due"].isoformat() if updates.get("payment_due") else None})
    return Complaint.objects.get(pk=c.pk)


@transaction.atomic
def complaint_mark_paid(*, actor, complaint: Complaint, paid_on: dt.date, reference: str = "",
                        request=None) -> Complaint:
    """Record that the winnings payable were paid (004 S2 §2.15: within 30 days of the player's
    request); a payment after the due date is recorded with a significant audit event."""
    c = _locked(complaint)
    if c.winnings_cents is None:
        raise StateConflict(_("Complaint %(n)s has no winnings payable."), n=c.pk)
    if c.paid_on is not None:
        raise StateConflict(_("The winnings of complaint %(n)s were already paid on %(date)s."), n=c.pk,
                            date=c.paid_on.isoformat())
    fields: dict[str, list] = {}
    _check_day(paid_on, "paid_on", fields, not_before=c.payout_requested_on,
               before_message=_("Not before the player asked for the payment (%(date)s).") % {
                   "date": c.payout_requested_on.isoformat()})
    reference = (reference or "").strip()
    if len(reference) > 100:
        fields["reference"] = [_("At most %(n)s characters.") % {"n": 100}]
    if fields:
        raise InvalidInput(_("The payment was not recorded: see the messages beside the fields."), fields=fields)
    late = paid_on > c.payment_due
    Complaint.objects.filter(pk=c.pk, paid_on__isnull=True).update(
        paid_on=paid_on, paid_reference=reference, paid_at=timezone.now(), paid_by_name=_name(actor))
    audit_record(actor=actor, action="casino.complaint_paid", obj=c, request=request, significant=late,
                 after={"paid_on": paid_on.isoformat(), "payment_due": c.payment_due.isoformat(), "late": late,
                        "winnings_cents": c.winnings_cents, "reference": reference})
    return Complaint.objects.get(pk=c.pk)


def answer_overdue(today: dt.date) -> Q:
    """Complaints whose answer is overdue on `today` (not answered, the last day to answer has passed)."""
    return Q(answered_on__isnull=True) & (Q(extended_answer_due__lt=today)
                                          | Q(extended_answer_due__isnull=True, answer_due__lt=today))


def payment_overdue(today: dt.date) -> Q:
    return Q(winnings_cents__isnull=False, paid_on__isnull=True, payment_due__lt=today)


def complaints_mark_overdue(*, actor: str = ACTOR, today: dt.date | None = None) -> dict[str, int]:
    """Mark every deadline that has passed unmet, once: the answer (not answered after its last day) and
    the payment (winnings not paid after theirs), each with a significant audit event, in one transaction
    per mark conditioned on the mark being unset. Safe to run any number of times (the beat runs it every
    hour): a second run marks nothing."""
    today = today or timezone.localdate()
    marked = {"answers": 0, "payments": 0}
    for key, flag, overdue, action in (
            ("answers", "answer_overdue_at", answer_overdue(today), "casino.complaint_answer_overdue"),
            ("payments", "payment_overdue_at", payment_overdue(today), "casino.complaint_payment_overdue")):
        ids = list(Complaint.objects.filter(overdue, **{f"{flag}__isnull": True}).order_by("pk")
                   .values_list("pk", flat=True))
        for pk in ids:
            with transaction.atomic():
                if not Complaint.objects.filter(Q(pk=pk) & overdue, **{f"{flag}__isnull": True}).update(
                        **{flag: timezone.now()}):
                    continue  # answered, paid or marked meanwhile
                c = Complaint.objects.select_related("venue").get(pk=pk)
                due = c.due_on if key == "answers" else c.payment_due
                audit_record(actor=actor, action=action, obj=c, significant=True,
                             object_repr=f"complaint {c.pk} at {c.venue.name}",
                             data={"venue": c.venue_id, "received_on": c.received_on.isoformat(),
                                   "due": due.isoformat(), "winnings_cents": c.winnings_cents if key == "payments" else None})
                marked[key] += 1
    return marked
