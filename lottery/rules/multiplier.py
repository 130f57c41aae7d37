"""Settlement of multiplier games with capped groups: Keno (§32), Kaikki tai ei mitään (§33),
Synttärit (§34), Tähdenlento (§37); digest §15.4 and §5.11.

For each line ``raw = stake x multiplier``. For each capped group (a Keno cell, a KTEM class,
a Synttärit class, a Tähdenlento cell) whose total ``T`` *exceeds* its cap (W12 point 4):

* split by stake (Keno, Synttärit, Tähdenlento): ``pay_i = cap x stake_i / Σ stake``;
* split by prize (Kaikki tai ei mitään):          ``pay_i = cap x raw_i / T``.

Keno then applies its overall cap: if the sum of all payable prizes exceeds 15,000,000 €
every prize is multiplied by ``15,000,000 / sum`` (W13). Exact values are kept to the end
and each line is rounded once (W13 point 3).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from .errors import RoundInputError
from .inputs import Bucket
from .money import ZERO, allocate_cents, is_cents, round_to_step, show, to_decimal
from .outcome import ClassOutcome, LineOutcome, RoundOutcome


@dataclass(frozen=True)
class ClassInfo:
    key: str
    label: str


@dataclass(frozen=True)
class CapRule:
    """Caps of one game: per group amount, split method and the optional overall cap."""

    caps: dict[str, Fraction]  # cap group -> cap
    split: str  # "stake" | "prize"
    overall: Fraction | None = None


def settle_multiplier_round(
    game: str,
    buckets: Sequence[Bucket],
    classes: Sequence[ClassInfo],
    rule: CapRule,
    step: Fraction,
    mode: str,
    explain: list[str] | None = None,
) -> RoundOutcome:
    explain = list(explain or [])
    order = {c.key: i for i, c in enumerate(classes)}
    for b in buckets:
        if b.class_key is not None and b.class_key not in order:
            raise RoundInputError(f"lines[{b.index}]", f"internal: unknown class {b.class_key}")

    stake = {b.index: Fraction(b.stake) for b in buckets}
    raw = {b.index: stake[b.index] * Fraction(b.multiplier) for b in buckets}
    for b in buckets:
        if b.class_key is not None and not is_cents(raw[b.index]):
            raise RoundInputError(
                f"lines[{b.index}].stake",
                f"stake × multiplier = {show(raw[b.index])} is not a whole number of cents",
            )

    winning = [b for b in buckets if b.class_key is not None and raw[b.index] > 0]
    winning_idx = {b.index for b in winning}
    group_raw: dict[str, Fraction] = defaultdict(Fraction)
    group_stake: dict[str, Fraction] = defaultdict(Fraction)
    for b in winning:
        g = b.cap_group or b.class_key
        assert g is not None
        group_raw[g] += raw[b.index] * b.count
        group_stake[g] += stake[b.index] * b.count

    pay: dict[int, Fraction] = {b.index: ZERO for b in buckets}
    capped_groups: set[str] = set()
    labels = {c.key: c.label for c in classes}
    for g in sorted(group_raw, key=lambda g: (order.get(g, len(order)), g)):
        cap = rule.caps.get(g)
        total = group_raw[g]
        name = f"class {g} ({labels[g]})" if g in labels else f"group {g}"
        if cap is not None and total > cap:
            capped_groups.add(g)
            if rule.split == "stake":
                explain.append(
                    f"Cap of {name}: calculated {show(total)} > {show(cap)}; {show(cap)} split by stake: "
                    f"{show(cap / group_stake[g])} per euro of stake"
                )
            else:
                explain.append(
                    f"Cap of {name}: calculated {show(total)} > {show(cap)}; {show(cap)} split in "
                    f"proportion to prizes: factor {show(cap / total)}"
                )
    for b in winning:
        g = b.cap_group or b.class_key
        assert g is not None
        if g in capped_groups:
            cap = rule.caps[g]
            if rule.split == "stake":
                pay[b.index] = cap * stake[b.index] / group_stake[g]
            else:
                pay[b.index] = cap * raw[b.index] / group_raw[g]
        else:
            pay[b.index] = raw[b.index]

    total_after_groups = sum((pay[b.index] * b.count for b in winning), ZERO)
    overall_applied = False
    if rule.overall is not None and total_after_groups > rule.overall:
        overall_applied = True
        factor = rule.overall / total_after_groups
        explain.append(
            f"Overall cap: prizes after the group caps total {show(total_after_groups)} > "
            f"{show(rule.overall)}; "
            f"every prize × {show(factor)}"
        )
        for b in winning:
            pay[b.index] *= factor

    prize = {b.index: round_to_step(pay[b.index], step, mode) for b in buckets}

    # books per class: exact entitlement, booked in cents (largest remainder)
    exact_by_class: dict[str, Fraction] = defaultdict(Fraction)
    for b in winning:
        assert b.class_key is not None
        exact_by_class[b.class_key] += pay[b.index] * b.count
    class_keys = [c.key for c in classes if c.key in exact_by_class]
    money_in = sum(exact_by_class.values(), ZERO)
    booked = dict(zip(class_keys, allocate_cents([exact_by_class[k] for k in class_keys], money_in)))

    outcomes: list[ClassOutcome] = []
    totals: dict[str, Fraction] = defaultdict(Fraction)
    for info in classes:  # table order; only the classes (cells) that have winning lines
        members = [b for b in winning if b.class_key == info.key]
        if not members:
            continue
        winners = sum(b.count for b in members)
        calculated = sum((raw[b.index] * b.count for b in members), ZERO)
        paid = sum((prize[b.index] * b.count for b in members), ZERO)
        allocated = booked.get(info.key, ZERO)
        groups = {b.cap_group or b.class_key for b in members}
        capped = bool(groups & capped_groups) or (overall_applied and winners > 0)
        prizes = {prize[b.index] for b in members}
        outcomes.append(
            ClassOutcome(
                key=info.key,
                label=info.label,
                kind="multiplier",
                winners=winners,
                rollover_in=to_decimal(ZERO),
                pool=to_decimal(calculated),
                allocated=to_decimal(allocated),
                topup=to_decimal(ZERO),
                extra=to_decimal(ZERO),
                prize=to_decimal(prizes.pop()) if len(prizes) == 1 else None,
                paid=to_decimal(paid),
                breakage=to_decimal(allocated - paid),
                rollover_out=to_decimal(ZERO),
                capped=capped,
            )
        )
        totals["calculated"] += calculated
        totals["paid"] += paid
        totals["breakage"] += allocated - paid
    totals["after_group_caps"] = total_after_groups
    totals["money_in"] = money_in
    totals["cut"] = totals["calculated"] - money_in
    totals["rollover_out"] = ZERO
    totals["stakes"] = sum((stake[b.index] * b.count for b in buckets), ZERO)
    explain.append(
        f"Books: prizes after caps {show(money_in)} = paid {show(totals['paid'])} + breakage "
        f"{show(totals['breakage'])}; cut by caps {show(totals['cut'])}"
    )
    if totals["money_in"] != totals["paid"] + totals["breakage"]:
        raise AssertionError("internal error: multiplier books do not balance")

    lines = tuple(
        LineOutcome(
            index=b.index,
            class_key=b.class_key if b.index in winning_idx else None,
            count=b.count,
            stake=to_decimal(stake[b.index]),
            calculated=to_decimal(raw[b.index] if b.index in winning_idx else ZERO),
            prize=to_decimal(prize[b.index]),
            paid=to_decimal(prize[b.index] * b.count),
        )
        for b in buckets
    )
    return RoundOutcome(
        game=game,
        classes=tuple(o for o in outcomes),
        totals={k: to_decimal(v) for k, v in totals.items()},
        explain=tuple(explain),
        lines=lines,
    )


def stake_basis(stake: Decimal, addon_fee: Decimal | None, basis: str) -> Decimal:
    """The stake a multiplier applies to (A9): the base stake, or the stake with the add-on fee."""
    if basis == "with_addon_fee" and addon_fee is not None:
        return stake + addon_fee
    return stake
