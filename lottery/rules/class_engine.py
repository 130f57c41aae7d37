"""Settlement of the class-based games: Lotto, Eurojackpot, Vikinglotto (pari-mutuel, §28-§30)
and Milli, Jokeri, Lomatonni (fixed prizes with caps, §31, §35, §36).

One data-driven engine: each class of the rule set has a ``kind``

* ``jackpot`` -- the round's confirmed jackpot, shared equally (§28, §31, §35; A5);
* ``share``   -- a share of the round's turnover (Lotto, Vikinglotto 3-8) or of the prize
  pool (Eurojackpot), with rollover, minimum and maximum pools (§15.1);
* ``common``  -- a Vikinglotto common class whose distribution sum comes from the
  multinational arrangement (§30, A7);
* ``fixed``   -- a fixed euro prize, optionally capped (Milli §31, Jokeri §35);
* ``plus``    -- the plus-number-correct prize (Lotto 7, Vikinglotto 9), a fixed prize.

Order of operations (digest §5.1, A2): pools (shares, rollover, min/max pool, overflow) ->
unwon jackpot to the highest winning class (if the operator so decides) -> merge (PAV on
exact values) -> minimum prize -> fixed-class caps -> rounding, once per winner -> Plussa /
Tuplaus on the rounded prize -> books (allocation, breakage, totals).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from .class_input import ClassSpec, validate_class_round
from .errors import InvalidParams
from .inputs import ClassRound
from .money import (
    ZERO,
    allocate_cents,
    floor_cents,
    fmt_exact,
    round_to_step,
    show,
    show_pct,
    to_decimal,
)
from .outcome import ClassOutcome, MergeOutcome, PlussaOutcome, RoundOutcome, TuplausOutcome
from .params import Params
from .parimutuel import MergeItem, form_pool, merge_classes
from .plussa import BoostConfig, BoostResult, boost

#: What a round's books consist of (docs/prize-engine.md, "Money in").
MONEY_IN = ("shares", "fund", "rollover_in", "common_pools", "imported", "jackpot", "fixed", "topup", "extra")
MONEY_OUT = ("paid", "breakage", "rollover_out", "fund", "overflow_out", "central_out")


@dataclass
class _Calc:
    """Mutable working state of one class (exact Fractions)."""

    spec: ClassSpec
    winners: int
    rollover_in: Fraction = ZERO
    shares: Fraction = ZERO  # booked share of turnover / prize pool
    common: Fraction = ZERO  # Vikinglotto common distribution sum
    overflow_in: Fraction = ZERO
    fixed: Fraction = ZERO  # winners x fixed prize (fixed / plus classes)
    jackpot: Fraction = ZERO  # jackpot paid through this class
    pool: Fraction = ZERO
    topup: Fraction = ZERO
    rollover_out: Fraction = ZERO
    overflow_out: Fraction = ZERO
    capped: bool = False
    imported: bool = False
    imported_amount: Fraction = ZERO
    central_out: Fraction = ZERO  # share of an imported class, handed to the central system
    central_winners: int | None = None
    prize_exact: Fraction | None = None
    prize: Fraction | None = None
    allocated: Fraction = ZERO
    paid: Fraction = ZERO
    extra: Fraction = ZERO
    breakage: Fraction = ZERO
    merged_with: tuple[str, ...] = ()
    plussa: BoostResult | None = None
    plussa_boosted: int = 0
    tuplaus: tuple[int, Fraction, Fraction] | None = None  # doubled, prize, extra
    cap_units: Fraction | None = None  # Tuplaus counted against a cap (A15 alternative)
    cap_doubled: int = 0
    min_prize: Fraction | None = None  # the minimum prize applied to this class
    capped_pool: Fraction | None = None  # a fixed class's distribution sum after its cap
    scaled_prize: Fraction | None = None  # exact prize under a combined cap (A8 alternative)
    replaced: bool = False  # its prize was replaced by the unwon jackpot (A4, Jokeri)


@dataclass
class _Ctx:
    game: str
    step: Fraction
    mode: str
    explain: list[str] = field(default_factory=list)

    def say(self, text: str) -> None:
        self.explain.append(text)


def settle_class_round(game: str, inp: ClassRound, params: Mapping[str, Any]) -> RoundOutcome:
    """Settle one round of a class-based game with the rule set ``params``."""
    p = Params(params)
    step, mode = p.rounding()
    ctx = _Ctx(game, step, mode)
    specs = [ClassSpec.from_params(c) for c in p.items("classes")]
    by_key = {s.key: s for s in specs}
    if len(by_key) != len(specs):
        raise InvalidParams("params.classes", "class keys must be unique")
    plussa_p = p.opt_sub("plussa")
    plussa_cfg = BoostConfig.from_params(plussa_p) if plussa_p else None
    tuplaus_p = p.opt_sub("tuplaus")
    validate_class_round(game, inp, p, specs, plussa_cfg, tuplaus_p)

    calcs = {s.key: _Calc(s, int(inp.winners.get(s.key, 0))) for s in specs}
    for key, amount in inp.rollover_in.items():
        calcs[key].rollover_in = Fraction(amount)
    totals: dict[str, Fraction] = defaultdict(Fraction)
    turnover = Fraction(inp.turnover)

    base_amount, fund = _base_amount(p, inp, turnover, totals, ctx)
    _form_pools(p, inp, calcs, base_amount, ctx)
    _unwon_jackpot(p, inp, calcs, ctx)
    merges = _merge(p, calcs, ctx)
    _minimum_prize(p, calcs, ctx)
    _fixed_caps(p, inp, calcs, tuplaus_p, ctx)
    _round_and_book(calcs, merges, ctx)
    if plussa_cfg:
        _plussa(plussa_cfg, inp, calcs, ctx)
    if tuplaus_p:
        _tuplaus(tuplaus_p, inp, calcs, ctx)

    # -- totals (money in = paid + breakage + rollover out + fund + overflow out + central out) --
    for c in calcs.values():
        for name, value in (
            ("shares", c.shares), ("rollover_in", c.rollover_in), ("common_pools", c.common),
            ("imported", c.imported_amount), ("jackpot", c.jackpot), ("fixed", c.fixed),
            ("topup", c.topup), ("extra", c.extra), ("paid", c.paid), ("breakage", c.breakage),
            ("rollover_out", c.rollover_out), ("overflow_out", c.overflow_out),
            ("central_out", c.central_out),
        ):  # fmt: skip
            totals[name] += value
    totals["fund"] = fund
    totals["turnover"] = turnover
    totals["money_in"] = sum((totals[k] for k in MONEY_IN), ZERO)
    out_side = sum((totals[k] for k in MONEY_OUT), ZERO)
    if totals["money_in"] != out_side:  # the engine checks its own books on every run
        raise AssertionError(f"internal error: money in {totals['money_in']} != out {out_side}")
    if inp.lines_in_draw is not None:
        per_line = p.dec("common_contribution_per_line")
        exact = inp.lines_in_draw * per_line
        # not a prize: a payment to the multinational arrangement, shown to the nearest cent
        totals["common_contribution"] = round_to_step(exact, Fraction(1, 100), "half_up")
        ctx.say(
            f"Common classes and multinational fund contribution: {_n(inp.lines_in_draw)} lines × "
            f"{fmt_exact(per_line)} = {show(exact)} (§30)"
        )
    if inp.plussa_turnover is not None:
        totals["plussa_turnover"] = Fraction(inp.plussa_turnover)
    ctx.say(
        f"Books: money in {show(totals['money_in'])} = paid {show(totals['paid'])} + breakage "
        f"{show(totals['breakage'])} + rollover {show(totals['rollover_out'])}"
        + (f" + fund {show(fund)}" if fund else "")
        + (f" + overflow {show(totals['overflow_out'])}" if totals["overflow_out"] else "")
        + (f" + to the central system {show(totals['central_out'])}" if totals["central_out"] else "")
    )
    return RoundOutcome(
        game=game,
        classes=tuple(_finish(c) for c in calcs.values()),
        totals={k: to_decimal(v) for k, v in totals.items()},
        explain=tuple(ctx.explain),
        merges=tuple(merges),
    )


# -----------------------------------------------------------------------------------------------
# steps
# -----------------------------------------------------------------------------------------------


def _base_amount(
    p: Params, inp: ClassRound, turnover: Fraction, totals: dict[str, Fraction], ctx: _Ctx
) -> tuple[Fraction, Fraction]:
    """Amount the shares are taken of, and the booked multinational fund share."""
    base = p.choice("base", ("turnover", "prize_pool"), "turnover")
    if base == "turnover":
        return turnover, ZERO
    if inp.prize_pool is not None:
        amount = Fraction(inp.prize_pool)
        ctx.say(f"Prize pool (jakosumma) given: {show(amount)}")
    else:
        fraction = p.dec("pool_fraction")
        amount = floor_cents(fraction * turnover)
        ctx.say(f"Prize pool (jakosumma): {show_pct(fraction)} × turnover {show(turnover)} = {show(amount)}")
    totals["prize_pool"] = amount
    fund = ZERO
    fund_p = p.opt_sub("fund")
    if fund_p and fund_p.opt_dec("share") is not None:
        share = fund_p.dec("share")
        fund = floor_cents(share * amount)
        ctx.say(f"Multinational prize fund: {show_pct(share)} × {show(amount)} = {show(fund)} (§29)")
        fund_max = fund_p.opt_dec("max_pool")
        if fund_max is not None and fund > fund_max:
            totals["overflow_out"] += fund - fund_max
            ctx.say(
                f"Multinational fund: maximum {show(fund_max)}; excess {show(fund - fund_max)} goes "
                "out of the round"
            )
            fund = fund_max
    return amount, fund


def _form_pools(
    p: Params, inp: ClassRound, calcs: dict[str, _Calc], base_amount: Fraction, ctx: _Ctx
) -> None:
    min_pool_mode = p.choice("min_pool_mode", ("after_rollover", "before_rollover"), "after_rollover")
    carries = p.flag("rollover_carries_topup", False)
    jackpot = Fraction(inp.jackpot) if inp.jackpot is not None else ZERO
    order = list(calcs)
    for c in calcs.values():
        s, n = c.spec, c.winners
        if s.key in inp.central:
            central = inp.central[s.key]
            c.imported = True
            c.central_winners = central.winners
            c.prize_exact = Fraction(central.prize)
            c.imported_amount = n * c.prize_exact
            c.pool = c.imported_amount
            if c.overflow_in:
                c.overflow_out += c.overflow_in
                ctx.say(
                    f"Class {s.key}: imported, so the overflow {show(c.overflow_in)} it received goes out"
                )
                c.overflow_in = ZERO
            if s.kind == "share":  # the Finnish share still goes to the common class, centrally
                assert s.share is not None
                c.shares = c.central_out = floor_cents(s.share * base_amount)
                ctx.say(
                    f"Class {s.key}: {show_pct(s.share)} × {show(base_amount)} = {show(c.shares)} "
                    "goes to the central system"
                )
            ctx.say(f"Class {s.key}: prize {show(c.prize_exact)} imported from the central system (§26)")
            continue
        if s.kind == "jackpot":
            if n:
                c.pool = c.jackpot = jackpot
                ctx.say(f"Class {s.key}: confirmed jackpot {show(jackpot)} shared by {n} winner(s)")
            continue
        if s.kind in ("fixed", "plus"):
            assert s.prize is not None
            c.fixed = c.pool = n * s.prize
            continue
        if s.kind == "share":
            assert s.share is not None
            exact = s.share * base_amount
            c.shares = floor_cents(exact)
            source = f"{show_pct(s.share)} × {show(base_amount)} = {show(c.shares)}" + (
                "" if exact == c.shares else f" (exact {show(exact)}, booked in cents)"
            )
            base = c.shares
        else:  # common
            c.common = Fraction(inp.common_pools.get(s.key, Decimal(0)))
            base = c.common
            source = f"common distribution sum {show(c.common)} (§30)"
        formed = form_pool(
            base=base + c.overflow_in,
            rollover_in=c.rollover_in,
            winners=n,
            min_pool=s.min_pool,
            max_pool=s.max_pool,
            min_pool_mode=min_pool_mode,
            rollover_carries_topup=carries,
        )
        c.pool, c.topup, c.rollover_out, c.capped = (
            formed.pool,
            formed.topup,
            formed.rollover_out,
            formed.capped,
        )
        if c.overflow_in:
            source += f" + overflow {show(c.overflow_in)}"
        if c.rollover_in:
            source += f" + rollover {show(c.rollover_in)} = {show(base + c.overflow_in + c.rollover_in)}"
        ctx.say(f"Class {s.key}: {source}")
        if formed.topup:
            ctx.say(f"Class {s.key}: minimum pool {show(s.min_pool or ZERO)}: top-up {show(formed.topup)}")
        for note in formed.notes:
            ctx.say(f"Class {s.key}: {note}")
        if formed.excess:
            target = s.overflow_to
            if target is not None and target in calcs and order.index(target) > order.index(s.key):
                calcs[target].overflow_in += formed.excess
                ctx.say(
                    f"Class {s.key}: maximum pool {show(s.max_pool or ZERO)}; excess "
                    f"{show(formed.excess)} goes to class {target}"
                )
            else:
                c.overflow_out += formed.excess
                ctx.say(
                    f"Class {s.key}: maximum pool {show(s.max_pool or ZERO)}; excess "
                    f"{show(formed.excess)} goes out of the round"
                )
        if n == 0:
            ctx.say(f"Class {s.key}: no winner; {show(c.rollover_out)} rolls over to the next round")


def _unwon_jackpot(p: Params, inp: ClassRound, calcs: dict[str, _Calc], ctx: _Ctx) -> None:
    """Lotto §28 / Jokeri §35: with no class-1 winner the operator may pay the jackpot in /
    as the prize of the highest winning class (A4: Lotto adds, Jokeri replaces)."""
    jackpot_calcs = [c for c in calcs.values() if c.spec.kind == "jackpot"]
    if not jackpot_calcs or inp.jackpot is None:
        return
    top = jackpot_calcs[0]
    if top.winners:
        return
    amount = Fraction(inp.jackpot)
    if not inp.jackpot_to_highest_class:
        if amount:
            ctx.say(f"Class {top.spec.key}: no winner; the jackpot {show(amount)} is not paid this round")
        return
    cfg = p.sub("unwon_jackpot")
    mode = cfg.choice("mode", ("add", "replace"))
    eligible = cfg.str_list("classes")
    target = next(
        (calcs[k] for k in eligible if k in calcs and calcs[k].winners and not calcs[k].imported), None
    )
    if target is None:
        ctx.say(f"Class {top.spec.key}: no winner and no winning class to receive the jackpot; not paid")
        return
    target.jackpot += amount
    if mode == "add":
        target.pool += amount
        ctx.say(
            f"Class {top.spec.key}: no winner; jackpot {show(amount)} added to the pool of class "
            f"{target.spec.key}"
        )
        return
    # replace: the jackpot becomes the class's distribution sum instead of its own
    own = target.pool - target.topup  # its shares; a minimum-pool top-up is not needed now
    if target.spec.kind in ("share", "common"):
        target.rollover_out += own
        extra = f"; its own pool {show(own)} rolls over"
    else:
        target.fixed = ZERO
        extra = ""
    target.pool = amount
    target.topup = ZERO
    target.capped = False
    target.replaced = True
    ctx.say(
        f"Class {top.spec.key}: no winner; jackpot {show(amount)} paid as the prize of class "
        f"{target.spec.key}{extra}"
    )


def _merge(p: Params, calcs: dict[str, _Calc], ctx: _Ctx) -> list[MergeOutcome]:
    keys = p.str_list("merge_classes", [])
    items = [
        MergeItem(k, calcs[k].pool, calcs[k].winners)
        for k in calcs
        if k in keys and calcs[k].winners and not calcs[k].imported
    ]
    merges: list[MergeOutcome] = []
    for group in merge_classes(items):
        pool = sum((i.pool for i in group), ZERO)
        n = sum(i.winners for i in group)
        avg = pool / n
        for i in group:
            calcs[i.key].prize_exact = avg
            if len(group) > 1:
                calcs[i.key].merged_with = tuple(g.key for g in group)
        if len(group) > 1:
            names = ", ".join(i.key for i in group)
            parts = " + ".join(show(i.pool) for i in group)
            counts = " + ".join(_n(i.winners) for i in group)
            ctx.say(
                f"Merge classes {names}: ({parts}) / ({counts}) = {show(avg)} each "
                "(a higher class computed lower than a lower one)"
            )
            prize = round_to_step(avg, ctx.step, ctx.mode)
            merges.append(
                MergeOutcome(
                    tuple(i.key for i in group),
                    n,
                    to_decimal(pool),
                    to_decimal(prize),
                    to_decimal(n * prize),
                    to_decimal(pool - n * prize),
                )
            )
    for c in calcs.values():
        if c.prize_exact is None and c.winners:
            c.prize_exact = c.pool / c.winners
    return merges


def _minimum_prize(p: Params, calcs: dict[str, _Calc], ctx: _Ctx) -> None:
    cfg = p.opt_sub("min_prize")
    if cfg is None:
        return
    amount = cfg.dec("amount")
    for key in cfg.str_list("classes"):
        c = calcs.get(key)
        if c is None or not c.winners or c.imported or c.prize_exact is None:
            continue
        if c.prize_exact < amount:
            ctx.say(
                f"Class {key}: calculated {show(c.prize_exact)} is below the minimum prize {show(amount)}; "
                f"each winner gets {show(amount)}"
            )
            c.min_prize = amount
            c.prize_exact = amount


def _fixed_caps(
    p: Params, inp: ClassRound, calcs: dict[str, _Calc], tuplaus_p: Params | None, ctx: _Ctx
) -> None:
    """Milli §31 (per class, A8; or ``combined``), Jokeri §35 (more than 50 winners), §23."""
    counts_against = bool(tuplaus_p and tuplaus_p.flag("counts_against_cap", False))
    t_mult = tuplaus_p.dec("multiplier") if tuplaus_p else Fraction(1)
    for c in calcs.values():
        s = c.spec
        if s.kind != "fixed" or not c.winners or c.replaced:
            continue
        if s.over_winners is not None and c.winners > s.over_winners:
            assert s.over_pool is not None
            c.capped_pool = s.over_pool + c.jackpot
            c.fixed = s.over_pool
            c.capped = True
            ctx.say(
                f"Class {s.key}: {_n(c.winners)} winners (more than {s.over_winners}): "
                f"{show(s.over_pool)} is the distribution sum"
            )
    cap_p = p.opt_sub("class_cap")
    if cap_p is not None:
        cap = cap_p.dec("amount")
        keys = [k for k in cap_p.str_list("classes") if k in calcs]
        scope = cap_p.choice("scope", ("per_class", "combined"))
        if scope == "per_class":
            for k in keys:
                c = calcs[k]
                if c.winners and c.fixed > cap and not c.replaced:
                    ctx.say(
                        f"Class {k}: {_n(c.winners)} × {show(c.spec.prize or ZERO)} = "
                        f"{show(c.fixed)} exceeds "
                        f"the cap {show(cap)}; the cap is divided among the winning lines"
                    )
                    c.capped_pool = cap + c.jackpot
                    c.fixed = cap
                    c.capped = True
        else:
            live = [calcs[k] for k in keys if calcs[k].winners and not calcs[k].replaced]
            total = sum((c.fixed for c in live), ZERO)
            if total > cap:
                booked = allocate_cents([c.fixed * cap / total for c in live], cap)
                for c, b in zip(live, booked):
                    c.capped_pool = b + c.jackpot
                    c.fixed = b
                    c.capped = True
                    assert c.spec.prize is not None
                    c.scaled_prize = c.spec.prize * cap / total + c.jackpot / c.winners
                ctx.say(
                    f"Classes {', '.join(c.spec.key for c in live)}: together {show(total)} exceed "
                    "the combined cap "
                    f"{show(cap)}; every prize is scaled by {show(cap / total)} (A8 alternative)"
                )
    for c in calcs.values():
        if c.spec.kind in ("fixed", "plus") and c.winners:
            distributable = c.pool if c.capped_pool is None else c.capped_pool
            if c.capped_pool is not None and counts_against and inp.tuplaus.get(c.spec.key):
                d = inp.tuplaus[c.spec.key]
                c.cap_units = c.winners + (t_mult - 1) * d
                c.cap_doubled = d
                c.prize_exact = distributable / c.cap_units
                ctx.say(
                    f"Class {c.spec.key}: Tuplaus counted against the cap: {show(distributable)} / "
                    f"{show(c.cap_units)} shares (A15 alternative)"
                )
            elif c.scaled_prize is not None:
                c.prize_exact = c.scaled_prize
            else:
                c.prize_exact = distributable / c.winners


def _round_and_book(calcs: dict[str, _Calc], merges: list[MergeOutcome], ctx: _Ctx) -> None:
    """Round once per winner; book each class's allocation (merged groups by largest remainder)."""
    groups: dict[tuple[str, ...], list[_Calc]] = defaultdict(list)
    for c in calcs.values():
        if c.winners and c.merged_with:
            groups[c.merged_with].append(c)
    for members in groups.values():
        pool = sum((m.pool for m in members), ZERO)
        n = sum(m.winners for m in members)
        booked = allocate_cents([m.winners * pool / n for m in members], pool)
        for m, b in zip(members, booked):
            m.allocated = b
    for c in calcs.values():
        if not c.winners:
            continue
        if not c.merged_with:
            c.allocated = c.pool if c.capped_pool is None else c.capped_pool
        assert c.prize_exact is not None
        if c.imported:
            c.prize = c.prize_exact
            c.paid = c.winners * c.prize
            c.allocated = c.paid
            continue
        c.prize = round_to_step(c.prize_exact, ctx.step, ctx.mode)
        if c.min_prize is not None:
            entitled = c.winners * c.min_prize
            c.topup += entitled - c.allocated
            c.allocated = entitled
        if c.cap_units is not None:
            doubled = c.cap_doubled
            c.paid = (c.winners - doubled) * c.prize  # the doubled lines are paid in _tuplaus
        else:
            c.paid = c.winners * c.prize
        c.breakage = c.allocated - c.paid
        if c.cap_units is not None:
            continue
        if c.min_prize is not None:
            ctx.say(
                f"Class {c.spec.key}: {_n(c.winners)} × {show(c.prize)} = {show(c.paid)} "
                f"(operator top-up {show(c.topup)})"
            )
        elif c.merged_with:
            ctx.say(
                f"Class {c.spec.key}: merged prize {show(c.prize_exact)} → {show(c.prize)} per winner "
                f"(share of the merged pool {show(c.allocated)}, breakage {show(c.breakage)})"
            )
        elif c.scaled_prize is not None:
            ctx.say(
                f"Class {c.spec.key}: scaled prize {show(c.prize_exact)} → {show(c.prize)} per winner "
                f"(share of the cap {show(c.allocated)}, breakage {show(c.breakage)})"
            )
        elif c.prize != c.prize_exact or c.spec.kind in ("share", "common"):
            ctx.say(
                f"Class {c.spec.key}: {show(c.allocated)} / {_n(c.winners)} = {show(c.prize_exact)} → "
                f"{show(c.prize)} per winner (breakage {show(c.breakage)})"
            )


def _plussa(cfg: BoostConfig, inp: ClassRound, calcs: dict[str, _Calc], ctx: _Ctx) -> None:
    for key in calcs:  # rank order, whatever the input order
        d = inp.plussa_boosted.get(key, 0)
        if not d:
            continue
        c = calcs[key]
        assert c.prize is not None and c.prize_exact is not None
        r = boost(
            cfg,
            base_paid=c.prize,
            base_exact=c.prize_exact,
            winners=c.winners,
            boosted=d,
            step=ctx.step,
            mode=ctx.mode,
        )
        c.plussa, c.plussa_boosted = r, d
        c.extra += r.extra
        c.paid += r.paid_extra
        c.breakage += r.breakage
        if r.limited:
            c.capped = True
            ctx.say(
                f"Class {key} Plussa: {_n(d)} boosted, basis {show(r.basis)} > {show(cfg.limit)}: "
                f"{show(c.prize)} + {show(cfg.extra)} / {_n(d)} → {show(r.prize)} (breakage "
                f"{show(r.breakage)})"
            )
        else:
            ctx.say(
                f"Class {key} Plussa: {_n(d)} boosted, basis {show(r.basis)} ≤ {show(cfg.limit)}: "
                f"{fmt_exact(cfg.multiplier)} × {show(c.prize)} = {show(r.prize)}"
            )


def _tuplaus(tp: Params, inp: ClassRound, calcs: dict[str, _Calc], ctx: _Ctx) -> None:
    """Jokeri Tuplaus (§35): a winning line with the correct Tuplaus number is paid doubled,
    after the class-2 cap (A15) unless ``counts_against_cap``."""
    mult = tp.dec("multiplier")
    exact = tp.choice("multiply", ("rounded", "exact")) == "exact"
    for key in calcs:
        d = inp.tuplaus.get(key, 0)
        if not d:
            continue
        c = calcs[key]
        assert c.prize is not None and c.prize_exact is not None
        reference = c.prize_exact if exact else c.prize
        prize = round_to_step(mult * reference, ctx.step, ctx.mode)
        if c.cap_units is not None:
            c.paid += d * prize
            c.breakage = c.allocated - c.paid
            c.tuplaus = (d, prize, ZERO)
            ctx.say(f"Class {key} Tuplaus: {d} doubled line(s) get {show(prize)} within the class cap")
            continue
        extra = d * (prize - c.prize)
        c.extra += extra
        c.paid += extra
        c.tuplaus = (d, prize, extra)
        ctx.say(
            f"Class {key} Tuplaus: {d} doubled line(s) get {fmt_exact(mult)} × {show(reference)} = "
            f"{show(prize)}"
        )


def _n(count: int) -> str:
    return f"{count:,}".replace(",", " ")


# -----------------------------------------------------------------------------------------------
# output
# -----------------------------------------------------------------------------------------------


def _finish(c: _Calc) -> ClassOutcome:
    s = c.spec
    prize: Fraction | None = c.prize
    if prize is None and s.kind in ("fixed", "plus") and s.prize is not None:
        prize = s.prize
    plussa = None
    if c.plussa is not None:
        r = c.plussa
        plussa = PlussaOutcome(
            c.plussa_boosted,
            to_decimal(r.prize),
            to_decimal(r.basis),
            r.limited,
            to_decimal(r.extra),
            to_decimal(r.breakage),
        )
    tuplaus = None
    if c.tuplaus is not None:
        d, t_prize, t_extra = c.tuplaus
        tuplaus = TuplausOutcome(d, to_decimal(t_prize), to_decimal(t_extra))
    return ClassOutcome(
        key=s.key,
        label=s.label,
        kind=s.kind,
        winners=c.winners,
        rollover_in=to_decimal(c.rollover_in),
        pool=to_decimal(c.pool),
        allocated=to_decimal(c.allocated),
        topup=to_decimal(c.topup if c.winners or c.rollover_out else ZERO),
        extra=to_decimal(c.extra),
        prize=None if prize is None else to_decimal(prize),
        paid=to_decimal(c.paid),
        breakage=to_decimal(c.breakage),
        rollover_out=to_decimal(c.rollover_out),
        capped=c.capped,
        merged_with=c.merged_with,
        imported=c.imported,
        central_winners=c.central_winners,
        plussa=plussa,
        tuplaus=tuplaus,
    )
