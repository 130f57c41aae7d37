"""Jackpots and side games of the casino (issue 19 item 3; 000-casino §2.3, §2.6; docs/casino-operations.md,
"Jackpots"): the services that create, change and remove a jackpot, post its gaming days to the
liability ledger, check that the ledger balances, and the four-eyes kind of a large jackpot win.

Every write takes `actor=`, runs in one transaction with its audit event and locks the jackpot rows it
writes (in primary-key order). What verified rounds owe a jackpot or win from it is recorded by the
verification job (`casino.jackpot_accrual`); the end of the gaming day posts it here
(`jackpot_post_day`, the beat job `casino.tasks.post_jackpot_days`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Min
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino.rules import jackpot_ledger as ledger_rules
from casino.rules.venues import LEGAL
from compliance.approvals import FourEyesError, approval_request, approval_void, register_approval_handler
from compliance.audit import audit_record
from compliance.errors import InvalidInput, StateConflict, lazy_format
from compliance.models import Approval
from compliance.money import format_cents
from compliance.words import Fact, Subject

from .models import (
    Discrepancy,
    Jackpot,
    JackpotAccrual,
    JackpotDay,
    JackpotEntry,
    JackpotVersion,
    RecordedRound,
    RoundBatch,
    Venue,
)

ACTOR = "system:jackpot_posting"
#: The four-eyes kind of a large jackpot win (compliance.approvals).
WIN_KIND = "casino.jackpot_win"
E = JackpotEntry.Kind

# A jackpot win at or above this needs a second person before its day is posted. Per venue type,
# because the legal win cap differs by two orders of magnitude (000-casino §2.3): a game hall's
# whole round is capped at 100,000 €, so a tenth of it; a casino's at 5,000,000 €, so the lottery's
# own large-win threshold (LOTTERY_LARGE_WIN_CENTS, 100,000 €). CASINO_JACKPOT_LARGE_WIN_CENTS
# (venue type -> cents) overrides it.
LARGE_WIN_CENTS = {
    Venue.Kind.GAME_HALL: 1_000_000,
    Venue.Kind.GAMING_POINT: 1_000_000,
    Venue.Kind.CASINO: 10_000_000,
    Venue.Kind.FOREIGN_CASINO: 10_000_000,
}
# A gaming day is posted from this hour of the next day (operator's zone): after the venues close
# (Casino Helsinki at 04:00) and their table systems have sent the day's rounds.
POSTING_HOUR = 6


def large_win_cents(venue_kind: str) -> int:
    overrides = getattr(settings, "CASINO_JACKPOT_LARGE_WIN_CENTS", {}) or {}
    return int(overrides.get(venue_kind, LARGE_WIN_CENTS.get(venue_kind, 10_000_000)))


def posting_hour() -> int:
    return int(getattr(settings, "CASINO_JACKPOT_POSTING_HOUR", POSTING_HOUR))


def _name(actor) -> str:
    return actor if isinstance(actor, str) else actor.get_username()


def _today() -> dt.date:
    return timezone.localdate()


# ------------------------------------------------------------------------------------------- terms

#: The terms of a version (the keyword arguments of jackpot_create and jackpot_version_create).
TERMS = ("name", "kind", "bet_type", "participation_fee_cents", "contribution_rate", "seed_cents", "reset_cents",
         "max_cents", "overflow", "overflow_to", "max_win_cents", "instructions", "tables", "note")


def _rate(value: Any) -> Decimal | None:
    try:
        rate = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
    if not rate.is_finite() or rate < 0 or rate > 1 or rate != rate.quantize(Decimal("0.000001")):
        return None
    return rate


def _check_terms(venue: Venue, terms: Mapping[str, Any], jackpot: Jackpot | None = None) -> dict[str, Any]:
    """The terms checked and completed; every refusal beside its field (the form's field names)."""
    t = {k: terms.get(k) for k in TERMS}
    errors: dict[str, list] = {}

    def bad(field: str, message) -> None:
        errors.setdefault(field, []).append(message)

    t["name"] = (t["name"] or "").strip()
    if not t["name"]:
        bad("name", _("Give the jackpot a name."))
    if t["kind"] not in JackpotVersion.Kind.values:
        bad("kind", _("Choose fixed, odds-based or progressive."))
    t["bet_type"] = (t["bet_type"] or "").strip()
    if not t["bet_type"] or len(t["bet_type"]) > 40 or not t["bet_type"].replace("_", "").isalnum():
        bad("bet_type", _("The bet type as the table system writes it, such as progressive."))
    fee = t["participation_fee_cents"]
    if fee is not None and fee <= 0:
        bad("participation_fee", _("A set participation fee is positive; leave it empty for none."))
    rate = _rate(t["contribution_rate"])
    if rate is None:
        bad("contribution_rate", _("A share from 0 to 100 % with at most four decimals."))
    t["contribution_rate"] = rate
    for key, field in (("seed_cents", "seed"), ("reset_cents", "reset")):
        if t[key] is None or t[key] < 0:
            bad(field, _("An amount of 0 or more."))
    top = t["max_cents"]
    if top is not None and t["seed_cents"] is not None and t["reset_cents"] is not None and (
            top < t["seed_cents"] or top < t["reset_cents"]):
        bad("maximum", _("The maximum is at least the seed and the reset amount."))
    t["overflow"] = t["overflow"] or JackpotVersion.Overflow.HELD
    target = t["overflow_to"]
    if t["overflow"] == JackpotVersion.Overflow.NEXT_POT:
        if target is None:
            bad("overflow_to", _("Name the next pot that takes what goes above the maximum."))
        elif (jackpot is not None and target.pk == jackpot.pk) or target.state != Jackpot.State.ACTIVE:
            bad("overflow_to", _("Another jackpot that is in play."))
        elif target.venue.currency != venue.currency:
            bad("overflow_to", _("A jackpot in the same currency."))
    elif t["overflow"] == JackpotVersion.Overflow.HELD:
        t["overflow_to"] = None
    else:
        bad("overflow", _("Choose where what goes above the maximum goes."))
    cap = LEGAL[(venue.rulebook, venue.frame)].win_cap
    if t["max_win_cents"] is None or t["max_win_cents"] <= 0:
        bad("max_win", _("The maximum permitted win is positive (000-casino §2.6)."))
    elif cap is not None and t["max_win_cents"] > int(cap * 100):
        bad("max_win", lazy_format(_("At most the venue's win cap %(cap)s, which includes the jackpot (%(rule)s)."),
                                   cap=format_cents(int(cap * 100)), rule=LEGAL[(venue.rulebook, venue.frame)].rule))
    t["instructions"] = (t["instructions"] or "").strip()
    if not t["instructions"]:
        bad("instructions", _("The participation, the ways of winning, the accumulation and the maximum win, as "
                              "shown at the table (000-casino §2.6)."))
    tables = list(t["tables"] or [])
    if not tables:
        bad("tables", _("Link the jackpot to at least one table."))
    others = [tb for tb in tables if tb.venue_id != venue.pk]
    if others:
        bad("tables", _("Tables of this venue only."))
    taken = _tables_in_other_jackpots([tb.pk for tb in tables], jackpot)
    if taken:
        bad("tables", lazy_format(_("Already linked to another jackpot in play: %(tables)s."),
                                  tables=", ".join(sorted(taken))))
    t["tables"] = tables
    t["note"] = (t["note"] or "")[:255]
    if errors:
        raise InvalidInput(_("The jackpot's terms are not complete: see the messages beside the fields."),
                           fields=errors, code="jackpot_terms")
    return t


def _tables_in_other_jackpots(table_ids: list[int], jackpot: Jackpot | None) -> set[str]:
    """The tables (as venue/code) linked to another jackpot in play by its latest version."""
    if not table_ids:
        return set()
    taken: set[str] = set()
    others = Jackpot.objects.filter(state=Jackpot.State.ACTIVE)
    if jackpot is not None:
        others = others.exclude(pk=jackpot.pk)
    for other in others.prefetch_related("versions__tables"):
        latest = max(other.versions.all(), key=lambda v: v.version, default=None)
        if latest is not None:
            taken.update(str(tb) for tb in latest.tables.all() if tb.pk in table_ids)
    return taken


def version_audit(v: JackpotVersion) -> dict[str, Any]:
    return {"version": v.version, "effective_from": v.effective_from.isoformat(), "name": v.name, "kind": v.kind,
            "bet_type": v.bet_type, "participation_fee_cents": v.participation_fee_cents,
            "contribution_rate": str(v.contribution_rate), "seed_cents": v.seed_cents, "reset_cents": v.reset_cents,
            "max_cents": v.max_cents, "overflow": v.overflow, "overflow_to": v.overflow_to_id,
            "max_win_cents": v.max_win_cents, "instructions": v.instructions,
            "tables": sorted(str(tb) for tb in v.tables.all()), "note": v.note}


def _new_version(jackpot: Jackpot, number: int, effective_from: dt.datetime, t: dict, actor) -> JackpotVersion:
    tables = t.pop("tables")
    version = JackpotVersion.objects.create(jackpot=jackpot, version=number, effective_from=effective_from,
                                            created_by_name=_name(actor), **t)
    version.tables.set(tables)
    return version


# ------------------------------------------------------------------------------------ the ledger


class _Writer:
    """Lines written to one locked jackpot: its balance follows each line; saved at the end."""

    def __init__(self, jackpot: Jackpot, actor) -> None:
        self.jackpot = jackpot
        self.actor = _name(actor)
        self.entries: list[JackpotEntry] = []

    def write(self, kind: str, amount: int, held: int = 0, *, day: dt.date, **extra) -> JackpotEntry:
        j = self.jackpot
        pot, reserve = j.pot_cents + amount, j.held_cents + held
        if pot < 0 or reserve < 0:
            raise StateConflict(_("The jackpot's ledger would go below zero; nothing was written."))
        j.pot_cents, j.held_cents, j.last_seq = pot, reserve, j.last_seq + 1
        entry = JackpotEntry(jackpot=j, seq=j.last_seq, kind=kind, day=day, amount_cents=amount, held_cents=held,
                             pot_after_cents=pot, held_after_cents=reserve, created_by_name=self.actor, **extra)
        self.entries.append(entry)
        return entry

    def save(self, **fields: Any) -> list[JackpotEntry]:
        JackpotEntry.objects.bulk_create(self.entries)
        Jackpot.objects.filter(pk=self.jackpot.pk).update(pot_cents=self.jackpot.pot_cents,
                                                          held_cents=self.jackpot.held_cents,
                                                          last_seq=self.jackpot.last_seq, **fields)
        written, self.entries = self.entries, []
        return written


def _lock(ids: Iterable[int]) -> dict[int, Jackpot]:
    """The jackpot rows FOR UPDATE, in primary-key order (no deadlock between two writers)."""
    return {j.pk: j for j in Jackpot.objects.select_for_update(of=("self",)).select_related("venue")
            .filter(pk__in=set(ids)).order_by("pk")}


def _next_open_day(j: Jackpot, day: dt.date) -> dt.date:
    """The day a line written to `j` now belongs to: `day`, or its first day not posted yet."""
    if j.posted_through is not None and j.posted_through >= day:
        return j.posted_through + dt.timedelta(days=1)
    return day


def _transfer_out(writer: _Writer, day: dt.date, receivers: dict[int, _Writer]) -> int:
    """Empty a removed jackpot into its destination: another jackpot's pot, or the operator's
    unpaid-funds account (000-lottery RA I: a removed jackpot's contributions are not lost)."""
    j = writer.jackpot
    amount = j.balance_cents
    if amount <= 0:
        return 0
    writer.write(E.TRANSFER, -j.pot_cents, -j.held_cents, day=day, counterpart=j.removal_to,
                 destination=j.removal_destination, reason=JackpotEntry.Reason.REMOVAL)
    if j.removal_to_id is not None:
        receiver = receivers[j.removal_to_id]
        receiver.write(E.TRANSFER, amount, 0, day=_next_open_day(receiver.jackpot, day), counterpart=j,
                       reason=JackpotEntry.Reason.RECEIVED)
    return amount


# ------------------------------------------------------------------------------------ services


@transaction.atomic
def jackpot_create(*, actor, venue: Venue, code: str, effective_from: dt.datetime | None = None, request=None,
                   **terms: Any) -> Jackpot:
    """A jackpot of a venue with its first version; its seed is the ledger's first line, dated the day
    the jackpot takes effect (the first version may be dated back, as a rule version's may)."""
    code = (code or "").strip()
    if not code:
        raise InvalidInput(_("Give the jackpot a code."), fields={"code": [_("A short code, such as uth-progressive.")]})
    t = _check_terms(venue, terms)
    if Jackpot.objects.filter(venue=venue, code=code).exists():
        raise StateConflict(_("The venue has a jackpot with this code."), fields={"code": [_("This code is taken.")]})
    effective_from = effective_from or timezone.now()
    jackpot = Jackpot.objects.create(venue=venue, code=code, created_by_name=_name(actor))
    version = _new_version(jackpot, 1, effective_from, t, actor)
    writer = _Writer(jackpot, actor)
    if version.seed_cents:
        writer.write(E.SEED, version.seed_cents, day=timezone.localdate(effective_from))
    writer.save()
    audit_record(actor=actor, action="casino.jackpot_created", obj=jackpot, request=request, significant=True,
                 after={"venue": venue.pk, "code": code, **version_audit(version)})
    return jackpot


@transaction.atomic
def jackpot_version_create(*, actor, jackpot: Jackpot, effective_from: dt.datetime | None = None, request=None,
                           **terms: Any) -> JackpotVersion:
    """New terms in force from `effective_from` (now by default; never in the past, never before the
    version in force: rounds already played keep their terms). The seed of a later version is not
    paid in again; its reset amount and maximum apply from the next win and the next posting."""
    j = _lock([jackpot.pk])[jackpot.pk]
    if j.state != Jackpot.State.ACTIVE:
        raise StateConflict(_("A jackpot removed from play gets no new terms."))
    t = _check_terms(j.venue, terms, j)
    latest = j.versions.order_by("-version").first()
    now = timezone.now()
    effective_from = effective_from or now
    if effective_from < now - dt.timedelta(minutes=1) or effective_from <= latest.effective_from:
        raise StateConflict(_("New terms take effect now or later, after the terms in force."),
                            fields={"effective_from": [_("Now or later.")]})
    version = _new_version(j, latest.version + 1, effective_from, t, actor)
    audit_record(actor=actor, action="casino.jackpot_version_created", obj=j, request=request, significant=True,
                 before=version_audit(latest), after=version_audit(version))
    return version


@transaction.atomic
def jackpot_remove(*, actor, jackpot: Jackpot, destination: str, to: Jackpot | None = None, note: str = "",
                   request=None) -> Jackpot:
    """Remove a jackpot from play. Its balance (the pot and the held reserve) goes to a named
    destination in the same transaction: another jackpot in play, or the operator's unpaid-funds
    account; what rounds played before the removal still accrue is posted at the end of their day
    and sent the same way. Audited as a significant event."""
    note = (note or "").strip()
    errors: dict[str, list] = {}
    if destination not in Jackpot.Destination.values:
        errors["destination"] = [_("Choose where the balance goes.")]
    elif destination == Jackpot.Destination.JACKPOT:
        if to is None:
            errors["to"] = [_("Choose the jackpot that takes the balance.")]
        elif to.pk == jackpot.pk or to.state != Jackpot.State.ACTIVE:
            errors["to"] = [_("Another jackpot that is in play.")]
        elif to.venue.currency != jackpot.venue.currency:
            errors["to"] = [_("A jackpot in the same currency.")]
    if not note:
        errors["note"] = [_("Write why the jackpot is removed.")]
    if errors:
        raise InvalidInput(_("The jackpot was not removed: see the messages beside the fields."), fields=errors)
    to = to if destination == Jackpot.Destination.JACKPOT else None
    rows = _lock([jackpot.pk, *([to.pk] if to else [])])
    j = rows[jackpot.pk]
    if j.state != Jackpot.State.ACTIVE:
        raise StateConflict(_("This jackpot is already removed from play."))
    if to is not None and rows[to.pk].state != Jackpot.State.ACTIVE:
        raise StateConflict(_("The jackpot that was to take the balance is no longer in play."),
                            fields={"to": [_("Another jackpot that is in play.")]})
    j.state, j.removed_at, j.removed_by_name = Jackpot.State.REMOVED, timezone.now(), _name(actor)
    j.removal_destination, j.removal_to, j.removal_note = destination, (rows[to.pk] if to else None), note
    writer = _Writer(j, actor)
    receivers = {to.pk: _Writer(rows[to.pk], actor)} if to else {}
    before = j.balance_cents
    amount = _transfer_out(writer, _next_open_day(j, _today()), receivers)
    writer.save(state=j.state, removed_at=j.removed_at, removed_by_name=j.removed_by_name,
                removal_destination=destination, removal_to=j.removal_to, removal_note=note)
    for receiver in receivers.values():
        receiver.save()
    audit_record(actor=actor, action="casino.jackpot_removed", obj=j, request=request, significant=True,
                 before={"state": Jackpot.State.ACTIVE, "balance_cents": before},
                 after={"state": j.state, "balance_cents": j.balance_cents},
                 data={"destination": destination, "removal_to": to.pk if to else None, "amount_cents": amount, "note": note})
    return j


# ------------------------------------------------------------------------------------ the posting


@dataclass
class Posting:
    day: dt.date
    posted: JackpotDay | None = None  # the posting (new or found)
    new: bool = False
    waiting: Any = ""  # why the day cannot be posted yet (a sentence)


def first_day(j: Jackpot) -> dt.date:
    """The jackpot's first gaming day: the day its first version took effect, or an earlier line's."""
    v1 = j.versions.order_by("version").values_list("effective_from", flat=True).first()
    start = timezone.localdate(v1) if v1 is not None else timezone.localdate(j.created_at)
    earliest = j.entries.aggregate(d=Min("day"))["d"]
    return min(start, earliest) if earliest else start


def next_day(j: Jackpot) -> dt.date:
    return j.posted_through + dt.timedelta(days=1) if j.posted_through else first_day(j)


def day_is_over(day: dt.date, now: dt.datetime | None = None) -> bool:
    """A gaming day may be posted from POSTING_HOUR of the next day (operator's zone)."""
    now = timezone.localtime(now or timezone.now())
    due = timezone.make_aware(dt.datetime.combine(day + dt.timedelta(days=1), dt.time(posting_hour())), now.tzinfo)
    return now >= due


def waiting_reason(j: Jackpot, day: dt.date) -> Any:
    """Why the day's posting waits: rounds of the venue on or before it not verified yet, or a large
    win of it not yet approved by a second person. "" when it may be posted."""
    open_batches = list(RoundBatch.objects.filter(state__in=[RoundBatch.State.PENDING, RoundBatch.State.VERIFYING])
                        .values_list("pk", flat=True))
    if open_batches and RecordedRound.objects.filter(batch_id__in=open_batches, venue_id=j.venue_id,
                                                     day__lte=day).exists():
        return _("rounds of the day are still being verified")
    if JackpotAccrual.objects.filter(jackpot=j, posting__isnull=True, superseded_at__isnull=True, day__lte=day,
                                     win_state=JackpotAccrual.WinState.HELD).exists():
        return _("a large win awaits a second person's approval")
    return ""


def _terms(v: JackpotVersion) -> ledger_rules.Terms:
    return ledger_rules.Terms(kind=v.kind, reset_cents=v.reset_cents, max_cents=v.max_cents, overflow=v.overflow,
                              next_pot=v.overflow_to_id)


@transaction.atomic
def jackpot_post_day(*, jackpot: Jackpot, day: dt.date, actor=ACTOR, now: dt.datetime | None = None) -> Posting:
    """Post one gaming day of a jackpot (casino.rules.jackpot_ledger): every accrual of a round of that
    day or earlier not posted yet, in the order played, as ledger lines; progressive pots shown
    compared with the ledger; a removed jackpot's remaining balance sent to its destination; the
    day's figures as a JackpotDay. Idempotent: a posted day is found, not posted again (the jackpot's
    row is locked, and the day is unique per jackpot). Days are posted in order."""
    candidates = {jackpot.pk, *JackpotVersion.objects.filter(jackpot_id=jackpot.pk, overflow_to__isnull=False)
                  .values_list("overflow_to_id", flat=True)}
    removal_to = Jackpot.objects.filter(pk=jackpot.pk).values_list("removal_to_id", flat=True).first()
    if removal_to:
        candidates.add(removal_to)
    rows = _lock(candidates)
    j = rows[jackpot.pk]
    found = JackpotDay.objects.filter(jackpot=j, day=day).first()
    if found is not None:
        return Posting(day, found)
    if not day_is_over(day, now):
        raise StateConflict(_("A gaming day is posted once it is over."))
    if day != next_day(j):
        raise StateConflict(_("The days of a jackpot are posted in order: next is %(day)s."), day=next_day(j).isoformat())
    waiting = waiting_reason(j, day)
    if waiting:
        return Posting(day, waiting=waiting)
    accruals = list(JackpotAccrual.objects.filter(jackpot=j, posting__isnull=True, superseded_at__isnull=True,
                                                  day__lte=day).select_related("version")
                    .order_by("played_at", "round_id", "bet_index", "pk"))
    plan = ledger_rules.plan_posting(j.pot_cents, j.held_cents, [
        ledger_rules.Accrual(key=a.pk, round=a.round_id, terms=_terms(a.version), contribution_cents=a.contribution_cents,
                             win_cents=a.win_cents, pot_shown_cents=a.pot_shown_cents,
                             compare=a.day == day and a.reverses_id is None)
        for a in accruals], open_pots=frozenset(pk for pk, row in rows.items() if row.state == Jackpot.State.ACTIVE))
    by_pk = {a.pk: a for a in accruals}
    writer = _Writer(j, actor)
    receivers = {pk: _Writer(row, actor) for pk, row in rows.items() if pk != j.pk}
    for line in plan.lines:
        writer.write(line.kind, line.amount_cents, line.held_cents, day=day,
                     accrual=by_pk.get(line.accrual) if line.kind == E.WIN else None,
                     counterpart=rows.get(line.counterpart), reason=line.reason)
    for target, amount in plan.sent:
        receiver = receivers[target]
        receiver.write(E.OVERFLOW, amount, 0, day=_next_open_day(receiver.jackpot, day), counterpart=j,
                       reason=JackpotEntry.Reason.RECEIVED)
    if j.state == Jackpot.State.REMOVED:
        _transfer_out(writer, day, receivers)
    before = list(JackpotEntry.objects.filter(jackpot=j, day=day))  # lines of the day written at once (seed, transfers)
    figures = ledger_rules.totals([*before, *writer.entries])
    previous = JackpotDay.objects.filter(jackpot=j, day__lt=day).order_by("-day").first()
    opening = previous.closing_cents if previous else 0
    closing = (opening + figures["funded"] + figures["contributions"] - figures["wins"]
               + figures["transfers"])
    posted = JackpotDay.objects.create(
        jackpot=j, day=day, opening_cents=opening, funded_cents=figures["funded"],
        contributions_cents=figures["contributions"], wins_cents=figures["wins"], transfers_cents=figures["transfers"],
        closing_cents=closing, accruals=len(accruals), late=sum(1 for a in accruals if a.day < day),
        mismatches=len(plan.mismatches), posted_by_name=_name(actor))
    for entry in writer.entries:
        entry.posting = posted
    writer.save(posted_through=day)
    for receiver in receivers.values():
        if receiver.entries:
            receiver.save()
    JackpotAccrual.objects.filter(pk__in=list(by_pk)).update(posting=posted)
    _mismatch_discrepancies(j, plan.mismatches, by_pk)
    audit_record(actor=actor, action="casino.jackpot_day_posted", obj=j, object_repr=f"{j} {day.isoformat()}",
                 data={"day": day.isoformat(), "opening_cents": opening, "funded_cents": figures["funded"],
                       "contributions_cents": figures["contributions"], "wins_cents": figures["wins"],
                       "transfers_cents": figures["transfers"], "closing_cents": closing, "accruals": len(accruals),
                       "mismatches": len(plan.mismatches)})
    return Posting(day, posted, new=True)


#: What verification stores about a jackpot finding (English, like the audit record; shown in the
#: reader's language by casino.messages, whose patterns match these).
MISMATCH = "jackpot {jackpot}: the pot shown {shown} differs from the ledger's {ledger}"


def _mismatch_discrepancies(j: Jackpot, mismatches, by_pk: dict[int, JackpotAccrual]) -> None:
    found = [Discrepancy(round_id=m.round, venue_id=j.venue_id, day=by_pk[m.accrual].day, kind=Discrepancy.Kind.JACKPOT,
                         bet_index=by_pk[m.accrual].bet_index, amount_cents=None,
                         detail=MISMATCH.format(jackpot=j, shown=_plain(m.shown_cents), ledger=_plain(m.ledger_cents)))
             for m in mismatches]
    for d in Discrepancy.objects.bulk_create(found):
        audit_record(actor=ACTOR, action="casino.discrepancy_found", obj=d, significant=True,
                     object_repr=f"round {d.round_id}: {d.kind}",
                     data={"round": d.round_id, "venue": d.venue_id, "day": d.day.isoformat(), "kind": d.kind,
                           "bet": d.bet_index, "amount_cents": None, "detail": d.detail})


def _plain(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def post_due_days(*, actor=ACTOR, now: dt.datetime | None = None) -> dict[str, Any]:
    """The beat job's body: post every gaming day that is over, jackpot by jackpot and day by day, each
    day in its own transaction; a day that must wait stops its jackpot until the next run. A removed
    jackpot is posted until its removal day is, and again only when late rounds still accrue to it."""
    posted, waiting = 0, {}
    for j in Jackpot.objects.order_by("pk"):
        if j.state == Jackpot.State.REMOVED and j.posted_through is not None \
                and j.posted_through >= timezone.localdate(j.removed_at) \
                and not j.accruals.filter(posting__isnull=True, superseded_at__isnull=True).exists():
            continue
        day = next_day(j)
        while day_is_over(day, now):
            result = jackpot_post_day(jackpot=j, day=day, actor=actor, now=now)
            if result.waiting:
                waiting[str(j)] = f"{day.isoformat()}: {result.waiting}"
                break
            posted += result.new
            day += dt.timedelta(days=1)
    return {"posted": posted, "waiting": waiting}


# ------------------------------------------------------------------------------------ the check


def ledger_problems(jackpot: Jackpot) -> list[str]:
    """What is wrong with a jackpot's ledger ([] when it balances): each line's balance follows from
    the one before; the row's balance is the last line's; balance = funded + contributions - wins +
    transfers; each posted day opens with the day before's closing and sums its lines; what is not
    posted yet adds up to the balance too. In the reader's language."""
    problems: list[str] = []
    j = Jackpot.objects.get(pk=jackpot.pk)
    pot = held = 0
    figures = {"funded": 0, "contributions": 0, "wins": 0, "transfers": 0}
    by_day: dict[dt.date, list[JackpotEntry]] = {}
    for n, e in enumerate(j.entries.order_by("seq"), start=1):
        pot, held = pot + e.amount_cents, held + e.held_cents
        if e.seq != n:
            problems.append(gettext("Line %(n)s is numbered %(seq)s.") % {"n": n, "seq": e.seq})
        if (e.pot_after_cents, e.held_after_cents) != (pot, held) or pot < 0 or held < 0:
            problems.append(gettext("Line %(seq)s does not follow from the lines before it.") % {"seq": e.seq})
            pot, held = e.pot_after_cents, e.held_after_cents
        column = ledger_rules.column_of(e.kind)
        figures[column] += -e.net_cents if e.kind == E.WIN else e.net_cents
        by_day.setdefault(e.day, []).append(e)
    if (j.pot_cents, j.held_cents) != (pot, held) or j.last_seq != sum(len(v) for v in by_day.values()):
        problems.append(gettext("The jackpot's balance is not its ledger's last line."))
    if figures["funded"] + figures["contributions"] - figures["wins"] + figures["transfers"] != j.balance_cents:
        problems.append(gettext("Seed and resets plus contributions minus wins plus transfers is not the balance."))
    closing, expected_day = 0, None
    for posting in j.days.order_by("day"):
        if expected_day is not None and posting.day != expected_day:
            problems.append(gettext("No posting for %(day)s.") % {"day": expected_day.isoformat()})
        day_figures = ledger_rules.totals(by_day.get(posting.day, []))
        if posting.opening_cents != closing or day_figures != {
                "funded": posting.funded_cents, "contributions": posting.contributions_cents,
                "wins": posting.wins_cents, "transfers": posting.transfers_cents}:
            problems.append(gettext("The posting of %(day)s does not sum its lines.") % {"day": posting.day.isoformat()})
        closing, expected_day = posting.closing_cents, posting.day + dt.timedelta(days=1)
    later = sum(e.net_cents for day, lines in by_day.items() if j.posted_through is None or day > j.posted_through
                for e in lines)
    if closing + later != j.balance_cents:
        problems.append(gettext("The last posting's closing balance and the lines after it are not the balance."))
    return problems


# ------------------------------------------------------------------------------------ a large win


LARGE_WIN_TITLE = _("Large jackpot win to approve")
REFUSED_TO_RECORDER = _("You recorded this round: another person approves its jackpot win.")


def request_large_win(accrual: JackpotAccrual, *, actor, venue: Venue, round_ref: str, recorded_by: str):
    """Ask for a second person's approval of a large jackpot win (in the verification's transaction)."""
    return approval_request(
        actor=actor, kind=WIN_KIND, obj=accrual,
        payload={"jackpot": accrual.jackpot_id, "round": accrual.round_id, "bet": accrual.bet_index,
                 "amount_cents": accrual.win_cents, "venue": venue.pk, "recorded_by": recorded_by,
                 "threshold_cents": large_win_cents(venue.kind)},
        reason=f"Large jackpot win of {format_cents(accrual.win_cents, language='en')} in round {round_ref} "
               f"at {venue.name}")


def void_large_win(accrual: JackpotAccrual, *, actor, reason: str) -> None:
    """A correction replaced the round of a held win: its request no longer needs a decision."""
    pending = Approval.objects.filter(kind=WIN_KIND, state=Approval.State.REQUESTED,
                                      target_type=JackpotAccrual._meta.label_lower, target_id=str(accrual.pk))
    for approval in pending.order_by("pk"):
        approval_void(actor=actor, approval=approval, reason=reason)


def _win_approved(approval: Approval, *, approver) -> None:
    """Handler of `casino.jackpot_win` (approved): the held win may be posted. Neither the requester
    (compliance.approvals) nor the person who recorded the round approves it, an administrator included."""
    accrual = (JackpotAccrual.objects.select_for_update(of=("self",)).select_related("round__batch", "jackpot")
               .get(pk=approval.target_id))
    if accrual.win_state != JackpotAccrual.WinState.HELD or accrual.superseded_at is not None:
        raise StateConflict(_("This jackpot win is not held for approval."))
    rnd = accrual.round
    if rnd.recorded_by_name == approver.get_username() or rnd.batch.created_by_id == approver.pk:
        raise FourEyesError(REFUSED_TO_RECORDER)
    JackpotAccrual.objects.filter(pk=accrual.pk).update(win_state=JackpotAccrual.WinState.APPROVED,
                                                        approved_by=approver, approved_at=approval.decided_at)
    audit_record(actor=approval.requester or ACTOR, approver=approver, action="casino.jackpot_win_approved",
                 obj=accrual.jackpot, significant=True,
                 data={"round": rnd.pk, "bet": accrual.bet_index, "amount_cents": accrual.win_cents,
                       "approval": approval.pk})


def _approval_accrual(approval: Approval) -> JackpotAccrual | None:
    return (JackpotAccrual.objects.select_related("jackpot__venue", "round__table").filter(pk=approval.target_id)
            .first())


def win_link(approval: Approval) -> str:
    jackpot = (approval.payload or {}).get("jackpot")
    return reverse("casino:jackpot", args=[int(jackpot)]) if jackpot else ""


def describe_large_win(approval: Approval) -> Subject:
    """What a large-win request is about, in words: the jackpot, the amount, the round and who recorded it."""
    p = approval.payload or {}
    accrual = _approval_accrual(approval)
    amount = format_cents(int(p.get("amount_cents") or 0))
    if accrual is None:
        return Subject(title=approval.target_repr, facts=[Fact(_("Amount"), amount)])
    j = accrual.jackpot
    name = jackpot_name(j)
    facts = [Fact(_("Amount"), amount), Fact(_("Venue"), j.venue.name),
             Fact(_("Round"), f"{accrual.round.table} {accrual.round.ref}",
                  url=reverse("casino:round", args=[accrual.round_id])),
             Fact(_("Recorded by"), accrual.round.recorded_by_name),
             Fact(_("Large-win threshold"), format_cents(int(p.get("threshold_cents") or 0))),
             Fact(_("State"), str(accrual.get_win_state_display()))]
    return Subject(title=name, url=reverse("casino:jackpot", args=[j.pk]), facts=facts,
                   reason=gettext("Large win from %(jackpot)s: %(amount)s") % {"jackpot": name, "amount": amount})


def jackpot_name(j: Jackpot) -> str:
    """The jackpot's name in its latest version, "Casino Helsinki: UTH Progressive"."""
    latest = j.versions.order_by("-version").values_list("name", flat=True).first() or j.code
    return f"{j.venue.name}: {latest}"


def win_phrases(approvals: list[Approval]) -> dict[int, str]:
    """How the dashboard says the pending large-win requests (one query for the whole list)."""
    ids = {int((a.payload or {}).get("jackpot") or 0) for a in approvals}
    jackpots = {j.pk: j for j in Jackpot.objects.filter(pk__in=ids).select_related("venue")
                .prefetch_related("versions")}
    out = {}
    for a in approvals:
        j = jackpots.get(int((a.payload or {}).get("jackpot") or 0))
        if j is None:
            continue
        latest = max(j.versions.all(), key=lambda v: v.version)
        out[a.pk] = gettext("A large jackpot win of %(amount)s from %(jackpot)s awaits approval") % {
            "amount": format_cents(int(a.payload.get("amount_cents") or 0)), "jackpot": f"{j.venue.name}: {latest.name}"}
    return out


register_approval_handler(
    WIN_KIND, _win_approved, permission="casino.approve_jackpot_win", link=win_link, title=LARGE_WIN_TITLE,
    describe=describe_large_win,
    rejection_refused=_("A large jackpot win is not rejected: it stays held until a second person approves it or a "
                        "correction of the round replaces it."))

