"""The single gate before registration, login, deposits, stakes, prize credits and refunds (DESIGN §4).

`screen(person, action, amount_cents, ...)` checks what applies to the action (age, identity
verification, exclusion registries, self-exclusion, limits, a due time reminder, the balance cap),
returns a `Decision` with every reason, and logs it as a `ScreeningDecision`. A registry that
cannot answer denies (`registry_unavailable`). A refused attempt by an excluded person, and a
registry failure, are also significant audit events.

Callers run it inside their transaction, with the person and the account already locked, so the
figures it reads cannot change before the caller acts on the decision. The decision row is written
in that transaction: services commit it even when they refuse (see players.services).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone, translation
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from .audit import audit_record
from .models import ScreeningDecision
from .money import format_cents
from .registries import check_registries

Action = ScreeningDecision.Action

# What each action is checked for. Prizes and refunds cannot be refused (the player won or is owed
# them, even if excluded since): only the balance cap applies, and it diverts rather than denies.
# Withdrawals are always allowed (a self-excluded player must be able to take their money out).
CHECKS: dict[str, tuple[str, ...]] = {
    Action.REGISTER: ("age", "registries", "self_exclusion"),
    Action.LOGIN: ("account", "age", "verification", "registries", "self_exclusion", "time_limits"),
    Action.DEPOSIT: (
        "account",
        "age",
        "verification",
        "registries",
        "self_exclusion",
        "deposit_limits",
        "cap",
    ),
    Action.STAKE: (
        "account",
        "age",
        "verification",
        "registries",
        "self_exclusion",
        "session",
        "reminder",
        "loss_limits",
        "time_limits",
    ),
    Action.PRIZE: ("cap_split",),
    Action.REFUND: ("cap_split",),
    Action.WITHDRAWAL: (),
}

EXCLUSION_CODES = {"registry_excluded", "self_excluded"}


@dataclass(frozen=True)
class PlayerSide:
    """What the gate reads of the players app: its protection rules (pure) and its queries. compliance
    imports no capability app (DESIGN §1), so players registers these from PlayersConfig.ready()."""

    effective_min_age: Callable[[str, dict[str, int]], int]  # (jurisdiction, configured) -> years
    has_reached_age: Callable[[dt.date, int, dt.date], bool]  # (birth date, years, on)
    active_self_exclusion: Callable[[Any, dt.datetime], Any]  # (person, now) -> SelfExclusion | None
    effective_limits: Callable[[Any, dt.datetime], list]  # (player, now) -> [limit with kind, period, value]
    window: Callable[[str, dt.datetime], tuple[dt.datetime, dt.datetime]]  # (period, now) -> [start, end)
    deposited_cents: Callable[[Any, dt.datetime, dt.datetime], int]  # (account, start, end)
    net_loss_cents: Callable[[Any, dt.datetime, dt.datetime], int]  # (account, start, end)
    play_seconds: Callable[[Any, dt.datetime, dt.datetime, dt.datetime], int]  # (player, start, end, now)
    cap_room: Callable[[int, int], int]  # (balance, cap) -> what may still be credited
    split_credit: Callable[[int, int, int], tuple[int, int]]  # (amount, balance, cap) -> (credited, diverted)


_player_side: PlayerSide | None = None


def register_player_side(side: PlayerSide) -> None:
    global _player_side
    _player_side = side


def _players() -> PlayerSide:
    if _player_side is None:
        raise ImproperlyConfigured("No player side is registered with compliance.screening (PlayersConfig.ready).")
    return _player_side


@dataclass
class Decision:
    allowed: bool
    reasons: list[dict[str, Any]] = field(default_factory=list)
    # For deposits: what may still be deposited under the cap; for prizes and refunds: what may be
    # credited (the rest goes to a pending bank payout).
    allowed_amount_cents: int | None = None
    record: ScreeningDecision | None = None

    @property
    def codes(self) -> list[str]:
        return [r["code"] for r in self.reasons]


class _Context:
    def __init__(self, person, action, amount_cents, account, session, now):
        self.person = person
        self.action = action
        self.amount = amount_cents
        self.now = now
        self.session = session
        self.player = getattr(person, "player", None) if person.pk else None
        if account is None and self.player is not None:
            account = getattr(self.player, "account", None)
        self.account = account
        self.reasons: list[dict[str, Any]] = []
        self.allowed_amount: int | None = None

    def deny(self, code: str, params: dict[str, Any] | None = None, **extra: Any) -> None:
        self.reasons.append(_reason(code, params, **extra))


# The message of each reason code: a translatable template whose parameters are stored with the
# reason (`params`), so a logged decision shows in the reader's language (`reason_message`). Amounts
# are stored in cents (`*_cents`) and formatted when shown; `period` is a limit period's code.
_REASONS: dict[str, Any] = {
    "no_account": _("The person has no game account."),
    "account_closed": _("The game account is closed."),
    "under_age": _("Players must be at least %(min_age)s years old."),
    "not_verified": _("The player's identity has not been verified."),
    "registry_excluded": _("The person is on an exclusion register."),
    "registry_unavailable": _("An exclusion register could not be checked, so play is refused for now."),
    "self_excluded": _("The player has excluded themselves from play until %(until)s."),
    "self_excluded_permanently": _("The player has excluded themselves from play permanently."),
    "no_session": _("A stake needs an open play session of this player."),
    "session_closed": _("The play session has ended."),
    "reminder_due": _(
        "Time reminder: %(minutes)s minutes of play. Choose to continue or to log out before playing on."
    ),
    "time_limit": _("The play-time limit of %(limit)s minutes %(per)s has been reached."),
    "deposit_limit": _("This would exceed the deposit limit of %(limit)s %(per)s; %(remaining)s remains."),
    "loss_limit": _("This would exceed the loss limit of %(limit)s %(per)s; %(remaining)s remains."),
    "balance_cap": _("A game account may hold at most %(cap)s; at most %(room)s can be deposited now."),
    "balance_cap_diverted": _("%(diverted)s exceeds the balance cap and goes to a pending bank payout."),
}
_PER = {"day": _("per day"), "week": _("per week"), "month": _("per month")}  # players.rules.DAY, WEEK, MONTH


def _render_reason(code: str, params: dict[str, Any]) -> str:
    """The reason's message in the active language."""
    values: dict[str, Any] = {}
    for key, value in params.items():
        if key.endswith("_cents"):
            values[key.removesuffix("_cents")] = format_cents(value)
        elif key == "period":
            values["per"] = str(_PER[value])
        else:
            values[key] = value
    template = _REASONS[code]
    if code == "self_excluded" and "until" not in values:
        template = _REASONS["self_excluded_permanently"]
    return str(template) % values


def _reason(code: str, params: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """A reason as logged: its code, its message in English (the record does not depend on whose
    request caused it, see compliance.money), the parameters to show it in another language, and the
    machine-readable `extra` the API returns."""
    params = dict(params or {})
    with translation.override("en"):
        message = _render_reason(code, params)
    return {"code": code, "message": message, "params": params, **extra}


def _reason_message(reason: dict[str, Any]) -> str:
    if reason.get("code") in _REASONS and "params" in reason:
        return _render_reason(reason["code"], reason["params"])
    return reason.get("message", "")  # a reason logged before messages were stored with parameters


#: The reason's message in the language active when it is shown (a lazy string).
reason_message = lazy(_reason_message, str)


def _check_account(c: _Context) -> None:
    if c.player is None or c.account is None:
        c.deny("no_account")
    elif c.player.status != c.player.Status.ACTIVE:
        c.deny("account_closed")


def _check_age(c: _Context) -> None:
    minimum = _players().effective_min_age(c.person.jurisdiction, settings.PLAYER_MIN_AGE)
    today = c.now.astimezone(ZoneInfo(settings.TIME_ZONE)).date()
    if not _players().has_reached_age(c.person.birth_date, minimum, today):
        c.deny("under_age", {"min_age": minimum}, min_age=minimum)


def _check_verification(c: _Context) -> None:
    if not c.person.is_verified:
        c.deny("not_verified")


def _check_registries(c: _Context) -> None:
    result = check_registries(c.person, c.now)
    for registry in result.hits:
        c.deny("registry_excluded", registry=registry.name)
    for registry, error in result.unavailable:
        c.deny("registry_unavailable", registry=registry.name, error=error)


def _check_self_exclusion(c: _Context) -> None:
    if c.person.pk is None:
        return
    exclusion = _players().active_self_exclusion(c.person, c.now)
    if exclusion is not None:
        params = {} if exclusion.permanent else {"until": f"{timezone.localtime(exclusion.ends_at):%Y-%m-%d %H:%M}"}
        c.deny(
            "self_excluded",
            params,
            ends_at=exclusion.ends_at.isoformat() if exclusion.ends_at else None,
        )


def _check_session(c: _Context) -> None:
    s = c.session
    if s is None or c.player is None or s.player_id != c.player.pk:
        c.deny("no_session")
    elif not s.is_open(c.now):
        c.deny("session_closed")


def _check_reminder(c: _Context) -> None:
    s = c.session
    if s is not None and s.reminder_due(c.now):
        minutes = int((s.next_reminder_at - s.started_at).total_seconds() // 60)
        c.deny("reminder_due", {"minutes": minutes}, session=s.pk)


def _limit_check(c: _Context, kind: str, used_fn) -> None:
    for limit in _players().effective_limits(c.player, c.now):
        if limit.kind != kind or limit.value is None:
            continue
        start, end = _players().window(limit.period, c.now)
        used = used_fn(start, end)
        if kind == "time":
            if used >= limit.value * 60:
                c.deny(
                    "time_limit",
                    {"limit": limit.value, "period": limit.period},
                    period=limit.period,
                    limit_minutes=limit.value,
                )
        elif used + c.amount > limit.value:
            remaining = max(0, limit.value - used)
            c.deny(
                f"{kind}_limit",
                {"limit_cents": limit.value, "period": limit.period, "remaining_cents": remaining},
                period=limit.period,
                limit_cents=limit.value,
                remaining_cents=remaining,
            )


def _check_deposit_limits(c: _Context) -> None:
    _limit_check(c, "deposit", lambda s, e: _players().deposited_cents(c.account, s, e))


def _check_loss_limits(c: _Context) -> None:
    _limit_check(c, "loss", lambda s, e: _players().net_loss_cents(c.account, s, e))


def _check_time_limits(c: _Context) -> None:
    _limit_check(c, "time", lambda s, e: _players().play_seconds(c.player, s, e, c.now))


def _check_cap(c: _Context) -> None:
    room = _players().cap_room(c.account.balance_cents, c.account.cap_cents)
    c.allowed_amount = room
    if c.amount > room:
        c.deny(
            "balance_cap",
            {"cap_cents": c.account.cap_cents, "room_cents": room},
            allowed_cents=room,
            cap_cents=c.account.cap_cents,
        )


def _check_cap_split(c: _Context) -> None:
    if c.account is None:
        c.deny("no_account")
        return
    credited, diverted = _players().split_credit(c.amount, c.account.balance_cents, c.account.cap_cents)
    c.allowed_amount = credited
    if diverted:
        # Not a refusal: a note on an allowed decision, so the log says why the credit was split.
        c.reasons.append(_reason("balance_cap_diverted", {"diverted_cents": diverted}, diverted_cents=diverted))


_CHECK_FUNCTIONS = {
    "account": _check_account,
    "age": _check_age,
    "verification": _check_verification,
    "registries": _check_registries,
    "self_exclusion": _check_self_exclusion,
    "session": _check_session,
    "reminder": _check_reminder,
    "deposit_limits": _check_deposit_limits,
    "loss_limits": _check_loss_limits,
    "time_limits": _check_time_limits,
    "cap": _check_cap,
    "cap_split": _check_cap_split,
}
# Checks that need the account and player; skipped when the account check already failed.
_NEEDS_ACCOUNT = {"deposit_limits", "loss_limits", "time_limits", "cap", "session", "reminder"}


def screen(
    person,
    action: str,
    amount_cents: int = 0,
    *,
    account=None,
    session=None,
    now: dt.datetime | None = None,
    actor: Any = None,
) -> Decision:
    """Decide whether `person` may do `action` (for `amount_cents`), log the decision and return it.

    `person` may be unsaved (registration). `account` defaults to the person's game account, and a
    stake needs the `session` it is placed in.
    """
    if action not in CHECKS:
        raise ValueError(f"Unknown screening action {action!r}")
    now = now or timezone.now()
    c = _Context(person, action, int(amount_cents or 0), account, session, now)
    for name in CHECKS[action]:
        if name in _NEEDS_ACCOUNT and (c.player is None or c.account is None):
            continue
        _CHECK_FUNCTIONS[name](c)
    denials = [r for r in c.reasons if r["code"] != "balance_cap_diverted"]
    allowed = not denials
    actor_repr = (
        actor
        if isinstance(actor, str)
        else (actor.get_username() if actor is not None else "system:screening")
    )
    record = ScreeningDecision.objects.create(
        created_at=now,
        action=action,
        person=person if person.pk else None,
        identifier_hash=person.national_id_hash,
        amount_cents=c.amount,
        allowed=allowed,
        reasons=c.reasons,
        actor_repr=actor_repr[:150],
    )
    codes = {r["code"] for r in denials}
    if codes & (EXCLUSION_CODES | {"registry_unavailable"}):
        audit_record(
            actor=actor if actor is not None else "system:screening",
            action=(
                "screening.excluded_attempt" if codes & EXCLUSION_CODES else "screening.registry_unavailable"
            ),
            obj=person if person.pk else None,
            object_type="" if person.pk else "players.person",
            object_repr="" if person.pk else "(not registered)",
            data={
                "decision": record.pk,
                "action": action,
                "amount_cents": c.amount,
                "identifier_hash": person.national_id_hash,
                "reasons": c.reasons,
            },
            significant=True,
        )
    return Decision(allowed=allowed, reasons=c.reasons, allowed_amount_cents=c.allowed_amount, record=record)
