"""The grouped-bucket settlement strategy (DESIGN §3 steps 2-4): `BucketSettlement`, the strategy of
Keno, Kaikki tai ei mitään, Tähdenlento, Synttärit, Jokeri and Lomatonni (their specs say so), asked
by `lottery.services.settlement` (which claims the run, checks its preconditions and finishes it).

Path A (counting): one pass over the draw's lines groups them by the game's features (hits as a
popcount, level or game type, add-on state; for the multiplier games also stake and add-on fee),
and the prize engine classifies the groups: the multiplier games' groups are the engine's line
buckets (``{"level": 10, "hits": 7, "king": true, "stake": "2.00", "count": 3}``; the engine
computes stake × multiplier and every cap and returns each bucket's prize per line), the class
games' groups are classified by the engine's ``classify`` on one constructed line per group
(which is how Jokeri's matcher reading, A14, comes from the rule version).

Path B (writing winners): per chunk of line ids, one ``INSERT … SELECT`` keeps the winning lines.
Hits are sums of single-bit tests (or division and remainder), the class and multiplier tables are
the digest's, written out by hand in each game module. A multiplier game's prize is computed in
SQL from the line's own stake: ``floor(weight × num / den)``, where the weight is stake × multiplier
(or the stake, for a cap split by stake) and num/den the class's exact scale factor: the cap's share
from the engine's figures (its pools and stakes per cap group), times the overall cap's factor
(Keno), per rounding step. A class game's prize is the engine's per class (Tuplaus doubled or not).

Check (`lottery.pipeline.check_written`, shared with the bitmask strategy): winners, add-on winners
and money per class (cell) from the written rows must equal path A's counts and the engine's paid
totals; any difference halts the run.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from compliance.money import plain_cents

from ..matching import no_pullup
from ..models import RunPhase, SettlementChunk, SettlementRun, TierResult
from ..pipeline import (
    DIRECT_ID_LIMIT,
    LINE_TABLE,
    PLAN_MISMATCH,
    Check,
    Claim,
    check_written,
    chunk_lines,
    chunks_of,
    plan_imports,
    problem,
)
from ..pipeline import cents as _cents
from ..rules import games as engine_games
from ..rules.errors import RulesError
from ..rules.jsonio import calculate_round
from ..rules.params import Params
from .base import PATH_B_ROUNDING_MODE, GameCodec, muldiv_sql


def _fraction_cents(amount: str) -> Fraction:
    return Fraction(Decimal(amount)) * 100


# ------------------------------------------------------------------------------------------------
# path A
# ------------------------------------------------------------------------------------------------

def path_a_sql(c: GameCodec, params: dict, drawn: Any, draw_id: int, vendor: str) -> tuple[str, list[str]]:
    features = c.path_a_features(params, drawn, vendor)
    names = [name for name, _ in features]
    group = names + (["stake_cents", "addon_cents"] if c.kind == "multiplier" else [])
    direct = f"id < {DIRECT_ID_LIMIT}"
    columns = ", ".join(f"{expr} AS {name}" for name, expr in features)
    sql = (
        f"SELECT {', '.join(group)}, COUNT(*), SUM(stake_cents), SUM(addon_cents), COUNT(*) FILTER (WHERE {direct}),"
        f" MIN(id) FILTER (WHERE {direct}), MAX(id) FILTER (WHERE {direct}) FROM"
        f" (SELECT {columns}, id, stake_cents, addon_cents FROM {LINE_TABLE} WHERE draw_id = {int(draw_id)}) t"
        f" GROUP BY {', '.join(group)} ORDER BY {', '.join(group)}"
    )
    return sql, group


def _empty_result(game: str, version: str) -> dict[str, Any]:
    zero = "0.00"
    return {"game": game, "rules_version": version, "classes": {}, "lines": [],
            "totals": {"calculated": zero, "paid": zero, "breakage": zero, "after_group_caps": zero,
                       "money_in": zero, "cut": zero, "rollover_out": zero, "stakes": zero},
            "explain": ["No line of the draw can win: nothing to compute."]}


def count(c: GameCodec, claim: Claim) -> None:
    """Path A and the engine: tier counts, engine input and result, tier results, the chunk plan."""
    run = claim.run
    draw, result = run.draw, run.result
    game, params = draw.game.code, run.ruleset.params
    with transaction.atomic():
        claim.own(phase=RunPhase.COUNTING)
    drawn = c.drawn(params, result.numbers)
    sql, group = path_a_sql(c, params, drawn, draw.pk, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        rows = cursor.fetchall()
    lines = turnover = addon = direct = 0
    direct_lo = direct_hi = None
    buckets: list[dict[str, Any]] = []
    counts: dict[str, dict[str, int]] = {}
    width = len(group)
    for row in rows:
        values = dict(zip(group, row[:width]))
        n, stake, addon_stake, n_direct, first, last = row[width:]
        lines += n
        turnover += int(stake or 0)
        addon += int(addon_stake or 0)
        if n_direct:
            direct += n_direct
            direct_lo = first if direct_lo is None else min(direct_lo, first)
            direct_hi = last if direct_hi is None else max(direct_hi, last)
        if c.kind == "multiplier":
            bucket = c.bucket(params, values)
            if bucket is None:
                continue
            bucket.update(stake=plain_cents(int(values["stake_cents"])), count=int(n))
            if int(values["addon_cents"]):
                bucket["addon_fee"] = plain_cents(int(values["addon_cents"]))
            buckets.append(bucket)
        else:
            key, doubled = c.engine_class(params, drawn, values)
            if key is not None:
                slot = counts.setdefault(key, {"winners": 0, "boosted": 0})
                slot["winners"] += n
                slot["boosted"] += n if doubled else 0
    if c.kind == "multiplier":
        engine_input: dict[str, Any] = {"game": game, "rules_version": run.ruleset.version,
                                        "turnover": plain_cents(turnover), "lines": buckets}
        engine_result = calculate_round(engine_input, params) if buckets else _empty_result(game, run.ruleset.version)
        for bucket in engine_result["lines"]:
            key = bucket.get("class")
            if key is None:
                continue
            slot = counts.setdefault(key, {"winners": 0, "boosted": 0})
            slot["winners"] += bucket["count"]
            slot["boosted"] += bucket["count"] if c.boosted(params, bucket, key) else 0
    else:
        engine_input = _class_input(run, counts, turnover)
        engine_result = calculate_round(engine_input, params)
    chunks = _plan(claim, lines, direct, direct_lo, direct_hi)
    tiers = _tiers(c, run, engine_result, counts)
    with transaction.atomic():
        claim.own()
        TierResult.objects.filter(run=run).delete()
        SettlementChunk.objects.filter(run=run).delete()
        TierResult.objects.bulk_create(tiers)
        SettlementChunk.objects.bulk_create(chunks)
        fields = dict(
            tier_counts=counts, engine_input=engine_input, engine_result=engine_result, lines_count=lines,
            turnover_cents=turnover, addon_turnover_cents=addon, chunk_size=chunk_lines(), chunks_total=len(chunks),
            chunks_done=0, phase=RunPhase.WRITING,
        )
        claim.own(**fields)
    for name, value in fields.items():
        setattr(run, name, value)


def _class_input(run: SettlementRun, counts: dict[str, dict[str, int]], turnover: int) -> dict[str, Any]:
    draw, params = run.draw, run.ruleset.params
    data: dict[str, Any] = {
        "game": draw.game.code,
        "rules_version": run.ruleset.version,
        "turnover": plain_cents(turnover),
        "winners": {cl["class"]: counts.get(cl["class"], {}).get("winners", 0) for cl in params.get("classes", [])},
    }
    if draw.jackpot_cents is not None:
        data["jackpot"] = plain_cents(draw.jackpot_cents)
    if draw.jackpot_to_highest_class:
        data["jackpot_to_highest_class"] = True
    if draw.rollover_in:
        data["rollover_in"] = {str(k): plain_cents(int(v)) for k, v in draw.rollover_in.items()}
    doubled = {k: v["boosted"] for k, v in counts.items() if v.get("boosted")}
    if doubled:
        data["tuplaus"] = {"doubled": doubled}
    return data


def _plan(claim: Claim, lines: int, direct: int, lo: int | None, hi: int | None) -> list[SettlementChunk]:
    """Chunks of line ids: the range of the ids from the table's sequence, and the id range of every
    COPY-loaded retail import of the draw (as for the number games); they must cover every line."""
    ranges = [(lo, hi)] if direct else []
    imported = plan_imports(claim.run, ranges)
    if direct + imported != lines:
        claim.halt([problem(PLAN_MISMATCH, planned=direct + imported, lines=lines)], {})
    return chunks_of(claim.run, ranges)


def _tiers(c: GameCodec, run: SettlementRun, result: dict[str, Any],
           counts: dict[str, dict[str, int]]) -> list[TierResult]:
    kinds = {cl["class"]: cl.get("kind", "") for cl in run.ruleset.params.get("classes", []) if "class" in cl}
    multiplier = c.kind == "multiplier"
    out = []
    for position, (key, c) in enumerate(result["classes"].items(), start=1):
        tuplaus = c.get("tuplaus") or {}
        out.append(TierResult(
            run=run, class_key=key, position=position, label=c["label"][:80],
            kind="multiplier" if multiplier else kinds.get(key, ""),
            winners=c["winners"], boosted_winners=counts.get(key, {}).get("boosted", 0),
            rollover_in_cents=_cents(c["rollover_in"]), pool_cents=_cents(c["pool"]),
            allocated_cents=_cents(c["allocated"]), topup_cents=_cents(c["topup"]), extra_cents=_cents(c["extra"]),
            prize_cents=_cents(c["prize"]) if c["winners"] and c["prize"] is not None else None,
            boosted_prize_cents=_cents(tuplaus["prize"]) if tuplaus.get("doubled") else None,
            paid_cents=_cents(c["paid"]), breakage_cents=_cents(c["breakage"]),
            rollover_out_cents=_cents(c["rollover_out"]), capped=bool(c["capped"]),
            merged_with=list(c.get("merged_with") or []),
        ))
    return out


# ------------------------------------------------------------------------------------------------
# path B
# ------------------------------------------------------------------------------------------------

def _stake_weight(params: dict) -> str:
    return "stake_cents + addon_cents" if params.get("stake_basis") == "with_addon_fee" else "stake_cents"


def scale_plan(c: GameCodec, params: dict, engine_result: dict[str, Any]) -> dict[int, tuple[str, int, int, int]]:
    """class_no -> (weight, num, den, step): a winner's prize is floor(w × num / den) × step cents,
    w = stake × multiplier ("raw") or the stake ("stake": a cap split by stake).

    From the engine's figures: each cap group's calculated total (Σ of its classes' pools) and, for
    a split by stake, its winners' stakes (from the engine's buckets); the rule version's caps, split
    and overall cap (read with the engine's own `cap_rule` and `cap_group`); its rounding step."""
    module = engine_games.MULTIPLIER_GAMES[c.code]
    p = Params(params)
    rule = module.cap_rule(p)
    grouping = getattr(module, "cap_group", None)

    def group(key: str) -> str:
        return grouping(key, p) if grouping is not None else key

    step, mode = p.rounding()
    if mode != PATH_B_ROUNDING_MODE:  # refused when published (lottery.check_tables)
        raise RulesError(f"path B of settlement rounds {PATH_B_ROUNDING_MODE} only; the rule version rounds {mode}")
    step_cents = int(step * 100)
    with_fee = params.get("stake_basis") == "with_addon_fee"
    total: dict[str, Fraction] = defaultdict(Fraction)
    stakes: dict[str, Fraction] = defaultdict(Fraction)
    for key, cl in engine_result["classes"].items():
        total[group(key)] += _fraction_cents(cl["pool"])
    for bucket in engine_result["lines"]:
        if bucket.get("class") is None:
            continue
        stake = _fraction_cents(bucket["stake"])
        if with_fee and bucket.get("addon_fee") is not None:
            stake += _fraction_cents(bucket["addon_fee"])
        stakes[group(bucket["class"])] += stake * bucket.get("count", 1)
    caps = {g: rule.caps[g] * 100 for g in total if rule.caps.get(g) is not None and total[g] > rule.caps[g] * 100}
    after_caps = sum((caps.get(g, t) for g, t in total.items()), Fraction(0))
    overall = Fraction(1)
    if rule.overall is not None and after_caps > rule.overall * 100:
        overall = rule.overall * 100 / after_caps
    plan = {}
    for key in engine_result["classes"]:
        g = group(key)
        if g in caps:
            by_stake = rule.split == "stake"
            factor = caps[g] / (stakes[g] if by_stake else total[g])
            weight = "stake" if by_stake else "raw"
        else:
            factor, weight = Fraction(1), "raw"
        factor = factor * overall / step_cents
        plan[c.class_no(key)] = (weight, factor.numerator, factor.denominator, step_cents)
    return plan


def path_b_sql(c: GameCodec, run: SettlementRun, drawn: Any, lo: int, hi: int, vendor: str) -> str:
    """INSERT the winners among the draw's lines with lo <= id < hi, with their prizes."""
    draw, params, result = run.draw, run.ruleset.params, run.engine_result
    keep = no_pullup(vendor)
    if c.kind == "multiplier":
        plan = scale_plan(c, params, result)
        whens = []
        for cell, multiplier in sorted(c.path_b_multipliers().items()):
            if cell // 2 not in plan:
                continue  # a class the engine did not see: -1 below, which the check reports
            weight, num, den, step = plan[cell // 2]
            expr = muldiv_sql("w" if weight == "stake" else f"w * {int(multiplier)}", num, den, vendor)
            whens.append(f"WHEN {cell} THEN {expr}" + (f" * {step}" if step != 1 else ""))
        prize = f"CASE cell {' '.join(whens)} ELSE -1 END" if whens else "-1"
        weight_sql = _stake_weight(params)
    else:
        prizes = class_prizes(result)
        whens = [f"WHEN {cell} THEN {cents}" for cell, cents in sorted(prizes.items())]
        prize = f"CASE cell {' '.join(whens)} ELSE -1 END" if whens else "-1"
        weight_sql = "stake_cents"
    candidates = c.path_b_candidates(params, drawn, vendor)
    where = f"draw_id = {int(draw.pk)} AND id >= {int(lo)} AND id < {int(hi)}"
    if candidates:
        where += f" AND {candidates}"
    return (
        "INSERT INTO lottery_winning (run_id, line_id, wager_id, class_no, boosted, prize_cents) "
        f"SELECT {int(run.pk)}, id, wager_id, cell / 2, cell % 2 = 1, {prize} FROM ("
        f"  SELECT id, wager_id, w, {c.path_b_cell(params, drawn)} AS cell FROM ("
        f"    SELECT id, wager_id, {weight_sql} AS w, {c.path_b_features(params, drawn)} FROM {LINE_TABLE}"
        f"    WHERE {where} {keep}"
        f"  ) f {keep}"
        ") w WHERE cell IS NOT NULL ORDER BY id"
    )


def class_prizes(engine_result: dict[str, Any]) -> dict[int, int]:
    """Class games: cell (class * 2 + Tuplaus doubled) -> prize in cents per winning line."""
    out: dict[int, int] = {}
    for key, cl in engine_result["classes"].items():
        if cl.get("winners") and cl.get("prize") is not None:
            out[int(key) * 2] = _cents(cl["prize"])
        tuplaus = cl.get("tuplaus") or {}
        if tuplaus.get("doubled"):
            out[int(key) * 2 + 1] = _cents(tuplaus["prize"])
    return out


def write(c: GameCodec, claim: Claim) -> None:
    run = claim.run
    drawn = c.drawn(run.ruleset.params, run.result.numbers)
    pending = list(SettlementChunk.objects.filter(run=run, done_at__isnull=True).order_by("lo")
                   .values_list("pk", "lo", "hi"))
    for pk, lo, hi in pending:
        with transaction.atomic():
            if not SettlementChunk.objects.select_for_update().filter(pk=pk, done_at__isnull=True).exists():
                continue  # written meanwhile by the worker we took over from
            with connection.cursor() as cursor:
                cursor.execute(path_b_sql(c, run, drawn, lo, hi, connection.vendor))
                written = cursor.rowcount
            SettlementChunk.objects.filter(pk=pk).update(done_at=timezone.now(), winners=written)
            claim.own(chunks_done=F("chunks_done") + 1)
        claim.chunk_written()


class BucketSettlement:
    """The grouped-bucket strategy (`lottery.games.spec.SettlementStrategy`): path A groups the lines
    by the codec's features and the engine classifies the groups; path B writes the winners with the
    codec's hand-written tables; the check counts the written cells."""

    parallel_ok = False  # path A and path B run one after the other, on one connection

    def __init__(self, codec: GameCodec):
        self.codec = codec

    def count(self, claim: Claim) -> None:
        count(self.codec, claim)

    def write(self, claim: Claim) -> None:
        write(self.codec, claim)

    def check(self, run: SettlementRun) -> Check:
        c = self.codec

        def key_of(class_no: int) -> str:
            try:
                return c.class_key(int(class_no))
            except ValueError:
                return str(class_no)

        return check_written(run, key_of, "with the add-on", str)
