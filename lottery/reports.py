"""The lottery report kinds: the payout report of one draw and the large wins of a period
(docs/compliance.md, "Reports"), and the fields they add to the reports page's request form (the
draw picker, the game). Registered with compliance's report machinery from LotteryConfig.ready().

Money columns end in `_cents`: integer cents in the CSV, euros in the PDF (`compliance.money`,
in the report's language; version 2 of both kinds). Coded values (payout
states) are codes in the CSV and translated labels in the PDF.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from compliance.bounds import BIGINT_MAX, INT_MAX
from compliance.models import Approval
from compliance.reports.kinds import (
    ReportData,
    ReportKind,
    checked_period,
    local,
    pdf_cell,
    period_bounds,
    zone,
)
from players.models import Player

from .games.registry import result_text
from .models import RETAIL, Draw, Game, Payout, RunState, SettlementRun, TierResult, Wager, Winning
from .selectors import payout_state_code
from .services.payouts import large_win_cents

# Payout states of the winners list that are not Payout.State values: the settlement is not yet
# approved for payout, or the line's prize did not change from what an earlier version paid.
UNAPPROVED = "unapproved"
UNCHANGED = "unchanged"


def who(user) -> str:
    """'Aino Virtanen (aino)', or the user name alone when the user has no name; '' for nobody."""
    if user is None:
        return ""
    name = user.get_full_name().strip()
    return f"{name} ({user.get_username()})" if name else user.get_username()


def _positive_int(value: Any, what: str) -> int:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise ValueError(gettext("%(what)s must be a whole number, not %(value)r.") % {"what": what, "value": value}) from None
    if number < 1:
        raise ValueError(gettext("%(what)s must be 1 or more.") % {"what": what})
    return number


def state_label(code: str) -> str:
    """Short labels for the listings (the model's own labels are too long for a fixed-width column)."""
    return str({
        "held": _("held: large win"),
        "due": _("due"),
        "paid": _("paid"),
        "retail": _("retail: point of sale"),
        "failed": _("failed"),
        "superseded": _("superseded"),
        UNAPPROVED: _("awaiting approval"),
        UNCHANGED: _("unchanged (paid before)"),
        # Negative payouts (lottery.selectors.payout_state_code): a correction lowered or removed the prize.
        "recovery_retail": _("recovery: to be recovered by the retail channel"),
        "recovered": _("recovery: debited from the game account"),
        "recovery_due": _("recovery: due"),
        "recovery_failed": _("recovery: failed"),
    }.get(code, code))


def lottery_cell(key: str, value: Any) -> str:
    if key in ("payout_state", "state"):
        return state_label(value)
    if key == "plussa":
        return gettext("Plussa") if value else ""
    return pdf_cell(key, value)


def _ticket(channel: str, reference: str) -> str:
    """A retail ticket by its reference, another channel's wager as 'channel:reference' (as the
    winners page and its ticket filter write them)."""
    return reference if channel == RETAIL else f"{channel}:{reference}"


# ------------------------------------------------------------------------------------------------
# draw payout report
# ------------------------------------------------------------------------------------------------

REPORTABLE_RUN_STATES = ("settled", "superseded")


def draw_payout_prepare(params: dict) -> dict:
    """{'draw': id[, 'version': n]} -> {'draw': id, 'version': n}: the version defaults to the newest
    settled one, and is recorded, so the archived parameters name exactly what was reported."""
    draw_id = _positive_int(params.get("draw"), gettext("The draw"))
    draw = Draw.objects.select_related("game").filter(pk=draw_id).first()
    if draw is None:
        raise ValueError(gettext("There is no draw with id %(id)s.") % {"id": draw_id})
    runs = SettlementRun.objects.filter(draw=draw, state__in=REPORTABLE_RUN_STATES)
    version = params.get("version")
    if version in (None, ""):
        run = runs.filter(state=RunState.SETTLED).order_by("-version").first()
        if run is None:
            raise ValueError(gettext("%(draw)s has no settled settlement yet; its payout report can be made once it is "
                                "settled.") % {"draw": draw})
    else:
        version = _positive_int(version, gettext("The settlement version"))
        run = runs.filter(version=version).first()
        if run is None:
            raise ValueError(gettext("%(draw)s has no settled settlement version %(version)s.") % {
                "draw": draw, "version": version})
    return {"draw": draw.pk, "version": run.version}


def draw_payout_build(params: dict) -> ReportData:
    draw = Draw.objects.select_related("game", "rollover_from__game").get(pk=params["draw"])
    run = SettlementRun.objects.select_related(
        "result__entered_by", "result__confirmed_by", "approved_by", "ruleset", "previous"
    ).get(draw=draw, version=params["version"])
    result = run.result
    threshold = large_win_cents()

    # Payouts of this version by line (one per line at most; an approved run only). A corrected
    # version pays the difference per line, so a line may have a payout and no prize any more.
    payouts: dict[int, dict] = {}
    for p in Payout.objects.filter(run=run).order_by("line_id").values(
        "pk", "line_id", "wager_id", "player_id", "class_no", "prize_cents", "amount_cents", "state",
        "approved_by_id", "approved_at", "paid_at",
    ).iterator(chunk_size=5000):
        payouts[p["line_id"]] = p

    rows: list[dict] = []
    winning_lines: set[int] = set()
    prizes_total = 0
    winnings = (
        Winning.objects.filter(run=run).order_by("class_no", "line_id")
        .values_list("line_id", "class_no", "boosted", "prize_cents", "wager__channel", "wager__reference",
                     "wager__player_id")
    )
    for line_id, class_no, boosted, prize, channel, reference, player_id in winnings.iterator(chunk_size=5000):
        payout = payouts.get(line_id)
        rows.append(_winner_row(run, line_id, _ticket(channel, reference), player_id, class_no, boosted, prize,
                                payout))
        winning_lines.add(line_id)
        prizes_total += prize
    # Lines an earlier version paid that win nothing in this one: their (negative) payouts.
    gone = [p for line, p in payouts.items() if line not in winning_lines]
    if gone:
        wagers = {w["pk"]: w for w in Wager.objects.filter(pk__in={p["wager_id"] for p in gone})
                  .values("pk", "channel", "reference")}
        for p in gone:
            w = wagers.get(p["wager_id"], {"channel": "", "reference": ""})
            rows.append(_winner_row(run, p["line_id"], _ticket(w["channel"], w["reference"]), p["player_id"], "",
                                    False, 0, p))

    tiers = list(TierResult.objects.filter(run=run).order_by("position"))
    classes = [_class_row(t) for t in tiers]
    totals = {key: sum(c[key] or 0 for c in classes) for key in (
        "winners", "boosted_winners", "pool_cents", "paid_cents", "rollover_in_cents", "rollover_out_cents",
        "breakage_cents")}

    users = _users({p["approved_by_id"] for p in payouts.values() if p["approved_by_id"]})
    by_state: dict[str, list[int]] = {}
    for p in payouts.values():
        n_total = by_state.setdefault(payout_state_code(p["state"], p["amount_cents"]), [0, 0])
        n_total[0] += 1
        n_total[1] += p["amount_cents"]
    large = sorted(
        (p for p in payouts.values()
         if p["amount_cents"] >= threshold or p["state"] == Payout.State.HELD or p["approved_by_id"]),
        key=lambda p: (-p["amount_cents"], p["line_id"]),
    )
    tickets = {r["line"]: (r["ticket"], r["player"]) for r in rows} if large else {}
    large_wins = [{
        "line": p["line_id"], "ticket": tickets.get(p["line_id"], ("", ""))[0], "player": p["player_id"] or "",
        "amount_cents": p["amount_cents"], "state": state_label(payout_state_code(p["state"], p["amount_cents"])),
        "approved_by": who(users.get(p["approved_by_id"])), "approved_at": local(p["approved_at"]),
    } for p in large]

    # The four-eyes requests of the draw (compliance.approvals): the lottery's carry the draw in their
    # payload; requests about the draw, its result, this run or its large wins by their target.
    approvals = list(
        Approval.objects.filter(
            Q(kind__startswith="lottery.", payload__draw=draw.pk)
            | Q(target_type="lottery.draw", target_id=str(draw.pk))
            | Q(target_type="lottery.drawresult", target_id=str(result.pk))
            | Q(target_type="lottery.settlementrun", target_id=str(run.pk))
            | Q(target_type="lottery.payout", target_id__in=[str(p["pk"]) for p in large])
        ).select_related("requested_by", "decided_by").order_by("requested_at", "pk")
    )

    changes = [result.entered_at, result.confirmed_at, run.finished_at, run.approved_at]
    changes += [p[k] for p in payouts.values() for k in ("approved_at", "paid_at")]
    changes += [t for a in approvals for t in (a.requested_at, a.decided_at)]
    as_of = max((t for t in changes if t is not None), default=draw.draw_at).astimezone(zone()).replace(microsecond=0)

    draw_date = draw.draw_at.astimezone(zone()).date().isoformat()
    context = {
        "draw": draw, "game": draw.game.name, "game_code": draw.game.code, "draw_number": draw.number, "draw_time": local(draw.draw_at),
        "result": result_text(result.numbers), "result_version": result.version,
        "correction_reason": result.reason if run.previous_id else "",
        "jackpot_cents": draw.jackpot_cents, "rollover_from": str(draw.rollover_from or ""),
        "run": run, "run_state": run.get_state_display(), "previous_version": run.previous.version if run.previous else None,
        "ruleset": run.ruleset.version, "settled_at": local(run.finished_at),
        "people": [
            (gettext("Result entered by"), who(result.entered_by), local(result.entered_at)),
            (gettext("Result confirmed by"), who(result.confirmed_by), local(result.confirmed_at)),
            (gettext("Payout approved by"), who(run.approved_by) or gettext("not approved yet"), local(run.approved_at)),
        ],
        "classes": classes, "totals": totals,
        "payout_states": [(state_label(s), n, total) for s, (n, total) in sorted(by_state.items())],
        "threshold_cents": threshold, "large_wins": large_wins,
        "approvals": [{
            "kind": a.kind, "object": a.target_repr, "requested_by": who(a.requested_by) or a.requester,
            "requested_at": local(a.requested_at), "decided_by": who(a.decided_by), "decided_at": local(a.decided_at),
            "state": a.get_state_display(),
        } for a in approvals],
        "prizes_total_cents": prizes_total,
        # The winners of this version; the lines an earlier version paid that win nothing now are
        # listed too (their recoveries), but they are no winners (issue 18: "Winners: 98" for 78).
        "winners_count": len(winning_lines),
        "no_longer_winning": len(gone),
        "recovered_cents": sum(p["amount_cents"] for p in gone),
        "as_of": local(as_of),
    }
    csv_rows = [{"record": "class", **c} for c in classes]
    csv_rows.append({"record": "total", **totals})
    csv_rows += [{"record": "winner", **r} for r in rows]
    return ReportData(rows=rows, heading=f"{draw} · {draw_date} · v{run.version}", as_of=as_of, context=context,
                      csv_rows=csv_rows)


def _winner_row(run, line_id, ticket, player_id, class_no, boosted, prize, payout) -> dict:
    if payout is not None:
        amount, state = payout["amount_cents"], payout_state_code(payout["state"], payout["amount_cents"])
    else:
        amount, state = "", (UNCHANGED if run.approved_at else UNAPPROVED)
    return {"line": line_id, "ticket": ticket, "player": player_id or "", "class": class_no,
            "plussa": "yes" if boosted else "", "prize_cents": prize, "payout_cents": amount, "payout_state": state}


def _class_row(t) -> dict:
    return {
        "class": t.class_key, "label": t.label, "winners": t.winners, "prize_cents": t.prize_cents,
        "boosted_winners": t.boosted_winners, "boosted_prize_cents": t.boosted_prize_cents,
        "pool_cents": t.pool_cents, "paid_cents": t.paid_cents, "rollover_in_cents": t.rollover_in_cents,
        "rollover_out_cents": t.rollover_out_cents, "breakage_cents": t.breakage_cents,
        "capped": "yes" if t.capped else "", "merged_with": " ".join(str(k) for k in t.merged_with or []),
    }


def _users(ids) -> dict:
    return {u.pk: u for u in get_user_model().objects.filter(pk__in=ids)} if ids else {}


WINNER_COLUMNS = (
    ("line", _("Line")), ("ticket", _("Ticket")), ("player", _("Player")), ("class", _("Class")),
    ("plussa", _("Plussa")), ("prize_cents", _("Prize (€)")), ("payout_cents", _("Payout (€)")),
    ("payout_state", _("Payout state")),
)
DRAW_PAYOUT_CSV = (
    "record", "class", "label", "winners", "prize_cents", "boosted_winners", "boosted_prize_cents", "pool_cents",
    "paid_cents", "rollover_in_cents", "rollover_out_cents", "breakage_cents", "capped", "merged_with",
    "line", "ticket", "player", "plussa", "payout_cents", "payout_state",
)

# ------------------------------------------------------------------------------------------------
# the request form's fields: the draw picker and the game
# ------------------------------------------------------------------------------------------------

# The settled draws offered in the picker, newest first; older ones are reached by their id.
DRAW_CHOICES = 200


def settled_draw_choices(limit: int) -> list[tuple[int, str]]:
    """Draws with a settled settlement, newest draw first: (id, 'Lotto #12 · 2026-03-14')."""
    settled = SettlementRun.objects.filter(draw=OuterRef("pk"), state=RunState.SETTLED)
    draws = Draw.objects.filter(Exists(settled)).select_related("game").order_by("-draw_at", "-pk")[:limit]
    return [(d.pk, f"{d} · {timezone.localtime(d.draw_at):%Y-%m-%d}") for d in draws]


def game_choices() -> list[tuple[str, str]]:
    return list(Game.objects.order_by("pk").values_list("code", "name"))


def draw_payout_fields() -> dict[str, forms.Field]:
    return {
        "draw": forms.TypedChoiceField(label=_("Settled draw (draw payout report)"), required=False, coerce=int,
                                       empty_value=None, choices=[("", "–"), *settled_draw_choices(DRAW_CHOICES)]),
        "draw_id": forms.IntegerField(label=_("or draw id"), required=False, min_value=1, max_value=BIGINT_MAX),
        "version": forms.IntegerField(label=_("Settlement version (empty: the newest settled)"), required=False,
                                      min_value=1, max_value=INT_MAX),
    }


def draw_payout_form_params(data: dict) -> dict:
    """The draw typed by its id wins over the one picked; the version is optional."""
    draw = data.get("draw_id") or data.get("draw")
    if draw in (None, ""):
        raise ValueError(gettext("Choose a settled draw, or give a draw id."))
    params = {"draw": draw}
    if data.get("version") not in (None, ""):
        params["version"] = data["version"]
    return params


def large_wins_fields() -> dict[str, forms.Field]:
    return {"game": forms.ChoiceField(label=_("Game (large wins)"), required=False,
                                      choices=[("", _("all games")), *game_choices()])}


DRAW_PAYOUT = ReportKind(
    "draw_payout", _("Draw payout report"), "2", "lottery/reports/draw_payout.html",
    WINNER_COLUMNS, None, ("draw", "version"), (14, 32, 10, 5, 6, 14, 14, 24),
    build=draw_payout_build, prepare_params=draw_payout_prepare, csv_columns=DRAW_PAYOUT_CSV, cell=lottery_cell,
    period=False, table_rows=40, block_lines=52, form_fields=draw_payout_fields, form_params=draw_payout_form_params,
)


# ------------------------------------------------------------------------------------------------
# large wins
# ------------------------------------------------------------------------------------------------

def large_wins_prepare(params: dict) -> dict:
    """Period (draw dates), optional game code; the threshold in force is recorded as `min_cents`."""
    out = checked_period(params)
    game = str(params.get("game") or "").strip()
    if game:
        if not Game.objects.filter(code=game).exists():
            raise ValueError(gettext("There is no game %(game)r.") % {"game": game})
        out["game"] = game
    minimum = params.get("min_cents")
    out["min_cents"] = large_win_cents() if minimum in (None, "") else _positive_int(minimum, gettext("The threshold"))
    return out


def large_wins_rows(params: dict) -> list[dict]:
    since, until = period_bounds(params)
    qs = Payout.objects.filter(amount_cents__gte=int(params["min_cents"]), draw__draw_at__gte=since,
                               draw__draw_at__lt=until)
    if params.get("game"):
        qs = qs.filter(draw__game__code=params["game"])
    payouts = list(
        qs.select_related("draw__game", "run__approved_by", "wager", "approved_by")
        .order_by("draw__draw_at", "draw_id", "run__version", "line_id")
    )
    people = {p.pk: p.person for p in Player.objects.filter(pk__in={x.player_id for x in payouts if x.player_id})
              .select_related("person")}
    rows = []
    for p in payouts:
        if p.player_id:
            person = people.get(p.player_id)
            holder = gettext("player %(id)s") % {"id": p.player_id}
            if person is not None:
                holder += f" {person.first_name} {person.last_name}"
        else:
            holder = gettext("ticket %(ticket)s") % {"ticket": _ticket(p.wager.channel, p.wager.reference)}
        rows.append({
            "draw": str(p.draw), "draw_at": local(p.draw.draw_at), "version": p.run.version, "line": p.line_id,
            "class": p.class_no if p.class_no is not None else "", "prize_cents": p.prize_cents,
            "amount_cents": p.amount_cents, "holder": holder, "state": p.state,
            "approved_by": who(p.approved_by), "approved_at": local(p.approved_at),
            "settlement_approved_by": who(p.run.approved_by),
        })
    return rows


def large_wins_build(params: dict) -> ReportData:
    _, until = period_bounds(params)
    game = Game.objects.filter(code=params["game"]).first() if params.get("game") else None
    return ReportData(
        rows=large_wins_rows(params), heading=f"{params['since']} – {params['until']}", as_of=until,
        context={"game": game.name if game else "", "threshold_cents": int(params["min_cents"])},
    )


LARGE_WINS = ReportKind(
    "large_wins", _("Large wins"), "2", "lottery/reports/large_wins.html",
    (("draw", _("Draw")), ("draw_at", _("Draw time")), ("version", _("Version")), ("line", _("Line")),
     ("class", _("Class")), ("prize_cents", _("Prize (€)")), ("amount_cents", _("Amount (€)")),
     ("holder", _("Player or ticket")), ("state", _("State")), ("approved_by", _("Large win approved by")),
     ("approved_at", _("Approved at")), ("settlement_approved_by", _("Settlement approved by"))),
    None, ("game",), (16, 19, 3, 20, 5, 14, 14, 36, 24, 24, 19, 24),
    build=large_wins_build, prepare_params=large_wins_prepare, cell=lottery_cell, form_fields=large_wins_fields,
)
