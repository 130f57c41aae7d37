"""What a draw's settlement and payout left behind, normalised so that two draws built alike
(`lottery.drill.world`) compare row by row: lines and players by their rank in the draw (ids differ
from draw to draw), ledger references with the draw's ids replaced by those ranks.

`fingerprint(draw, players)` -> a dict of sorted row lists: tier results, winnings by line, payouts
by line (player, amount, state, credited, diverted), the players' ledger entries by reference,
pending bank payouts by entry and final balances. `differences(a, b)` names what differs;
`double_and_missing(draw, baseline)` counts lines paid twice and payouts never made.
"""

from __future__ import annotations

import re
from collections import Counter

from lottery.models import Draw, Line, Payout, SettlementRun, Winning
from players.models import GameAccount, LedgerEntry, PendingPayout


def _line_ranks(draw) -> dict[int, int]:
    ids = Line.objects.filter(draw=draw).order_by("id").values_list("id", flat=True)
    return {pk: rank for rank, pk in enumerate(ids)}


def fingerprint(draw, players) -> dict:
    draw = Draw.objects.get(pk=draw.pk)
    rank = _line_ranks(draw)
    who = {p.pk: i for i, p in enumerate(players)}
    accounts = dict(GameAccount.objects.filter(player_id__in=who).values_list("pk", "player_id"))
    runs = list(SettlementRun.objects.filter(draw=draw).order_by("version"))
    wager_ids = re.compile(r"(lottery:)(\d+):(\d+)(:v\d+)")

    def ref(reference: str) -> str:
        m = wager_ids.fullmatch(reference)
        if m and int(m.group(2)) == draw.pk:
            return f"lottery:L{rank.get(int(m.group(3)), '?')}{m.group(4)}"
        return re.sub(rf"drill-{draw.pk}-", "drill-", reference)

    out: dict = {
        "draw_state": draw.state,
        "runs": [(r.version, r.state, r.lines_count, r.winners_count, r.paid_cents, r.breakage_cents,
                  r.turnover_cents) for r in runs],
        "tiers": [],
        "winnings": [],
        "payouts": [],
    }
    for run in runs:
        out["tiers"] += [(run.version, *t) for t in run.tiers.order_by("position").values_list(
            "class_key", "winners", "boosted_winners", "pool_cents", "prize_cents", "boosted_prize_cents",
            "paid_cents", "breakage_cents", "rollover_out_cents")]
        out["winnings"] += sorted((run.version, rank[line], c, b, prize) for line, c, b, prize in Winning.objects.filter(
            run=run).values_list("line_id", "class_no", "boosted", "prize_cents"))
        out["payouts"] += sorted(
            (run.version, rank[line], who.get(player, "retail" if player is None else "?"), amount, state, credited,
             diverted) for line, player, amount, state, credited, diverted in Payout.objects.filter(run=run).values_list(
                "line_id", "player_id", "amount_cents", "state", "credited_cents", "diverted_cents"))
    entries = LedgerEntry.objects.filter(account_id__in=accounts).values_list(
        "pk", "account_id", "kind", "reference", "amount_cents", "diverted_cents", "balance_after_cents")
    out["ledger"] = sorted((who[accounts[a]], ref(reference), kind, amount, diverted, after)
                           for _, a, kind, reference, amount, diverted, after in entries)
    out["pending_bank_payouts"] = sorted(
        (who[accounts[a]], ref(reference), amount, status) for a, reference, amount, status in
        PendingPayout.objects.filter(account_id__in=accounts).values_list(
            "account_id", "entry__reference", "amount_cents", "status"))
    out["balances"] = sorted((who[player], balance) for player, balance in GameAccount.objects.filter(
        player_id__in=who).values_list("player_id", "balance_cents"))
    return out


def differences(a: dict, b: dict, limit: int = 3) -> list[str]:
    """What differs between two fingerprints: per part, the count of rows only in one and a few examples."""
    out = []
    for key in a.keys() | b.keys():
        x, y = a.get(key), b.get(key)
        if x == y:
            continue
        if isinstance(x, list) and isinstance(y, list):
            only_a = list((Counter(map(repr, x)) - Counter(map(repr, y))).elements())
            only_b = list((Counter(map(repr, y)) - Counter(map(repr, x))).elements())
            out.append(f"{key}: {len(only_a)} rows only in the baseline {only_a[:limit]}, "
                       f"{len(only_b)} only here {only_b[:limit]}")
        else:
            out.append(f"{key}: baseline {x!r}, here {y!r}")
    return sorted(out)


def double_and_missing(draw, baseline: dict | None = None) -> tuple[int, int, str]:
    """(double, missing, what is left): lines with more than one paid payout in a version or a ledger
    reference used twice; payouts due, held or failed, plus lines the baseline paid and this draw did
    not pay at all. `what is left` says it in words ("1,872 payouts due")."""
    from django.db.models import Count

    payouts = Payout.objects.filter(draw=draw)
    double = payouts.filter(state=Payout.State.PAID).values("run_id", "line_id").annotate(n=Count("pk")).filter(
        n__gt=1).count()
    refs = payouts.exclude(ledger_reference="").values_list("ledger_reference", flat=True)
    double += LedgerEntry.objects.filter(reference__in=refs).values("reference").annotate(n=Count("pk")).filter(
        n__gt=1).count()
    left = Counter(payouts.filter(state__in=[Payout.State.DUE, Payout.State.HELD, Payout.State.FAILED]).values_list(
        "state", flat=True))
    missing = sum(left.values())
    if baseline is not None:
        rank = _line_ranks(draw)
        paid_here = {(rank[line]) for line in payouts.filter(state=Payout.State.PAID).values_list("line_id", flat=True)}
        written_here = {rank[line] for line in payouts.values_list("line_id", flat=True)}
        expected = {row[1] for row in baseline["payouts"] if row[4] == Payout.State.PAID}
        missing += len(expected - paid_here - written_here)  # not even written (settlement not finished)
    words = ", ".join(f"{n:,} payouts {state}" for state, n in sorted(left.items()))
    return double, missing, words
