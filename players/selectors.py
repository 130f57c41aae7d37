"""Reads shared by the screening gate, the services, the API and the staff pages."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Q, QuerySet, Sum

from compliance.idcodes import normalise_name
from compliance.identity import identifier_hash

from . import rules
from .models import (
    Channel,
    GameAccount,
    LedgerEntry,
    LimitKind,
    LimitPeriod,
    OperatorLimit,
    Person,
    Player,
    PlayerLimit,
    PlaySession,
    SelfExclusion,
)


def channel_of(user) -> Channel | None:
    """The channel bound to this API user, or None (staff, jobs)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Channel.objects.filter(user_id=user.pk).first()


def players_visible_to(user) -> QuerySet[Player]:
    """The players this user may see and act on over the API (issue 14 item 1).

    A channel: the players it registered. Staff with back-office access: all players. Anyone else: none.
    Objects outside this set answer 404, never 403, so ids reveal nothing.
    """
    channel = channel_of(user)
    if channel is not None:
        return Player.objects.filter(channel=channel) if channel.active else Player.objects.none()
    if user is not None and user.is_authenticated and user.has_perm("compliance.access_backoffice"):
        return Player.objects.all()
    return Player.objects.none()


def operator_zone() -> ZoneInfo:
    return ZoneInfo(settings.TIME_ZONE)


def window(period: str, now: dt.datetime) -> tuple[dt.datetime, dt.datetime]:
    return rules.window_bounds(period, now, operator_zone())


# --- Limits --------------------------------------------------------------------------------------


def current_player_limit(player: Player, kind: str, period: str, now: dt.datetime) -> PlayerLimit | None:
    """The player's own limit in force at `now` (a row with no value means "no limit")."""
    return (
        PlayerLimit.objects.filter(
            player=player, kind=kind, period=period, effective_from__lte=now, superseded_at__isnull=True
        )
        .order_by("-effective_from", "-pk")
        .first()
    )


def pending_player_limits(player: Player, now: dt.datetime) -> QuerySet[PlayerLimit]:
    """Raises waiting for their cooling-off period to end."""
    return PlayerLimit.objects.filter(
        player=player, effective_from__gt=now, superseded_at__isnull=True
    ).order_by("effective_from", "pk")


@dataclass(frozen=True)
class EffectiveLimit:
    kind: str
    period: str
    value: int | None  # cents, or minutes for play time; None = no limit
    player_value: int | None
    operator_value: int | None

    @property
    def kind_label(self) -> str:
        return LimitKind(self.kind).label

    @property
    def period_label(self) -> str:
        return LimitPeriod(self.period).label


def effective_limits(player: Player, now: dt.datetime) -> list[EffectiveLimit]:
    """Per kind and period: the tighter of the operator's mandatory limit and the player's own."""
    operator = {(o.kind, o.period): o.value for o in OperatorLimit.objects.filter(active=True)}
    out = []
    for kind in LimitKind.values:
        for period in LimitPeriod.values:
            own = current_player_limit(player, kind, period, now)
            own_value = own.value if own else None
            op_value = operator.get((kind, period))
            value = rules.tightest(own_value, op_value)
            if value is not None or own is not None:
                out.append(EffectiveLimit(kind, period, value, own_value, op_value))
    return out


def deposited_cents(account: GameAccount, start: dt.datetime, end: dt.datetime) -> int:
    return (
        account.entries.filter(
            kind=LedgerEntry.Kind.DEPOSIT, created_at__gte=start, created_at__lt=end
        ).aggregate(s=Sum("amount_cents"))["s"]
        or 0
    )


def net_loss_cents(account: GameAccount, start: dt.datetime, end: dt.datetime) -> int:
    """Stakes minus prizes and refunds (including any part sent to a bank payout) in the window."""
    rows = (
        account.entries.filter(
            kind__in=[LedgerEntry.Kind.STAKE, LedgerEntry.Kind.PRIZE, LedgerEntry.Kind.REFUND],
            created_at__gte=start,
            created_at__lt=end,
        )
        .values("kind")
        .annotate(amount=Sum("amount_cents"), diverted=Sum("diverted_cents"))
    )
    loss = 0
    for row in rows:
        loss -= row["amount"] + row["diverted"]  # stakes are negative amounts, prizes positive
    return loss


def play_seconds(player: Player, start: dt.datetime, end: dt.datetime, now: dt.datetime) -> int:
    sessions = PlaySession.objects.filter(player=player, started_at__lt=end).filter(
        Q(ended_at__isnull=True) | Q(ended_at__gt=start)
    )
    return sum(rules.overlap_seconds(s.started_at, s.effective_end(now), start, end) for s in sessions)


# --- Exclusion and sessions -----------------------------------------------------------------------


def active_self_exclusion(person: Person, now: dt.datetime) -> SelfExclusion | None:
    """The self-exclusion in force that ends last (a permanent one first)."""
    active = list(
        SelfExclusion.objects.filter(person=person, starts_at__lte=now).filter(
            Q(ends_at__isnull=True) | Q(ends_at__gt=now)
        )
    )
    if not active:
        return None
    return max(active, key=lambda x: (x.ends_at is None, x.ends_at or now))


def open_sessions(player: Player, now: dt.datetime) -> list[PlaySession]:
    return [s for s in PlaySession.objects.filter(player=player, ended_at__isnull=True) if s.is_open(now)]


# --- Staff look-ups ------------------------------------------------------------------------------


def person_search(
    *, name: str = "", birth_date: dt.date | None = None, national_id: str = "", id_country: str = "FI"
) -> QuerySet[Person]:
    """People matching every given criterion: name words in any order and without accents, exact
    birth date, identifier through its keyed hash (never compared in clear)."""
    qs = Person.objects.select_related("player", "player__account").order_by("last_name", "first_name", "pk")
    if not (name.strip() or birth_date or national_id.strip()):
        return qs.none()
    for token in normalise_name(name).split():
        qs = qs.filter(name_normalised__contains=token)
    if birth_date:
        qs = qs.filter(birth_date=birth_date)
    if national_id.strip():
        qs = qs.filter(national_id_hash=identifier_hash(national_id, id_country))
    return qs


def player_status(player: Player, now: dt.datetime) -> dict:
    """What a channel shows the player: identity summary, balance, protection state, open session."""
    person, account = player.person, player.account
    sessions = open_sessions(player, now)
    return {
        "id": player.pk,
        "first_name": person.first_name,
        "last_name": person.last_name,
        "birth_date": person.birth_date,
        "jurisdiction": person.jurisdiction,
        "kyc_status": person.kyc_status,
        "status": player.status,
        "balance_cents": account.balance_cents,
        "cap_cents": account.cap_cents,
        "deposit_room_cents": rules.cap_room(account.balance_cents, account.cap_cents),
        "currency": account.currency,
        "pending_payouts_cents": account.pending_payouts.filter(status="pending").aggregate(
            s=Sum("amount_cents")
        )["s"]
        or 0,
        "self_exclusion": active_self_exclusion(person, now),
        "limits": effective_limits(player, now),
        "pending_limits": list(pending_player_limits(player, now)),
        "open_session": sessions[0] if sessions else None,
    }


@dataclass
class Protection:
    """A person's standing at a glance (the top of the player page, a decision about them): every
    register entry and operator ban in force that names them, their self-exclusion, the limits in
    force. `barred`: they may not play now."""

    entries: list
    self_exclusion: SelfExclusion | None
    limits: list[EffectiveLimit]

    @property
    def barred(self) -> bool:
        return bool(self.entries) or self.self_exclusion is not None


def person_protection(person: Person, now: dt.datetime, player: Player | None = None) -> Protection:
    from compliance.selectors import entries_in_force

    entries = entries_in_force(identifier_hash=person.national_id_hash, name_normalised=person.name_normalised,
                               birth_date=person.birth_date, now=now, jurisdiction=person.jurisdiction)
    limits = [lim for lim in effective_limits(player, now) if lim.value is not None] if player is not None else []
    return Protection(entries=entries, self_exclusion=active_self_exclusion(person, now), limits=limits)
