"""Draw lifecycle (DESIGN §3): schedule, sales, result entry and confirmation, cancellation, correction.

planned -> open -> closed -> result_entered -> result_confirmed -> settled -> approved -> paid,
with cancelled (stakes refunded, §8) and corrected (a new settlement version, §27). Every transition
locks the draw row, checks the state and the person, changes it and writes its audit event in one
transaction; a refusal raises DrawStateError or FourEyesError with a message fit for staff.

The second person's steps go through `compliance.approvals`: entering a result requests an approval of
kind `lottery.result`, requesting a correction one of kind `lottery.correction`; `result_confirm`,
`result_reject`, `correction_confirm` and `correction_reject` find the pending request and decide it
(or withdraw it, for its requester), and the handlers registered at the end of this module do the work
in the decider's transaction, whether the decision comes from here or from the approvals page.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from compliance.approvals import (
    ApprovalRefused,
    approval_cancel,
    approval_decide,
    approval_pending_for,
    approval_request,
    approval_void,
    register_approval_handler,
)
from compliance.approvals import FourEyesError as ApprovalFourEyesError
from compliance.audit import audit_record
from compliance.bounds import INT_MAX
from compliance.errors import either, lazy_cents, lazy_format
from compliance.jobs import job_enqueue
from compliance.models import Approval
from compliance.money import format_cents

from .. import approval_words
from ..approval_kinds import CORRECTION_KIND, LARGE_WIN_KIND, PAYOUT_KIND, RESULT_KIND
from ..formats import UnsupportedGame
from ..games import registry
from ..games.messages import domain_message
from ..models import (
    GAME_CHOICES,
    Draw,
    DrawMethod,
    DrawResult,
    DrawState,
    Game,
    ResultStatus,
    RunState,
    SettlementRun,
    WagerRefund,
)
from ..rules.errors import RulesError
from ..rules.jsonio import calculate_round
from ..rules.rulesets import GAMES, default_params
from ..selectors import ruleset_effective
from . import settlement as settlement_service
from .errors import DrawError, DrawInputError, DrawStateError, FourEyesError

S = DrawState
CORRECTABLE = (S.RESULT_CONFIRMED, S.SETTLED, S.APPROVED, S.PAID, S.CORRECTED)
# Four-eyes kinds (compliance.approvals) of this module; payouts.py has lottery.payout and lottery.large_win.
# Refusals said in more than one place.
NO_JACKPOT = _("%(game)s has no jackpot: rule version %(ruleset)s pays no jackpot class.")
ENTERED_IT = _("You entered this result of %(draw)s; a different user must confirm it (four-eyes rule).")
REQUESTED_IT = _("You requested this correction of %(draw)s; a different user must confirm it.")
SALES_OVER = _("The sales period is already over (sales closed at %(time)s): a draw is scheduled with a sales "
               "close time in the future.")
NO_CORRECTION = _("No correction of %(draw)s is awaiting confirmation.")


# ------------------------------------------------------------------------------------------------
# helpers
# ------------------------------------------------------------------------------------------------

def _local(value: dt.datetime) -> str:
    """A time in the operator's zone, the same form in every language (it goes into messages)."""
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M")


def lock_draw(draw: Draw | int) -> Draw:
    pk = draw.pk if isinstance(draw, Draw) else draw
    return Draw.objects.select_for_update().select_related("game", "ruleset").get(pk=pk)


def require_state(draw: Draw, allowed: tuple[str, ...], doing: Any) -> None:
    """Refuse unless the draw is in one of the `allowed` states; `doing` is a translatable phrase
    ("entering the result"). The state names are the model's labels, shown in the reader's language."""
    if draw.state not in allowed:
        raise DrawStateError(
            _("%(draw)s is %(state)s: %(doing)s needs a draw that is %(wanted)s."),
            draw=str(draw), state=DrawState(draw.state).label, doing=doing,
            wanted=either(*(DrawState(s).label for s in allowed)),
        )


def staff_person(actor: Any, doing: Any) -> AbstractBaseUser:
    if isinstance(actor, str) or actor is None or not getattr(actor, "is_authenticated", False):
        raise FourEyesError(_("%(doing)s is a four-eyes step: it must be done by a signed-in staff member."),
                            doing=doing)
    return actor


def _transition(draw: Draw, new: str, *, actor, action: str, data=None, significant=False, approver=None,
                request=None, fields=()) -> None:
    old = draw.state
    draw.state = new
    draw.save(update_fields=["state", "updated_at", *fields])
    audit_record(actor=actor, action=action, obj=draw, before={"state": old}, after={"state": new},
                 data=data, significant=significant, approver=approver, request=request)


def _has_jackpot_class(draw: Draw) -> bool:
    return draw.has_jackpot


def next_draw(draw: Draw) -> Draw | None:
    """The next draw of the same game (by draw time) that is not cancelled: it inherits rollovers."""
    return (
        Draw.objects.filter(game_id=draw.game_id, draw_at__gt=draw.draw_at)
        .exclude(state=S.CANCELLED)
        .order_by("draw_at", "number")
        .first()
    )


def previous_draw(draw: Draw) -> Draw | None:
    return (
        Draw.objects.filter(game_id=draw.game_id, draw_at__lt=draw.draw_at)
        .exclude(state=S.CANCELLED)
        .order_by("-draw_at", "-number")
        .first()
    )


def hand_over_rollover(*, actor, source: Draw, rollover: Mapping[str, int], reason: str) -> Draw | None:
    """Give the next draw of the game the rollovers of `source` (settled or cancelled).

    A next draw whose result is already confirmed cannot take them any more: that is recorded as a
    significant event for staff to correct. With no next draw yet, the draw scheduled next takes them.
    """
    target = next_draw(source)
    rollover = {str(k): int(v) for k, v in rollover.items() if int(v) > 0}
    if target is None:
        return None
    target = lock_draw(target)
    if target.state not in (S.PLANNED, S.OPEN, S.CLOSED, S.RESULT_ENTERED):
        if (target.rollover_in or {}) != rollover:
            audit_record(
                actor=actor, action="lottery.rollover_not_handed_over", obj=target, significant=True,
                data={"from_draw": source.pk, "rollover": rollover, "had": target.rollover_in, "reason": reason},
            )
        return None
    before = {"rollover_in": target.rollover_in, "rollover_from": target.rollover_from_id}
    target.rollover_in = rollover
    target.rollover_from = source if rollover else None
    target.save(update_fields=["rollover_in", "rollover_from", "updated_at"])
    audit_record(actor=actor, action="lottery.rollover_handed_over", obj=target, before=before,
                 after={"rollover_in": rollover, "rollover_from": source.pk}, data={"reason": reason})
    return target


def _pending_rollover(game: Game, draw_at: dt.datetime) -> tuple[Draw | None, dict[str, int]]:
    """Rollovers of the previous draw that no later draw has taken yet (it was settled or cancelled
    before this draw was scheduled)."""
    prev = (
        Draw.objects.filter(game=game, draw_at__lt=draw_at)
        .exclude(state=S.CANCELLED)
        .order_by("-draw_at")
        .first()
    )
    if prev is None or prev.state not in (S.SETTLED, S.APPROVED, S.PAID):
        return None, {}
    if Draw.objects.filter(rollover_from=prev).exists():
        return None, {}

    run = settlement_service.settled_run(prev)
    if run is None:
        return None, {}
    out = {t.class_key: t.rollover_out_cents for t in run.tiers.all() if t.rollover_out_cents > 0}
    return (prev, out) if out else (None, {})


# ------------------------------------------------------------------------------------------------
# games
# ------------------------------------------------------------------------------------------------

def games_sync() -> list[Game]:
    """Create or refresh the Game rows from the digest's games and formats (after every migrate)."""

    names = dict(GAME_CHOICES)
    out = {}
    for code in GAMES:
        fmt = default_params(code).get("format", {})
        params = default_params(code)
        values = {
            "name": names.get(code, code),
            "main_count": fmt.get("numbers") or fmt.get("drawn") or fmt.get("digits") or 0,
            "main_max": fmt.get("max") or fmt.get("number_max") or 0,
            "secondary_count": fmt.get("stars") or (1 if fmt.get("viking_max") else 0),
            "secondary_max": fmt.get("star_max") or fmt.get("viking_max") or 0,
            "has_additional": bool(fmt.get("additional")),
            "plus_max": fmt.get("plus_max") if params.get("plussa") else None,
        }
        game, _created = Game.objects.update_or_create(code=code, defaults=values)
        out[code] = game
    for spec in registry.all():  # §2: the games each game takes as add-ons, as its spec declares
        if spec.addons and spec.code in out:
            out[spec.code].addons.set([out[a] for a in spec.addons])
    return list(out.values())


# ------------------------------------------------------------------------------------------------
# scheduling and sales
# ------------------------------------------------------------------------------------------------

@transaction.atomic
def _check_jackpot_bounds(jackpot_cents: int | None) -> None:
    """A jackpot is never negative nor above LOTTERY_JACKPOT_MAX_CENTS, whoever asks (page, API,
    command) and whatever a second person would approve."""
    if jackpot_cents is None:
        return
    if jackpot_cents < 0:
        raise DrawInputError(_("The jackpot cannot be negative."))
    if jackpot_cents > settings.LOTTERY_JACKPOT_MAX_CENTS:
        raise DrawInputError(_("The jackpot cannot be above %(max)s € (LOTTERY_JACKPOT_MAX_CENTS)."),
                             max=lazy_cents(settings.LOTTERY_JACKPOT_MAX_CENTS, symbol=False))


def draw_schedule(
    *,
    actor,
    game: Game | str,
    number: int,
    sales_open_at: dt.datetime,
    sales_close_at: dt.datetime,
    draw_at: dt.datetime,
    jackpot_cents: int | None = None,
    ruleset=None,
    main_draw: Draw | None = None,
    now: dt.datetime | None = None,
    request=None,
) -> Draw:
    """Plan a draw. The rule version defaults to the one in force on the draw date (operator's zone);
    an add-on draw is linked to the main draw whose sales close at the same time (§2).

    A draw whose sales period is already over at `now` is refused: it could never open for sales and
    would wait in "planned" for ever. `now` is the scheduling time (default: the clock); the demo,
    the benchmarks and the fault drill, which build draws of the past, pass the time they were planned."""

    if not isinstance(game, Game):
        game = Game.objects.filter(code=game).first()
        if game is None:
            raise DrawInputError(_("Unknown game."))
    for name, value in ((_("The sales open time"), sales_open_at), (_("The sales close time"), sales_close_at),
                        (_("The draw time"), draw_at)):
        if value is None or timezone.is_naive(value):
            raise DrawInputError(_("%(name)s must be a date and time with its zone."), name=name)
    if not sales_open_at < sales_close_at <= draw_at:
        raise DrawInputError(_("Sales must open before they close, and close no later than the draw."))
    now = now or timezone.now()
    if sales_close_at <= now:
        over = lazy_format(SALES_OVER, time=_local(sales_close_at))
        raise DrawInputError(SALES_OVER, time=_local(sales_close_at), fields={"sales_close_at": [over]})
    if number is None or not 1 <= int(number) <= INT_MAX:
        raise DrawInputError(_("The draw number must be a whole number from 1 to %(max)s."), max=f"{INT_MAX:,}")
    _check_jackpot_bounds(jackpot_cents)
    if Draw.objects.filter(game=game, number=number).exists():
        raise DrawInputError(_("%(game)s draw #%(number)s already exists."), game=game.name, number=number)
    if jackpot_cents is not None and jackpot_cents < 0:
        raise DrawInputError(_("The jackpot cannot be negative."))
    if ruleset is None:
        ruleset = ruleset_effective(game.code, timezone.localtime(draw_at).date())
        if ruleset is None:
            raise DrawInputError(_("%(game)s has no rule version in force on %(date)s."),
                                 game=game.name, date=_local(draw_at)[:10])
    elif ruleset.game != game.code:
        raise DrawInputError(_("Rule version %(ruleset)s is not a %(game)s version."),
                             ruleset=str(ruleset), game=game.name)
    if jackpot_cents is not None and not any(c.get("kind") == "jackpot" for c in ruleset.params.get("classes", [])):
        raise DrawInputError(NO_JACKPOT, game=game.name, ruleset=str(ruleset))
    if main_draw is not None:
        if not game.addon_to.filter(pk=main_draw.game_id).exists():
            raise DrawInputError(_("%(game)s is not an add-on game of %(main)s."),
                                 game=game.name, main=main_draw.game.name)
        if main_draw.sales_close_at != sales_close_at:
            raise DrawInputError(_("An add-on draw's sales close at the same time as its main draw's (§2)."))
    elif game.addon_to.exists():
        candidates = list(
            Draw.objects.filter(game__in=game.addon_to.all(), sales_close_at=sales_close_at).exclude(state=S.CANCELLED)
        )
        main_draw = candidates[0] if len(candidates) == 1 else None
    source, rollover = _pending_rollover(game, draw_at)
    draw = Draw.objects.create(
        game=game,
        number=number,
        sales_open_at=sales_open_at,
        sales_close_at=sales_close_at,
        draw_at=draw_at,
        ruleset=ruleset,
        jackpot_cents=jackpot_cents,
        main_draw=main_draw,
        rollover_in=rollover,
        rollover_from=source,
    )
    linked = 0
    if game.addons.exists():
        linked = Draw.objects.filter(
            game__in=game.addons.all(), sales_close_at=sales_close_at, main_draw__isnull=True
        ).exclude(state=S.CANCELLED).update(main_draw=draw)
    audit_record(
        actor=actor,
        action="lottery.draw_scheduled",
        obj=draw,
        after={
            "game": game.code, "number": number, "sales_open_at": sales_open_at, "sales_close_at": sales_close_at,
            "draw_at": draw_at, "ruleset": ruleset.version, "jackpot_cents": jackpot_cents,
            "main_draw": main_draw.pk if main_draw else None, "rollover_in": rollover,
        },
        data={"addon_draws_linked": linked},
        request=request,
    )
    return draw


@transaction.atomic
def draw_set_jackpot(*, actor, draw: Draw, jackpot_cents: int | None, to_highest_class: bool | None = None,
                     approver=None, request=None) -> Draw:
    """Confirm the round's jackpot (§28, §31, §35) and the operator's choice to pay an unwon jackpot
    in the highest winning class. Possible until the result is confirmed. A jackpot above
    LOTTERY_JACKPOT_APPROVAL_CENTS is only requested here (`draw.jackpot_pending` is then true) and set
    when a second person approves it (issue 14 item 8)."""
    _check_jackpot_bounds(jackpot_cents)
    draw = lock_draw(draw)
    draw.jackpot_pending = False
    if (jackpot_cents is not None and approver is None
            and jackpot_cents > settings.LOTTERY_JACKPOT_APPROVAL_CENTS):
        require_state(draw, (S.PLANNED, S.OPEN, S.CLOSED, S.RESULT_ENTERED), _("setting the jackpot"))
        if approval_pending_for(kind=JACKPOT_KIND, obj=draw) is not None:
            raise DrawStateError(_("A jackpot of %(draw)s already waits for a second person's approval."),
                                 draw=str(draw))
        approval_request(actor=actor, kind=JACKPOT_KIND, obj=draw,
                         payload={"jackpot_cents": jackpot_cents, "to_highest_class": to_highest_class,
                                  "was": draw.jackpot_cents},
                         reason=f"Jackpot of {draw}: {format_cents(jackpot_cents, language='en')}", request=request)
        draw.jackpot_pending = True
        return draw
    require_state(draw, (S.PLANNED, S.OPEN, S.CLOSED, S.RESULT_ENTERED), _("setting the jackpot"))
    if not draw.has_jackpot:
        raise DrawInputError(NO_JACKPOT, game=draw.game.name, ruleset=str(draw.ruleset))
    if jackpot_cents is not None and jackpot_cents < 0:
        raise DrawInputError(_("The jackpot cannot be negative."))
    # A rule version may bound the jackpot of its first class (Milli's, §31).
    limit = (draw.ruleset.params.get("classes") or [{}])[0].get("max_jackpot")
    if limit is not None and jackpot_cents is not None and jackpot_cents > (limit_cents := int(Decimal(limit) * 100)):
        raise DrawInputError(_("The %(game)s jackpot is at most %(limit)s (§31)."), game=draw.game.name,
                             limit=lazy_cents(limit_cents))
    before = {"jackpot_cents": draw.jackpot_cents, "jackpot_to_highest_class": draw.jackpot_to_highest_class}
    draw.jackpot_cents = jackpot_cents
    if to_highest_class is not None:
        draw.jackpot_to_highest_class = to_highest_class
    draw.save(update_fields=["jackpot_cents", "jackpot_to_highest_class", "updated_at"])
    audit_record(actor=actor, action="lottery.jackpot_set", obj=draw, before=before,
                 after={"jackpot_cents": draw.jackpot_cents, "jackpot_to_highest_class": draw.jackpot_to_highest_class},
                 approver=approver, significant=approver is not None, request=request)
    return draw


JACKPOT_KIND = "lottery.jackpot"


def _jackpot_approved(approval, *, approver) -> None:
    draw = Draw.objects.get(pk=int(approval.target_id))
    p = approval.payload
    try:
        draw_set_jackpot(actor=approval.requested_by or approval.requested_by_repr, draw=draw,
                         jackpot_cents=p["jackpot_cents"], to_highest_class=p.get("to_highest_class"),
                         approver=approver)
    except DrawError as exc:
        raise ApprovalRefused(exc.template, code=exc.code, status=exc.status, **exc.params) from None


register_approval_handler(JACKPOT_KIND, _jackpot_approved, permission="lottery.manage_draw",
                          title=approval_words.JACKPOT_TITLE, describe=approval_words.describe_jackpot)


CENTRAL_KEYS = ("common_pools", "central", "prize_pool")


@transaction.atomic
def draw_set_central_inputs(*, actor, draw: Draw, inputs: Mapping[str, Any], request=None) -> Draw:
    """Record the multinational central system's figures for the round (§26; Vikinglotto common pools,
    imported prizes, the Eurojackpot prize pool), as the prize engine takes them."""

    draw = lock_draw(draw)
    require_state(draw, (S.PLANNED, S.OPEN, S.CLOSED, S.RESULT_ENTERED, S.RESULT_CONFIRMED, S.CORRECTED),
             _("recording the central system's figures"))
    if SettlementRun.objects.filter(draw=draw, state=RunState.RUNNING).exists():
        raise DrawStateError(_("%(draw)s is being settled; record the figures when the run has stopped."),
                             draw=str(draw))
    unknown = sorted(set(inputs) - set(CENTRAL_KEYS))
    if unknown:
        raise DrawInputError(_("Unknown fields %(unknown)s; allowed: %(allowed)s."),
                             unknown=", ".join(unknown), allowed=", ".join(CENTRAL_KEYS))
    clean = {k: v for k, v in inputs.items() if v not in (None, "", {})}
    try:
        calculate_round({"game": draw.game.code, "turnover": "0.00", **clean}, draw.ruleset.params)
    except RulesError as exc:
        raise DrawInputError(str(exc)) from None
    before = draw.central_inputs
    draw.central_inputs = clean
    draw.save(update_fields=["central_inputs", "updated_at"])
    audit_record(actor=actor, action="lottery.central_inputs_set", obj=draw, before=before, after=clean,
                 request=request)
    return draw


@transaction.atomic
def draw_open_sales(*, actor, draw: Draw, now: dt.datetime | None = None, request=None) -> Draw:
    draw = lock_draw(draw)
    now = now or timezone.now()
    require_state(draw, (S.PLANNED,), _("opening sales"))
    if now < draw.sales_open_at:
        raise DrawStateError(_("Sales of %(draw)s open at %(time)s, not before."),
                             draw=str(draw), time=_local(draw.sales_open_at))
    if now >= draw.sales_close_at:
        raise DrawStateError(_("Sales of %(draw)s closed at %(time)s; they cannot open now."),
                             draw=str(draw), time=_local(draw.sales_close_at))
    _transition(draw, S.OPEN, actor=actor, action="lottery.sales_opened", request=request)
    return draw


@transaction.atomic
def draw_close_sales(*, actor, draw: Draw, now: dt.datetime | None = None, request=None) -> Draw:
    draw = lock_draw(draw)
    now = now or timezone.now()
    require_state(draw, (S.OPEN,), _("closing sales"))
    if now < draw.sales_close_at:
        raise DrawStateError(_("Sales of %(draw)s close at %(time)s, not before."),
                             draw=str(draw), time=_local(draw.sales_close_at))
    _transition(draw, S.CLOSED, actor=actor, action="lottery.sales_closed", request=request)
    return draw


def close_due_draws(*, actor: str = "system:draw_clock", now: dt.datetime | None = None) -> dict[str, int]:
    """Open planned draws whose sales have started and close open draws whose sales have ended.

    Run every minute by beat; each draw in its own transaction, so one failure stops nothing else,
    and running it twice does nothing more (the state is checked under the row lock).
    """
    now = now or timezone.now()
    opened = closed = 0
    due_open = Draw.objects.filter(state=S.PLANNED, sales_open_at__lte=now).order_by("sales_close_at", "pk")
    for pk in due_open.values_list("pk", flat=True):
        try:
            with transaction.atomic():
                draw = lock_draw(pk)
                if draw.state == S.PLANNED:
                    # A draw whose whole sales window passed unopened still opens, then closes below.
                    _transition(draw, S.OPEN, actor=actor, action="lottery.sales_opened")
                    opened += 1
        except Exception:  # noqa: BLE001 - logged, the next tick tries again
            import logging

            logging.getLogger(__name__).exception("could not open sales of draw %s", pk)
    due_close = Draw.objects.filter(state=S.OPEN, sales_close_at__lte=now).order_by("sales_close_at", "pk")
    for pk in due_close.values_list("pk", flat=True):
        try:
            draw_close_sales(actor=actor, draw=pk, now=now)
            closed += 1
        except DrawStateError:
            pass  # someone else closed it meanwhile
    return {"opened": opened, "closed": closed}


# ------------------------------------------------------------------------------------------------
# results (four eyes)
# ------------------------------------------------------------------------------------------------

def _parse(draw: Draw, numbers: Mapping[str, Any]):
    try:
        return registry.get(draw.game.code).codec.parse_result(draw.ruleset.params, numbers)
    except UnsupportedGame as exc:
        raise DrawInputError(str(exc)) from None
    except RulesError as exc:  # the engine's or the codec's: translated by its code where known
        template, params = domain_message(exc)
        raise DrawInputError(template, **params) from None


def _next_result_version(draw: Draw) -> int:
    return (DrawResult.objects.filter(draw=draw).aggregate(m=Max("version"))["m"] or 0) + 1


@transaction.atomic
def result_enter(*, actor, draw: Draw, numbers: Mapping[str, Any], draw_method: str, witnesses: str,
                 now: dt.datetime | None = None, request=None) -> DrawResult:
    """First step: a Draw supervisor or Operator enters the result, the draw method and witnesses (§10).
    A second person's approval of kind `lottery.result` is requested in the same transaction."""
    user = staff_person(actor, _("Entering a result"))
    draw = lock_draw(draw)
    now = now or timezone.now()
    require_state(draw, (S.CLOSED,), _("entering the result"))
    busy = draw.retail_imports.filter(state__in=("queued", "running")).order_by("pk").first()
    if busy is not None:  # its lines would miss the settlement; it is refused once a result is in
        raise DrawStateError(_("A retail sales file is still being imported for %(draw)s (import %(import)s, "
                               "%(file)s); enter the result once it has finished."),
                             draw=str(draw), file=busy.file_name, **{"import": busy.pk})
    if draw.game.code not in registry.REGISTRY:
        raise DrawInputError(_("%(game)s results are not supported by the draw pipeline."), game=draw.game.name)
    if now < draw.draw_at:
        raise DrawStateError(_("%(draw)s is drawn at %(time)s; enter its result after that."),
                             draw=str(draw), time=_local(draw.draw_at))
    if draw_method not in DrawMethod.values:
        raise DrawInputError(_("Say how the draw was made: draw device, draw system or by hand (§10)."))
    if not (witnesses or "").strip():
        raise DrawInputError(_("Name the witnesses or the evidence of the draw (§10)."))
    parsed = _parse(draw, numbers)
    result = DrawResult.objects.create(
        draw=draw, version=_next_result_version(draw), status=ResultStatus.ENTERED, numbers=parsed.numbers,
        main_mask=parsed.main_mask, additional_mask=parsed.additional_mask, secondary_mask=parsed.secondary_mask,
        plus=parsed.plus, entered_by=user, entered_at=now,
    )
    draw.draw_method = draw_method
    draw.witnesses = witnesses.strip()
    _transition(draw, S.RESULT_ENTERED, actor=user, action="lottery.result_entered", request=request,
                data={"version": result.version, "numbers": parsed.numbers, "draw_method": draw_method,
                      "witnesses": draw.witnesses},
                fields=("draw_method", "witnesses"))
    approval_request(actor=user, kind=RESULT_KIND, obj=result, request=request,
                     payload={"draw": draw.pk, "version": result.version, "numbers": parsed.numbers,
                              "draw_method": draw_method, "witnesses": draw.witnesses},
                     reason=f"Confirm the result of {draw}")
    return result


def result_confirm(*, actor, draw: Draw, now: dt.datetime | None = None, request=None) -> DrawResult:
    """Second step: a different user approves the pending `lottery.result` request; its handler
    (`_result_approved`) confirms the result and queues settlement version 1, in the same transaction."""
    user = staff_person(actor, _("Confirming a result"))
    draw, result = _entered_result(draw, _("confirming the result"))
    approval = pending_approval(RESULT_KIND, result, lazy_format(_("the result of %(draw)s"), draw=str(draw)))
    if approval.requested_by_id == user.pk or result.entered_by_id == user.pk:
        raise FourEyesError(ENTERED_IT, draw=str(draw))
    decide_approval(approval, actor=user, approve=True, now=now, request=request)
    return DrawResult.objects.select_related("entered_by", "confirmed_by").get(pk=result.pk)


def result_reject(*, actor, draw: Draw, reason: str = "", now: dt.datetime | None = None, request=None) -> DrawResult:
    """The checker rejects the pending `lottery.result` request (or the person who entered it withdraws
    it); either way the result is rejected and the draw is closed again for a new entry."""
    user = staff_person(actor, _("Rejecting a result"))
    draw, result = _entered_result(draw, _("rejecting the entered result"))
    approval = pending_approval(RESULT_KIND, result, lazy_format(_("the result of %(draw)s"), draw=str(draw)))
    _reject_or_withdraw(approval, user, reason, now, request)
    return DrawResult.objects.get(pk=result.pk)


def result_withdraw(*, actor, draw: Draw, reason: str = "", now: dt.datetime | None = None,
                    request=None) -> DrawResult:
    """The person who entered a result withdraws it before it is confirmed (a typing mistake they saw
    themselves): their four-eyes request is cancelled, the result is rejected and the draw is closed
    again, awaiting its result (audited as `approval.cancelled` and `lottery.result_withdrawn`). Only
    the enterer, and only while the result waits for confirmation."""
    user = staff_person(actor, _("Withdrawing a result"))
    draw, result = _entered_result(draw, _("withdrawing the entered result"))
    if result.entered_by_id != user.pk:
        raise FourEyesError(_("Only the person who entered the result of %(draw)s can withdraw it; a checker "
                              "rejects it instead."), draw=str(draw))
    approval = pending_approval(RESULT_KIND, result, lazy_format(_("the result of %(draw)s"), draw=str(draw)))
    _withdraw(approval, actor=user, note=reason, now=now, request=request)
    return DrawResult.objects.get(pk=result.pk)


def _reject_or_withdraw(approval, user, reason: str, now, request) -> None:
    """Its requester withdraws a pending request; anyone else (the checker) rejects it."""
    if approval.requested_by_id == user.pk:
        _withdraw(approval, actor=user, note=reason, now=now, request=request)
    else:
        decide_approval(approval, actor=user, approve=False, note=reason, now=now, request=request)


def _entered_result(draw: Draw | int, doing: str) -> tuple[Draw, DrawResult]:
    """The draw and its entered result, read without locks: the handler locks and checks again."""
    draw = Draw.objects.select_related("game", "ruleset").get(pk=draw.pk if isinstance(draw, Draw) else draw)
    require_state(draw, (S.RESULT_ENTERED,), doing)
    result = DrawResult.objects.filter(draw=draw, status=ResultStatus.ENTERED).first()
    if result is None:
        raise DrawStateError(_("%(draw)s has no entered result awaiting confirmation."), draw=str(draw))
    return draw, result


def _result_approved(approval: Approval, *, approver) -> None:
    """Handler of `lottery.result` (approved): the entered result becomes the confirmed one and
    settlement version 1 is queued (sent to a worker after commit)."""

    draw = lock_draw(approval.payload["draw"])
    result = DrawResult.objects.select_for_update().select_related("entered_by").get(pk=approval.target_id)
    require_state(draw, (S.RESULT_ENTERED,), _("confirming the result"))
    if result.status != ResultStatus.ENTERED:
        raise DrawStateError(_("%(result)s is %(status)s; only an entered result is confirmed."),
                             result=str(result), status=ResultStatus(result.status).label)
    if result.entered_by_id == approver.pk:
        raise FourEyesError(ENTERED_IT, draw=str(draw))
    if _has_jackpot_class(draw) and draw.jackpot_cents is None:
        raise DrawStateError(_("Confirm the jackpot of %(draw)s before confirming its result."), draw=str(draw))
    result.status = ResultStatus.CONFIRMED
    result.confirmed_by = approver
    result.confirmed_at = approval.decided_at
    result.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    _transition(draw, S.RESULT_CONFIRMED, actor=requester(approval), approver=approver,
                action="lottery.result_confirmed",
                data={"version": result.version, "numbers": result.numbers, "approval": approval.pk,
                      "entered_by": result.entered_by.get_username(), "confirmed_by": approver.get_username()})
    run = settlement_service.run_create(draw=draw, result=result, actor=approver)
    settlement_service.enqueue(run)


def _result_rejected(approval: Approval, *, approver=None, actor=None) -> None:
    """Handler of `lottery.result` (rejected by the checker, or withdrawn by the enterer): the result is
    rejected and the draw is closed again; the next entry is the next result version."""
    who = approver or actor
    draw = lock_draw(approval.payload["draw"])
    result = DrawResult.objects.select_for_update().get(pk=approval.target_id)
    require_state(draw, (S.RESULT_ENTERED,), _("rejecting the entered result"))
    if result.status != ResultStatus.ENTERED:
        raise DrawStateError(_("%(result)s is %(status)s; only an entered result is rejected."),
                             result=str(result), status=ResultStatus(result.status).label)
    result.status = ResultStatus.REJECTED
    result.rejected_by = who
    result.rejected_at = approval.decided_at
    result.reason = approval.note
    result.save(update_fields=["status", "rejected_by", "rejected_at", "reason"])
    _transition(draw, S.CLOSED, actor=requester(approval), approver=approver,
                action="lottery.result_rejected" if approver is not None else "lottery.result_withdrawn",
                data={"version": result.version, "reason": approval.note, "approval": approval.pk,
                      "rejected_by": who.get_username(), "withdrawn": approver is None})


# ------------------------------------------------------------------------------------------------
# cancellation (§8)
# ------------------------------------------------------------------------------------------------

@transaction.atomic
def draw_cancel(*, actor, draw: Draw, reason: str, request=None) -> Draw:
    """The draw cannot be conducted: every stake of its lines is owed back (§8), one refund per wager.
    A result awaiting confirmation is rejected and its four-eyes request made void."""
    draw_id = draw.pk if isinstance(draw, Draw) else draw
    lock_draw_approvals(draw_id, (RESULT_KIND,))  # approval rows before the draw row, as approval_decide
    draw = lock_draw(draw)
    require_state(draw, (S.PLANNED, S.OPEN, S.CLOSED, S.RESULT_ENTERED), _("cancelling"))
    if not (reason or "").strip():
        raise DrawInputError(_("Give the reason the draw cannot be conducted."))
    now = timezone.now()
    for pending in lock_draw_approvals(draw.pk, (RESULT_KIND,)):
        approval_void(actor=actor, approval=pending, reason="draw cancelled", now=now)
    DrawResult.objects.filter(draw=draw, status=ResultStatus.ENTERED).update(
        status=ResultStatus.REJECTED, reason="draw cancelled", rejected_at=now
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO lottery_wagerrefund (wager_id, draw_id, amount_cents, state, created_at) "
            "SELECT wager_id, %s, SUM(stake_cents + addon_cents), %s, %s FROM lottery_line "
            "WHERE draw_id = %s GROUP BY wager_id ORDER BY wager_id",
            [draw.pk, WagerRefund.State.DUE, now, draw.pk],
        )
    refunds = WagerRefund.objects.filter(draw=draw)
    count = refunds.count()
    total = sum(refunds.values_list("amount_cents", flat=True))
    draw.cancel_reason = reason.strip()
    _transition(draw, S.CANCELLED, actor=actor, action="lottery.draw_cancelled", significant=True,
                request=request, fields=("cancel_reason",),
                data={"reason": draw.cancel_reason, "refunds": count, "refund_cents": total})
    if draw.rollover_in:
        # The cancelled draw's inherited rollovers pass on to the next draw of the game.
        hand_over_rollover(actor=actor, source=draw, rollover=draw.rollover_in, reason="draw cancelled")
    if count:
        enqueue_refunds(draw.pk, actor=actor)
    return draw


def enqueue_refunds(draw_id: int, actor="system:payouts"):
    """Send the refunds of a cancelled draw to be paid (`lottery.tasks.pay_refunds`, a durable job keyed
    by the draw: a second call attaches to the first)."""
    return job_enqueue(kind="lottery.tasks.pay_refunds", key=f"lottery.pay_refunds:{int(draw_id)}",
                       args={"draw_id": int(draw_id)}, actor=actor)


# ------------------------------------------------------------------------------------------------
# correction (§27, four eyes)
# ------------------------------------------------------------------------------------------------

@transaction.atomic
def correction_request(*, actor, draw: Draw, numbers: Mapping[str, Any], reason: str,
                       now: dt.datetime | None = None, request=None) -> DrawResult:
    """A confirmed result was found wrong: propose the right one, with the reason. A second person's
    approval of kind `lottery.correction` is requested in the same transaction."""
    user = staff_person(actor, _("Correcting a result"))
    draw = lock_draw(draw)
    require_state(draw, CORRECTABLE, _("correcting the result"))
    if not (reason or "").strip():
        raise DrawInputError(_("Give the reason for the correction (§27)."))
    if DrawResult.objects.filter(draw=draw, status__in=[ResultStatus.ENTERED, ResultStatus.PROPOSED]).exists():
        raise DrawStateError(_("A correction of %(draw)s is already awaiting confirmation."), draw=str(draw))
    current = DrawResult.objects.get(draw=draw, status=ResultStatus.CONFIRMED)
    parsed = _parse(draw, numbers)
    if parsed.numbers == current.numbers:
        raise DrawInputError(_("The corrected result is the same as the confirmed one."))
    proposed = DrawResult.objects.create(
        draw=draw, version=_next_result_version(draw), status=ResultStatus.PROPOSED, numbers=parsed.numbers,
        main_mask=parsed.main_mask, additional_mask=parsed.additional_mask, secondary_mask=parsed.secondary_mask,
        plus=parsed.plus, reason=reason.strip(), entered_by=user, entered_at=now or timezone.now(),
    )
    audit_record(actor=user, action="lottery.correction_requested", obj=draw, significant=True, request=request,
                 before={"version": current.version, "numbers": current.numbers},
                 after={"version": proposed.version, "numbers": proposed.numbers}, data={"reason": proposed.reason})
    approval_request(actor=user, kind=CORRECTION_KIND, obj=proposed, request=request, reason=proposed.reason,
                     payload={"draw": draw.pk, "version": proposed.version, "numbers": proposed.numbers,
                              "replaces_version": current.version, "replaces_numbers": current.numbers})
    return proposed


def correction_confirm(*, actor, draw: Draw, now: dt.datetime | None = None, request=None) -> SettlementRun:
    """A second user approves the pending `lottery.correction` request; its handler
    (`_correction_approved`) replaces the result and queues settlement again as a new version
    (compared with the previous one in the correction report)."""
    user = staff_person(actor, _("Confirming a correction"))
    draw, proposed = _proposed_result(draw, "confirming a correction")
    approval = pending_approval(CORRECTION_KIND, proposed,
                                 lazy_format(_("the correction of %(draw)s"), draw=str(draw)))
    if approval.requested_by_id == user.pk or proposed.entered_by_id == user.pk:
        raise FourEyesError(REQUESTED_IT, draw=str(draw))
    decide_approval(approval, actor=user, approve=True, now=now, request=request)
    return SettlementRun.objects.filter(result_id=proposed.pk).order_by("-version").first()


def correction_reject(*, actor, draw: Draw, reason: str = "", now: dt.datetime | None = None, request=None) -> DrawResult:
    """The checker rejects the pending correction (or its requester withdraws it); the result stays."""
    user = staff_person(actor, _("Rejecting a correction"))
    draw, proposed = _proposed_result(draw, "rejecting a correction")
    approval = pending_approval(CORRECTION_KIND, proposed,
                                 lazy_format(_("the correction of %(draw)s"), draw=str(draw)))
    _reject_or_withdraw(approval, user, reason, now, request)
    return DrawResult.objects.get(pk=proposed.pk)


def _proposed_result(draw: Draw | int, doing: str) -> tuple[Draw, DrawResult]:
    """The draw and its proposed correction, read without locks: the handler locks and checks again."""
    draw = Draw.objects.select_related("game", "ruleset").get(pk=draw.pk if isinstance(draw, Draw) else draw)
    require_state(draw, CORRECTABLE, doing)
    proposed = DrawResult.objects.filter(draw=draw, status=ResultStatus.PROPOSED).first()
    if proposed is None:
        raise DrawStateError(NO_CORRECTION, draw=str(draw))
    return draw, proposed


def _correction_approved(approval: Approval, *, approver) -> None:
    """Handler of `lottery.correction` (approved): the proposed result replaces the confirmed one, unpaid
    payouts of earlier versions stop, requests about them become void, and a new settlement version
    is queued."""
    # payouts imports this module at its top (the four-eyes steps it shares), so it is read here, once
    # a correction is approved.
    from .payouts import supersede_unpaid

    draw_id = approval.payload["draw"]
    moot = lock_draw_approvals(draw_id, (PAYOUT_KIND, LARGE_WIN_KIND))  # approval rows before the draw row
    draw = lock_draw(draw_id)
    require_state(draw, CORRECTABLE, _("confirming a correction"))
    proposed = DrawResult.objects.select_for_update().select_related("entered_by").get(pk=approval.target_id)
    if proposed.status != ResultStatus.PROPOSED:
        raise DrawStateError(NO_CORRECTION, draw=str(draw))
    if proposed.entered_by_id == approver.pk:
        raise FourEyesError(REQUESTED_IT, draw=str(draw))
    if SettlementRun.objects.filter(draw=draw, state=RunState.RUNNING).exists():
        raise DrawStateError(_("%(draw)s is being settled; confirm the correction when the run has finished."),
                             draw=str(draw))
    now = approval.decided_at
    old = DrawResult.objects.select_for_update().get(draw=draw, status=ResultStatus.CONFIRMED)
    old.status = ResultStatus.SUPERSEDED
    old.save(update_fields=["status"])
    proposed.status = ResultStatus.CONFIRMED
    proposed.confirmed_by = approver
    proposed.confirmed_at = now
    proposed.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    SettlementRun.objects.filter(
        draw=draw, state__in=[RunState.PENDING, RunState.FAILED, RunState.HALTED]
    ).update(state=RunState.SUPERSEDED)
    why = f"result corrected to version {proposed.version}"
    frozen = supersede_unpaid(draw, reason=why, actor=approver)
    for pending in moot:  # a settlement awaiting its payout approval no longer counts
        if Approval.objects.filter(pk=pending.pk, state=Approval.State.REQUESTED).exists():
            approval_void(actor=approver, approval=pending, reason=why, now=now)
    _transition(draw, S.CORRECTED, actor=requester(approval), approver=approver, action="lottery.correction_confirmed",
                significant=True,
                data={"superseded_version": old.version, "version": proposed.version, "numbers": proposed.numbers,
                      "requested_by": proposed.entered_by.get_username(), "reason": proposed.reason,
                      "unpaid_payouts_stopped": frozen, "approval": approval.pk})
    run = settlement_service.run_create(draw=draw, result=proposed, actor=approver, previous=settlement_service.settled_run(draw))
    settlement_service.enqueue(run)


def _correction_rejected(approval: Approval, *, approver=None, actor=None) -> None:
    """Handler of `lottery.correction` (rejected, or withdrawn by its requester): the result stays."""
    who = approver or actor
    draw = lock_draw(approval.payload["draw"])
    proposed = DrawResult.objects.select_for_update().get(pk=approval.target_id)
    if proposed.status != ResultStatus.PROPOSED:
        raise DrawStateError(NO_CORRECTION, draw=str(draw))
    proposed.status = ResultStatus.REJECTED
    proposed.rejected_by = who
    proposed.rejected_at = approval.decided_at
    proposed.save(update_fields=["status", "rejected_by", "rejected_at"])
    audit_record(actor=requester(approval), approver=approver, action="lottery.correction_rejected", obj=draw,
                 data={"version": proposed.version, "reason": approval.note, "approval": approval.pk,
                       "rejected_by": who.get_username(), "withdrawn": approver is None})


# ------------------------------------------------------------------------------------------------
# four-eyes requests (compliance.approvals)
# ------------------------------------------------------------------------------------------------

def requester(approval: Approval):
    """Who asked, as the audit trail takes it: the person, or the job's name."""
    return approval.requested_by or approval.requested_by_repr


def draw_link(approval: Approval) -> str:

    draw_id = (approval.payload or {}).get("draw")
    return reverse("lottery:draw", args=[draw_id]) if draw_id else ""


def lock_draw_approvals(draw_id: int, kinds: tuple[str, ...]) -> list[Approval]:
    """The draw's pending requests of these kinds, locked in primary-key order. Steps that may make them
    void take these locks before the draw row, in the order `approval_decide` uses (the request, then
    the draw), so that a decision and such a step never wait for each other in a cycle."""
    return list(
        Approval.objects.select_for_update(of=("self",))
        .filter(state=Approval.State.REQUESTED, kind__in=kinds, payload__draw=draw_id)
        .order_by("pk")
    )


def pending_approval(kind: str, obj, what: str) -> Approval:
    approval = approval_pending_for(kind=kind, obj=obj)
    if approval is None:
        raise DrawStateError(_("No four-eyes request is pending for %(what)s."), what=what)
    return approval


def _as_draw_error(exc: ApprovalRefused) -> DrawError:
    if isinstance(exc, DrawError):
        return exc
    return (FourEyesError if isinstance(exc, ApprovalFourEyesError) else DrawStateError)(exc.template, **exc.params)


def decide_approval(approval: Approval, *, actor, approve: bool, note: str = "", now=None, request=None) -> Approval:
    """approval_decide, with the mechanism's refusals turned into the draw pipeline's errors."""
    try:
        return approval_decide(actor=actor, approval=approval, approve=approve, note=note, now=now, request=request)
    except ApprovalRefused as exc:
        error = _as_draw_error(exc)
        if error is exc:
            raise
        raise error from exc


def _withdraw(approval: Approval, *, actor, note: str = "", now=None, request=None) -> Approval:
    try:
        return approval_cancel(actor=actor, approval=approval, note=note, now=now, request=request)
    except ApprovalRefused as exc:
        error = _as_draw_error(exc)
        if error is exc:
            raise
        raise error from exc


register_approval_handler(RESULT_KIND, _result_approved, on_reject=_result_rejected, on_cancel=_result_rejected,
                          permission="lottery.confirm_result", link=draw_link,
                          title=approval_words.RESULT_TITLE, describe=approval_words.describe_result)
register_approval_handler(CORRECTION_KIND, _correction_approved, on_reject=_correction_rejected,
                          on_cancel=_correction_rejected, permission="lottery.correct_result", link=draw_link,
                          title=approval_words.CORRECTION_TITLE, describe=approval_words.describe_correction)
