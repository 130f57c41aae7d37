"""Every write of the players app (docs/players.md).

Conventions:
- keyword-only arguments; `actor=` is a User or a string "system:<job>" / "channel:<name>";
- one transaction per call, with the audit event (where the change is audited) inside it;
- rows are locked in one order everywhere: Person -> Player -> GameAccount -> PlaySession
  (several rows of one table in primary-key order), so two services never deadlock;
- every money movement, registration and login first asks `compliance.screening.screen()` with the
  rows already locked. A refusal raises a `players.errors.PlayerError` AFTER the transaction, so the
  screening decision (and any reminder that fell due) is kept while nothing else has changed;
- ledger postings are idempotent: the same reference returns the original entry, a different
  kind or amount under that reference is a `reference_conflict`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from compliance import screening
from compliance.approvals import ApprovalRefused, approval_request, register_approval_handler
from compliance.audit import audit_record
from compliance.controls import register_control
from compliance.idcodes import IdentifierInvalid, finnish_id_birth_date, normalise_name
from compliance.identity import decrypt_identifier, encrypt_identifier, identifier_hash
from compliance.models import Approval, AuditEvent
from compliance.money import format_cents

from . import approval_words, rules
from .errors import Conflict, InvalidRequest, PlayerError, Refused
from .models import (
    RESERVED_CHANNEL_CODES,
    Channel,
    GameAccount,
    LedgerEntry,
    LimitKind,
    LimitPeriod,
    PendingPayout,
    Person,
    Player,
    PlayerLimit,
    PlaySession,
    SelfExclusion,
    SessionReminder,
)
from .selectors import active_self_exclusion, current_player_limit, person_search

Action = screening.Action
Kind = LedgerEntry.Kind

# The messages of the pure rules' refusals (players.rules raises codes; the words are translated here).
INTERVAL_REFUSALS = {
    "interval_before_first_reminder": _(
        "The reminder interval can be changed only after the first reminder has been shown."
    ),
    "interval_too_long": _("The reminder interval can only be shortened: at most 15 minutes."),
    "interval_too_short": _("The reminder interval must be at least one minute."),
}
IDENTIFIER_PROBLEMS = {
    "format": _("not a Finnish personal identity code (DDMMYYCZZZQ)"),
    "check_character": _("the check character of the identity code is wrong"),
    "date": _("the identity code does not encode a real date"),
}
CANNOT_SHORTEN = _(
    "The player is already excluded until %(until)s; a self-exclusion can be extended but not shortened."
)
CANNOT_SHORTEN_PERMANENT = _(
    "The player is already excluded permanently; a self-exclusion can be extended but not shortened."
)


def _actor_repr(actor: Any) -> str:
    if actor is None or actor == "":
        raise TypeError("actor= is required: a User, or 'system:<job>' / 'channel:<name>'")
    if isinstance(actor, str):
        return actor[:150]
    return actor.get_username()[:150]


def _user_or_none(actor: Any):
    return actor if isinstance(actor, AbstractBaseUser) else None


def _raise_if(error: PlayerError | None) -> None:
    if error is not None:
        raise error


# --- Registration and identity ---------------------------------------------------------------------


def player_register(
    *,
    actor,
    first_name: str,
    last_name: str,
    birth_date: dt.date,
    national_id: str,
    id_country: str = "FI",
    email: str = "",
    phone: str = "",
    street_address: str = "",
    postal_code: str = "",
    city: str = "",
    country_of_residence: str = "FI",
    jurisdiction: str | None = None,
    channel: Channel | None = None,
    now: dt.datetime | None = None,
    request=None,
) -> Player:
    """Register a person as a player with an empty game account, if screening allows it.

    `channel` is the registering channel (None: staff). The same channel registering the same person
    again gets its player back (`player.replayed`); another channel gets `registration_refused`, which
    says nothing about why (the person may be another channel's customer: that is not this channel's to
    know) and is a significant audit event, so a channel probing identifiers is seen (issue 14 item 4)."""
    who = _actor_repr(actor)
    now = now or timezone.now()
    jurisdiction = jurisdiction or settings.PLAYER_DEFAULT_JURISDICTION
    id_country = id_country.upper()
    if jurisdiction not in settings.PLAYER_MIN_AGE:
        raise InvalidRequest(
            "unknown_jurisdiction",
            _("Unknown jurisdiction %(jurisdiction)s."),
            params={"jurisdiction": jurisdiction},
            jurisdictions=sorted(settings.PLAYER_MIN_AGE),
        )
    if id_country == "FI":
        try:
            encoded = finnish_id_birth_date(national_id)
        except IdentifierInvalid as exc:
            raise InvalidRequest(
                "invalid_identifier", _("The national identifier is not valid: %(problem)s."),
                params={"problem": IDENTIFIER_PROBLEMS[exc.code]},
            ) from None
        if encoded != birth_date:
            raise InvalidRequest(
                "identifier_birth_date_mismatch", _("The identifier does not match the birth date.")
            )
    person = Person(
        first_name=first_name.strip(),
        last_name=last_name.strip(),
        name_normalised=normalise_name(first_name, last_name),
        birth_date=birth_date,
        national_id_hash=identifier_hash(national_id, id_country),
        national_id_encrypted=encrypt_identifier(national_id, id_country),
        id_country=id_country,
        email=email,
        phone=phone,
        street_address=street_address,
        postal_code=postal_code,
        city=city,
        country_of_residence=country_of_residence.upper(),
        jurisdiction=jurisdiction,
        created_at=now,
    )
    error: PlayerError | None = None
    player = None
    already = Conflict("already_registered", _("A person with this national identifier is already registered."))
    refused_here = Conflict(
        "registration_refused",
        _("The registration cannot be completed through this channel; the person can contact the "
          "operator's customer service."),
    )
    existing = Player.objects.filter(person__national_id_hash=person.national_id_hash).first()
    if existing is not None and channel is not None:
        if existing.channel_id == channel.pk:
            existing.replayed = True
            return existing
        audit_record(
            actor=actor,
            action="players.registration_refused",
            data={"channel": channel.code, "reason": "identifier registered through another channel or by staff"},
            significant=True,
            request=request,
        )
        raise refused_here
    if channel is not None:
        already = refused_here  # a concurrent registration under the same identifier: the same answer
    with transaction.atomic():
        if Person.objects.filter(national_id_hash=person.national_id_hash).exists():
            raise already
        decision = screening.screen(person, Action.REGISTER, actor=actor, now=now)
        if not decision.allowed:
            error = Refused.from_decision(decision)
        else:
            try:
                with transaction.atomic():
                    person.save()
                    player = Player.objects.create(
                        person=person, registered_at=now, registered_via=who, channel=channel
                    )
                    GameAccount.objects.create(player=player, created_at=now)
            except IntegrityError:
                error = already  # registered concurrently under the same identifier
            else:
                audit_record(
                    actor=actor,
                    action="players.registered",
                    obj=player,
                    after={
                        "person": person.pk,
                        "name": f"{person.first_name} {person.last_name}",
                        "birth_date": person.birth_date,
                        "jurisdiction": jurisdiction,
                        "channel": channel.code if channel else None,
                    },
                    request=request,
                )
    _raise_if(error)
    player.replayed = False
    return player


def person_verify(*, actor, person: Person, method: str, note: str = "", now=None, request=None) -> Person:
    """Record that the person's identity was verified (e.g. strong electronic identification)."""
    return _kyc_decide(actor=actor, person=person, status=Person.Kyc.VERIFIED, method=method, note=note, now=now,
                       request=request)


def person_reject_verification(*, actor, person: Person, note: str, now=None, request=None) -> Person:
    """Record that the identity could not be verified; the person cannot play or deposit."""
    return _kyc_decide(actor=actor, person=person, status=Person.Kyc.REJECTED, method=None, note=note, now=now,
                       request=request)


def _kyc_decide(*, actor, person: Person, status: str, method: str | None, note: str, now, request) -> Person:
    """The identity check's outcome on the locked person, audited: verified (with its method; a second
    verification changes nothing) or rejected (significant: the person can no longer play)."""
    verified = status == Person.Kyc.VERIFIED
    who = _actor_repr(actor)
    now = now or timezone.now()
    with transaction.atomic():
        p = Person.objects.select_for_update().get(pk=person.pk)
        if verified and p.kyc_status == Person.Kyc.VERIFIED:
            return p
        before = {"kyc_status": p.kyc_status}
        p.kyc_status = status
        if verified:
            p.kyc_method = method[:50]
        p.kyc_note = note[:255]
        p.kyc_verified_at = now
        p.kyc_verified_by = _user_or_none(actor)
        p.kyc_verified_by_repr = who
        p.save()
        after = {"kyc_status": p.kyc_status, "method": p.kyc_method, "note": p.kyc_note} if verified else {
            "kyc_status": p.kyc_status, "note": p.kyc_note}
        audit_record(
            actor=actor,
            action="players.kyc_verified" if verified else "players.kyc_rejected",
            obj=p,
            before=before,
            after=after,
            significant=not verified,
            request=request,
        )
    return p


def person_reveal_identifier(*, actor, person: Person, request=None) -> str | None:
    """The national identifier in clear for authorised staff; every look is an audit event.
    None when no encrypted copy exists (encryption not available when the person was registered)."""
    _actor_repr(actor)
    clear = decrypt_identifier(person.national_id_encrypted)
    audit_record(
        actor=actor,
        action="players.identifier_revealed",
        obj=person,
        data={"available": clear is not None},
        request=request,
    )
    return clear


# --- The ledger ------------------------------------------------------------------------------------


@dataclass
class Posting:
    entry: LedgerEntry
    replayed: bool = False

    @property
    def pending_payout(self) -> PendingPayout | None:
        return PendingPayout.objects.filter(entry=self.entry).first()


def _positive(amount_cents: int) -> int:
    if not isinstance(amount_cents, int) or isinstance(amount_cents, bool) or amount_cents <= 0:
        raise InvalidRequest("invalid_amount", _("The amount must be a positive whole number of cents."))
    if amount_cents > rules.MAX_AMOUNT_CENTS:
        raise InvalidRequest("invalid_amount", _("The amount is above the largest allowed, %(largest)s cents."),
                             params={"largest": rules.MAX_AMOUNT_CENTS})
    return amount_cents


def _lock_money(account: GameAccount) -> tuple[Person, GameAccount]:
    """Lock the person, then the account (the global lock order)."""
    person_id = GameAccount.objects.filter(pk=account.pk).values_list("player__person_id", flat=True).get()
    person = Person.objects.select_for_update().get(pk=person_id)
    locked = GameAccount.objects.select_for_update().get(pk=account.pk)
    return person, locked


def _lock_session(session: PlaySession | None, player_id: int) -> PlaySession | None:
    if session is None:
        return None
    return PlaySession.objects.select_for_update().filter(pk=session.pk, player_id=player_id).first()


def _replay(account: GameAccount, reference: str, kind: str, amount_cents: int) -> LedgerEntry | None:
    entry = LedgerEntry.objects.filter(account=account, reference=reference).first()
    if entry is None:
        return None
    if entry.kind != kind or entry.requested_cents != amount_cents:
        raise Conflict(
            "reference_conflict",
            _("Reference %(reference)s was already used for a %(kind)s of %(amount)s cents."),
            params={"kind": entry.get_kind_display(), "amount": entry.requested_cents},
            reference=reference,
            entry=entry.pk,
        )
    return entry


def _post(
    account: GameAccount,
    *,
    kind: str,
    amount_cents: int,
    reference: str,
    who: str,
    now: dt.datetime,
    diverted_cents: int = 0,
    session: PlaySession | None = None,
    game: str = "",
    note: str = "",
) -> LedgerEntry:
    """Append one entry and move the cached balance with it (the caller holds the account lock)."""
    new_balance = account.balance_cents + amount_cents
    entry = LedgerEntry.objects.create(
        account=account,
        kind=kind,
        amount_cents=amount_cents,
        diverted_cents=diverted_cents,
        balance_after_cents=new_balance,
        reference=reference,
        session=session,
        game=game[:100],
        note=note[:255],
        actor_repr=who,
        created_at=now,
    )
    if amount_cents:
        GameAccount.objects.filter(pk=account.pk).update(
            balance_cents=F("balance_cents") + amount_cents, updated_at=now
        )
        account.balance_cents = new_balance
    return entry


def _reference(reference: str) -> str:
    reference = (reference or "").strip()
    if not reference or len(reference) > 100:
        raise InvalidRequest("invalid_reference", _("A reference of 1 to 100 characters is required."))
    return reference


@dataclass(frozen=True)
class _Movement:
    """What differs between the player's own money movements: the entry's kind and sign, the screening
    action, whether it is played in a session, the audit action (stakes are audited by the game's own
    record, not here) and, for money out, the refusal when the balance is too low."""

    kind: str
    action: str
    debit: bool = False
    in_session: bool = False
    audit_action: str = ""
    too_low: Any = None


DEPOSIT = _Movement(Kind.DEPOSIT, Action.DEPOSIT, audit_action="players.deposit")
WITHDRAWAL = _Movement(
    Kind.WITHDRAWAL, Action.WITHDRAWAL, debit=True, audit_action="players.withdrawal",
    too_low=_("The balance is too low for this withdrawal."),
)
STAKE = _Movement(
    Kind.STAKE, Action.STAKE, debit=True, in_session=True, too_low=_("The balance is too low for this stake.")
)


def _move(
    movement: _Movement, *, actor, account: GameAccount, amount_cents: int, reference: str,
    session: PlaySession | None = None, game: str = "", now=None, request=None,
) -> Posting:
    """One money movement asked for by the player or a channel: idempotent by reference, screened with
    the rows locked, posted and audited in one transaction; a refusal is raised after it (the screening
    decision and any reminder that fell due are kept)."""
    who = _actor_repr(actor)
    amount = _positive(amount_cents)
    reference = _reference(reference)
    now = now or timezone.now()
    error = None
    with transaction.atomic():
        person, acct = _lock_money(account)
        existing = _replay(acct, reference, movement.kind, amount)
        if existing:
            return Posting(existing, replayed=True)
        sess = _lock_session(session, acct.player_id) if movement.in_session else None
        if sess is not None:
            _session_touch(sess, now)
        if movement.debit and amount > acct.balance_cents:
            error = Refused("insufficient_funds", movement.too_low, available_cents=acct.balance_cents)
        else:
            decision = screening.screen(
                person, movement.action, amount, account=acct, session=sess, now=now, actor=actor
            )
            if decision.allowed:
                entry = _post(
                    acct, kind=movement.kind, amount_cents=-amount if movement.debit else amount,
                    reference=reference, who=who, now=now, session=sess, game=game,
                )
                if sess is not None:
                    sess.last_activity_at = now
                    sess.save(update_fields=["last_activity_at"])
                if movement.audit_action:
                    audit_record(
                        actor=actor,
                        action=movement.audit_action,
                        obj=acct,
                        after={"amount_cents": amount, "balance_cents": acct.balance_cents, "reference": reference},
                        request=request,
                    )
            else:
                error = Refused.from_decision(decision)
    _raise_if(error)
    return Posting(entry)


def account_deposit(
    *, actor, account: GameAccount, amount_cents: int, reference: str, now=None, request=None
) -> Posting:
    """Deposit money; refused (nothing changed) by screening, e.g. above the balance cap with the
    amount still allowed in the refusal."""
    return _move(DEPOSIT, actor=actor, account=account, amount_cents=amount_cents, reference=reference,
                 now=now, request=request)


def account_withdraw(
    *, actor, account: GameAccount, amount_cents: int, reference: str, now=None, request=None
) -> Posting:
    """Withdraw money to the player; allowed also during self-exclusion."""
    return _move(WITHDRAWAL, actor=actor, account=account, amount_cents=amount_cents, reference=reference,
                 now=now, request=request)


def account_stake(
    *,
    actor,
    account: GameAccount,
    amount_cents: int,
    reference: str,
    session: PlaySession | None,
    game: str = "",
    now=None,
) -> Posting:
    """Debit a stake placed in an open play session, within the limits and with no reminder due."""
    return _move(STAKE, actor=actor, account=account, amount_cents=amount_cents, reference=reference,
                 session=session, game=game, now=now)


def _credit(
    kind: str, *, actor, account, amount_cents, reference, session=None, game="", note="", now=None
) -> Posting:
    who = _actor_repr(actor)
    amount = _positive(amount_cents)
    reference = _reference(reference)
    now = now or timezone.now()
    with transaction.atomic():
        person, acct = _lock_money(account)
        existing = _replay(acct, reference, kind, amount)
        if existing:
            return Posting(existing, replayed=True)
        sess = _lock_session(session, acct.player_id)
        action = Action.PRIZE if kind == Kind.PRIZE else Action.REFUND
        screening.screen(person, action, amount, account=acct, session=sess, now=now, actor=actor)
        credited, diverted = rules.split_credit(amount, acct.balance_cents, acct.cap_cents)
        entry = _post(
            acct,
            kind=kind,
            amount_cents=credited,
            diverted_cents=diverted,
            reference=reference,
            who=who,
            now=now,
            session=sess,
            game=game,
            note=note,
        )
        if sess is not None and sess.ended_at is None:
            sess.last_activity_at = max(sess.last_activity_at, now)
            sess.save(update_fields=["last_activity_at"])
        if diverted:
            payout = PendingPayout.objects.create(
                account=acct, entry=entry, amount_cents=diverted, created_at=now
            )
            audit_record(
                actor=actor,
                action="players.payout_pending",
                obj=payout,
                data={
                    "kind": kind,
                    "reference": reference,
                    "amount_cents": amount,
                    "credited_cents": credited,
                    "diverted_cents": diverted,
                },
            )
    return Posting(entry)


def account_prize(
    *, actor, account: GameAccount, amount_cents: int, reference: str, session=None, game: str = "", now=None
) -> Posting:
    """Credit a prize; what would take the balance over the cap becomes a pending bank payout."""
    return _credit(
        Kind.PRIZE,
        actor=actor,
        account=account,
        amount_cents=amount_cents,
        reference=reference,
        session=session,
        game=game,
        now=now,
    )


def account_refund(
    *,
    actor,
    account: GameAccount,
    amount_cents: int,
    reference: str,
    note: str = "",
    game: str = "",
    now=None,
) -> Posting:
    """Refund a stake (cancelled draw, void round); over the cap like a prize."""
    return _credit(
        Kind.REFUND,
        actor=actor,
        account=account,
        amount_cents=amount_cents,
        reference=reference,
        game=game,
        note=note,
        now=now,
    )


def account_adjust(
    *, actor, account: GameAccount, amount_cents: int, reference: str, note: str, now=None, request=None
) -> Posting:
    """A staff correction (positive or negative) with its reason; a significant audit event."""
    who = _actor_repr(actor)
    reference = _reference(reference)
    if not isinstance(amount_cents, int) or amount_cents == 0:
        raise InvalidRequest("invalid_amount", _("An adjustment is a non-zero whole number of cents."))
    if not note.strip():
        raise InvalidRequest("note_required", _("An adjustment needs a reason."))
    now = now or timezone.now()
    error = None
    with transaction.atomic():
        _person, acct = _lock_money(account)
        existing = _replay(acct, reference, Kind.ADJUSTMENT, amount_cents)
        if existing:
            return Posting(existing, replayed=True)
        new_balance = acct.balance_cents + amount_cents
        if not 0 <= new_balance <= acct.cap_cents:
            error = Refused(
                "adjustment_out_of_range",
                _("The adjustment would take the balance below zero or above the cap."),
                balance_cents=acct.balance_cents,
                cap_cents=acct.cap_cents,
            )
        else:
            before = acct.balance_cents
            entry = _post(
                acct,
                kind=Kind.ADJUSTMENT,
                amount_cents=amount_cents,
                reference=reference,
                who=who,
                now=now,
                note=note,
            )
            audit_record(
                actor=actor,
                action="players.adjustment",
                obj=acct,
                before={"balance_cents": before},
                after={"balance_cents": acct.balance_cents},
                data={"amount_cents": amount_cents, "reference": reference, "note": note},
                significant=True,
                request=request,
            )
    _raise_if(error)
    return Posting(entry)


def payout_mark_paid(
    *, actor, payout: PendingPayout, bank_reference: str, approver=None, now=None, request=None
) -> PendingPayout:
    """Record that a pending bank payout was paid: only as the approval of `payout_release_request`
    (the second person is `approver`)."""
    who = _actor_repr(actor)
    bank_reference = bank_reference.strip()
    if not bank_reference:
        raise InvalidRequest("bank_reference_required", _("Give the bank's reference of the payment."))
    now = now or timezone.now()
    with transaction.atomic():
        p = PendingPayout.objects.select_for_update().get(pk=payout.pk)
        if p.status != PendingPayout.Status.PENDING:
            raise Conflict("payout_not_pending", _("This payout has already been paid."))
        p.status = PendingPayout.Status.PAID
        p.paid_at = now
        p.paid_by_repr = who
        p.bank_reference = bank_reference[:100]
        p.save()
        audit_record(
            actor=actor,
            action="players.payout_paid",
            obj=p,
            before={"status": PendingPayout.Status.PENDING},
            after={"status": p.status, "bank_reference": p.bank_reference, "amount_cents": p.amount_cents},
            approver=approver,
            significant=True,
            request=request,
        )
    return p


# --- Limits ---------------------------------------------------------------------------------------


def limit_set(
    *,
    actor,
    player: Player,
    kind: str,
    period: str,
    amount_cents: int | None = None,
    minutes: int | None = None,
    now=None,
    request=None,
) -> PlayerLimit:
    """Set, lower, raise or remove (both values None) a player's own limit.

    Lowering takes effect at once; raising or removing after PLAYER_LIMIT_COOLING_OFF_HOURS. A new
    request replaces any raise still waiting for its cooling-off period.
    """
    who = _actor_repr(actor)
    if kind not in LimitKind.values or period not in LimitPeriod.values:
        raise InvalidRequest("invalid_limit", _("Unknown limit kind or period."))
    if kind == LimitKind.TIME and amount_cents is not None or kind != LimitKind.TIME and minutes is not None:
        raise InvalidRequest(
            "invalid_limit", _("Play-time limits are in minutes, deposit and loss limits in cents.")
        )
    value = minutes if kind == LimitKind.TIME else amount_cents
    if value is not None and (not isinstance(value, int) or not 0 < value <= rules.MAX_AMOUNT_CENTS):
        raise InvalidRequest(
            "invalid_limit", _("A limit must be a positive whole number (or empty for no limit).")
        )
    now = now or timezone.now()
    cooling_off = dt.timedelta(hours=settings.PLAYER_LIMIT_COOLING_OFF_HOURS)
    with transaction.atomic():
        Player.objects.select_for_update().get(pk=player.pk)
        current_row = current_player_limit(player, kind, period, now)
        current = current_row.value if current_row else None
        pending = list(
            PlayerLimit.objects.filter(
                player=player, kind=kind, period=period, effective_from__gt=now, superseded_at__isnull=True
            )
        )
        if value == current and not pending and current_row is not None:
            return current_row
        effective_from = rules.limit_effective_from(current, value, now, cooling_off)
        PlayerLimit.objects.filter(pk__in=[p.pk for p in pending]).update(superseded_at=now)
        row = PlayerLimit.objects.create(
            player=player,
            kind=kind,
            period=period,
            amount_cents=amount_cents,
            minutes=minutes,
            requested_at=now,
            effective_from=effective_from,
            requested_by_repr=who,
        )
        audit_record(
            actor=actor,
            action="players.limit_set",
            obj=player,
            before={"value": current, "pending": [p.value for p in pending]},
            after={"value": value, "effective_from": effective_from},
            data={"kind": kind, "period": period, "limit": row.pk},
            request=request,
        )
    return row


# --- Play sessions and the time reminder (PR §1) -----------------------------------------------------


def _end_session(session: PlaySession, reason: str, now: dt.datetime) -> None:
    if session.ended_at is not None:
        return
    if not session.is_open(now):
        session.ended_at, session.end_reason = session.idle_deadline(), PlaySession.EndReason.IDLE
    else:
        session.ended_at, session.end_reason = now, reason
    session.save(update_fields=["ended_at", "end_reason"])


def _session_touch(session: PlaySession, now: dt.datetime) -> None:
    """Bring a locked session up to `now`: end it when idle, record a reminder that fell due."""
    if session.ended_at is not None:
        return
    if not session.is_open(now):
        _end_session(session, PlaySession.EndReason.IDLE, now)
        return
    if now >= session.next_reminder_at and not session.reminders.filter(answered_at__isnull=True).exists():
        due = session.next_reminder_at
        SessionReminder.objects.create(
            session=session,
            due_at=due,
            shown_at=now,
            played_seconds=int((due - session.started_at).total_seconds()),
        )
        session.reminders_shown += 1
        session.save(update_fields=["reminders_shown"])


def _lock_sessions_of(player_id: int) -> list[PlaySession]:
    return list(
        PlaySession.objects.select_for_update()
        .filter(player_id=player_id, ended_at__isnull=True)
        .order_by("pk")
    )


def session_start(*, actor, player: Player, now=None) -> PlaySession:
    """Log the player in to the game service: a new play session (any open one is ended)."""
    who = _actor_repr(actor)
    now = now or timezone.now()
    error = None
    with transaction.atomic():
        person = Person.objects.select_for_update().get(pk=player.person_id)
        decision = screening.screen(person, Action.LOGIN, now=now, actor=actor)
        if decision.allowed:
            for old in _lock_sessions_of(player.pk):
                _end_session(old, PlaySession.EndReason.REPLACED, now)
            session = PlaySession.objects.create(
                player=player, channel=who, started_at=now, last_activity_at=now, interval_started_at=now
            )
        else:
            error = Refused.from_decision(decision)
    _raise_if(error)
    return session


def _locked_session(session: PlaySession) -> PlaySession:
    return PlaySession.objects.select_for_update().get(pk=session.pk)


def session_refresh(*, actor, session: PlaySession, now=None) -> PlaySession:
    """The session as of now; a reminder that fell due is recorded as presented (the channel asks
    for the status to show it)."""
    _actor_repr(actor)
    now = now or timezone.now()
    with transaction.atomic():
        s = _locked_session(session)
        _session_touch(s, now)
    return s


def _closed(s: PlaySession) -> Conflict:
    return Conflict("session_closed", _("The play session has ended."), end_reason=s.end_reason)


def session_answer_reminder(
    *, actor, session: PlaySession, choice: str, interval_minutes: int | None = None, now=None
) -> PlaySession:
    """The player's answer to a reminder: continue (optionally with a shorter interval) or log out.
    The next reminder is measured from the moment play resumes."""
    _actor_repr(actor)
    now = now or timezone.now()
    error = None
    with transaction.atomic():
        s = _locked_session(session)
        _session_touch(s, now)
        reminder = s.reminders.filter(answered_at__isnull=True).first()
        if s.ended_at is not None:
            error = _closed(s)
        elif reminder is None:
            error = Conflict("no_reminder_due", _("No reminder is waiting for an answer."))
        elif choice == SessionReminder.Choice.CONTINUE:
            interval = s.reminder_interval
            if interval_minutes is not None:
                interval = dt.timedelta(minutes=interval_minutes)
                try:
                    rules.check_reminder_interval(interval, s.reminders_shown)
                except rules.IntervalRefused as exc:
                    error = InvalidRequest(exc.code, INTERVAL_REFUSALS[exc.code])
            if error is None:
                reminder.answered_at, reminder.choice = now, choice
                reminder.interval_seconds_after = int(interval.total_seconds())
                reminder.save()
                s.reminder_interval_seconds = int(interval.total_seconds())
                s.interval_started_at = s.last_activity_at = now
                s.save(update_fields=["reminder_interval_seconds", "interval_started_at", "last_activity_at"])
        elif choice == SessionReminder.Choice.LOGOUT:
            reminder.answered_at, reminder.choice = now, choice
            reminder.save()
            _end_session(s, PlaySession.EndReason.REMINDER_LOGOUT, now)
        else:
            error = InvalidRequest("invalid_choice", _("Choose 'continue' or 'logout'."))
    _raise_if(error)
    return s


def session_set_interval(*, actor, session: PlaySession, minutes: int, now=None) -> PlaySession:
    """Shorten (or restore up to 15 minutes) the reminder interval, only after the first reminder."""
    _actor_repr(actor)
    now = now or timezone.now()
    error = None
    with transaction.atomic():
        s = _locked_session(session)
        _session_touch(s, now)
        if s.ended_at is not None:
            error = _closed(s)
        else:
            interval = dt.timedelta(minutes=minutes)
            try:
                rules.check_reminder_interval(interval, s.reminders_shown)
            except rules.IntervalRefused as exc:
                error = InvalidRequest(exc.code, INTERVAL_REFUSALS[exc.code])
            else:
                s.reminder_interval_seconds = int(interval.total_seconds())
                s.last_activity_at = now
                s.save(update_fields=["reminder_interval_seconds", "last_activity_at"])
                _session_touch(s, now)  # a shorter interval may already have run out
    _raise_if(error)
    return s


def session_end(*, actor, session: PlaySession, now=None) -> PlaySession:
    """Log out."""
    _actor_repr(actor)
    now = now or timezone.now()
    with transaction.atomic():
        s = _locked_session(session)
        _end_session(s, PlaySession.EndReason.LOGOUT, now)
    return s


# --- Self-exclusion ---------------------------------------------------------------------------------


def self_exclusion_start(
    *, actor, person: Person, days: int | None = None, permanent: bool = False, now=None, request=None
) -> SelfExclusion:
    """Exclude the person from play at once, for `days` or permanently. Open sessions end; stakes,
    deposits and logins are refused until it ends; withdrawals stay possible. It can be extended
    but never shortened."""
    who = _actor_repr(actor)
    if permanent == (days is not None):
        raise InvalidRequest("invalid_period", _("Give either a number of days or permanent."))
    if days is not None and (not isinstance(days, int) or days < 1):
        raise InvalidRequest("invalid_period", _("A self-exclusion lasts at least one day."))
    now = now or timezone.now()
    ends_at = None if permanent else now + dt.timedelta(days=days)
    error = None
    with transaction.atomic():
        p = Person.objects.select_for_update().get(pk=person.pk)
        current = active_self_exclusion(p, now)
        if current is not None and (
            current.permanent or (ends_at is not None and ends_at <= current.ends_at)
        ):
            if current.permanent == permanent and (permanent or ends_at == current.ends_at):
                return current
            if current.permanent:
                message, params = CANNOT_SHORTEN_PERMANENT, {}
            else:
                message, params = CANNOT_SHORTEN, {"until": f"{timezone.localtime(current.ends_at):%Y-%m-%d %H:%M}"}
            error = Conflict(
                "self_exclusion_cannot_shorten",
                message,
                params=params,
                ends_at=current.ends_at.isoformat() if current.ends_at else None,
            )
        else:
            exclusion = SelfExclusion.objects.create(
                person=p, starts_at=now, ends_at=ends_at, requested_at=now, requested_by_repr=who
            )
            ended = []
            player = Player.objects.filter(person=p).first()
            if player is not None:
                for s in _lock_sessions_of(player.pk):
                    _end_session(s, PlaySession.EndReason.SELF_EXCLUSION, now)
                    ended.append(s.pk)
            audit_record(
                actor=actor,
                action="players.self_excluded",
                obj=exclusion,
                before={"ends_at": current.ends_at if current else None, "active": current is not None},
                after={"ends_at": ends_at, "permanent": permanent},
                data={"person": p.pk, "sessions_ended": ended},
                request=request,
            )
    _raise_if(error)
    return exclusion


# --- Look-ups by national identifier -------------------------------------------------------------------

IDENTIFIER_SEARCH_ACTION = "players.identifier_search"


def identifier_search(*, actor, national_id: str, id_country: str = "FI", now=None, request=None):
    """People with this identifier, for a user holding players.search_identifier. Every look-up is an
    audit event (without the identifier, only its country and whether it matched); more than
    PLAYER_ID_SEARCHES_PER_HOUR look-ups in the last hour are refused, counted from the audit trail
    itself, so the limit holds across processes and restarts (issue 14 item 4)."""
    now = now or timezone.now()
    limit = settings.PLAYER_ID_SEARCHES_PER_HOUR
    user = _user_or_none(actor)
    recent = AuditEvent.objects.filter(
        action=IDENTIFIER_SEARCH_ACTION, actor=user, created_at__gte=now - dt.timedelta(hours=1)
    ).count()
    if recent >= limit:
        audit_record(actor=actor, action="players.identifier_search_throttled", data={"limit_per_hour": limit},
                     significant=True, request=request)
        raise Refused("throttled", _("At most %(limit)s look-ups by identifier an hour; try again later."),
                      params={"limit": limit})
    people = list(person_search(national_id=national_id, id_country=id_country)[:2])
    audit_record(actor=actor, action=IDENTIFIER_SEARCH_ACTION,
                 data={"id_country": id_country, "found": [p.pk for p in people]}, request=request)
    return people


# --- Channels, their prize credits and bank payouts: two people for money out (issue 14) ----------------

CHANNEL_PRIZE_KIND = "players.channel_prize"
PAYOUT_RELEASE_KIND = "players.payout_release"


@transaction.atomic
def channel_create(*, actor, user, code: str, name: str = "", request=None) -> Channel:
    """Bind an API user to a new channel. Its prize limit starts at 0 (every prize credit needs approval);
    raising it is a control change (the admin's channel form, or `compliance.controls.control_change_request`)
    that a compliance officer approves. The user's role is granted separately (four eyes)."""
    code = (code or "").strip().lower()
    if not code or code in RESERVED_CHANNEL_CODES:
        raise InvalidRequest("invalid_channel_code",
                             _("A channel code is required and may not be one of: %(reserved)s."),
                             params={"reserved": ", ".join(sorted(RESERVED_CHANNEL_CODES))})
    if Channel.objects.filter(code=code).exists():
        raise Conflict("channel_code_taken", _("The channel code %(code)s is already taken."), params={"code": code})
    if Channel.objects.filter(user_id=user.pk).exists():
        raise Conflict("channel_user_taken", _("This user is already bound to a channel."))
    channel = Channel.objects.create(code=code, name=name or code, user=user)
    audit_record(actor=actor, action="players.channel_created", obj=channel,
                 after={"code": code, "user": user.get_username(), "prize_limit_cents": 0},
                 significant=True, request=request)
    return channel


@dataclass(frozen=True)
class PrizeCredit:
    """A channel's prize credit: posted at once (`posting`) or waiting for approval (`approval`)."""

    posting: Posting | None = None
    approval: Approval | None = None


def channel_prize_credit(
    *, actor, channel: Channel | None, account: GameAccount, amount_cents: int, reference: str,
    session=None, game: str = "", request=None,
) -> PrizeCredit:
    """A prize credited over the API. Up to the channel's limit it is posted at once; above it (and for
    any caller that is not a channel) it waits for a compliance officer's approval (issue 14 item 1).
    The same reference again answers with the posted entry or the pending request."""
    _positive(amount_cents)
    if LedgerEntry.objects.filter(account=account, reference=reference).exists():
        return PrizeCredit(posting=account_prize(actor=actor, account=account, amount_cents=amount_cents,
                                                 reference=reference, session=session, game=game))
    limit = channel.prize_limit_cents if channel is not None else 0
    if amount_cents <= limit:
        return PrizeCredit(posting=account_prize(actor=actor, account=account, amount_cents=amount_cents,
                                                 reference=reference, session=session, game=game))
    with transaction.atomic():
        GameAccount.objects.select_for_update().get(pk=account.pk)  # one request per reference, even when racing
        pending = Approval.objects.filter(
            kind=CHANNEL_PRIZE_KIND, state=Approval.State.REQUESTED, target_type="players.gameaccount",
            target_id=str(account.pk), payload__reference=reference,
        ).first()
        if pending is not None:
            if pending.payload.get("amount_cents") != amount_cents:
                raise Conflict("reference_conflict",
                               _("Reference %(reference)s already waits for approval with another amount."),
                               reference=reference)
            return PrizeCredit(approval=pending)
        approval = approval_request(
            actor=actor, kind=CHANNEL_PRIZE_KIND, obj=account,
            payload={"amount_cents": amount_cents, "reference": reference, "game": game,
                     "channel": channel.code if channel else None, "limit_cents": limit},
            reason=(f"Prize credit of {format_cents(amount_cents, language='en')} above the channel's limit of "
                    f"{format_cents(limit, language='en')}"),
            request=request,
        )
    return PrizeCredit(approval=approval)


def _channel_prize_approved(approval: Approval, *, approver) -> None:
    account = GameAccount.objects.get(pk=int(approval.target_id))
    p = approval.payload
    account_prize(actor=approval.requested_by or approval.requested_by_repr, account=account,
                  amount_cents=p["amount_cents"], reference=p["reference"], game=p.get("game") or "")


def payout_release_request(*, actor, payout: PendingPayout, bank_reference: str, request=None) -> Approval:
    """Payments staff record the bank transfer of a pending payout; a second person confirms it before it
    counts as paid (issue 14 item 2: every money exit needs two people)."""
    bank_reference = (bank_reference or "").strip()
    if not bank_reference:
        raise InvalidRequest("bank_reference_required", _("Give the bank's reference of the payment."))
    with transaction.atomic():
        p = PendingPayout.objects.select_for_update().get(pk=payout.pk)
        if p.status != PendingPayout.Status.PENDING:
            raise Conflict("payout_not_pending", _("This payout has already been paid."))
        if Approval.objects.filter(kind=PAYOUT_RELEASE_KIND, state=Approval.State.REQUESTED,
                                   target_type="players.pendingpayout", target_id=str(p.pk)).exists():
            raise Conflict("payout_release_pending", _("This payout's release already waits for a second person."))
        return approval_request(
            actor=actor, kind=PAYOUT_RELEASE_KIND, obj=p,
            payload={"bank_reference": bank_reference[:100], "amount_cents": p.amount_cents},
            reason=f"Bank payout of {format_cents(p.amount_cents, language='en')} paid with reference {bank_reference[:100]}",
            request=request,
        )


def _payout_release_approved(approval: Approval, *, approver) -> None:
    payout = PendingPayout.objects.get(pk=int(approval.target_id))
    try:
        payout_mark_paid(actor=approval.requested_by or approval.requested_by_repr, payout=payout,
                         bank_reference=approval.payload["bank_reference"], approver=approver)
    except PlayerError as exc:
        raise ApprovalRefused(exc.template, code=exc.code, **exc.params) from None


register_approval_handler(CHANNEL_PRIZE_KIND, _channel_prize_approved, permission="players.approve_channel_prize",
                          title=approval_words.CHANNEL_PRIZE_TITLE, describe=approval_words.describe_channel_prize)
register_approval_handler(PAYOUT_RELEASE_KIND, _payout_release_approved, permission="players.release_payout",
                          title=approval_words.PAYOUT_RELEASE_TITLE, describe=approval_words.describe_payout_release)
# Controls (compliance.controls): changed in the admin by request, applied when a second person approves.
register_control("players.channel", fields=("prize_limit_cents",), permission="players.approve_channel_prize")
register_control("players.operatorlimit", fields=("kind", "period", "amount_cents", "minutes", "active"),
                 permission="compliance.approve_control_change")
