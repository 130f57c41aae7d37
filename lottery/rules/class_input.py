"""Rule-set class table and input validation of the class-based games (class_engine).

Every refusal is a :class:`RoundInputError` naming the JSON field (``winners.3``,
``plussa.boosted.4``, ``central.2``) and what is wrong with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from .errors import InvalidParams, RoundInputError
from .inputs import ClassRound
from .money import is_cents, show
from .params import Params
from .plussa import BoostConfig

KINDS = ("jackpot", "share", "common", "fixed", "plus")


@dataclass(frozen=True)
class ClassSpec:
    key: str
    label: str
    kind: str
    share: Fraction | None = None
    prize: Fraction | None = None
    min_pool: Fraction | None = None
    max_pool: Fraction | None = None
    overflow_to: str | None = None
    importable: bool = False
    max_jackpot: Fraction | None = None
    over_winners: int | None = None  # Jokeri class 2: "more than 50 winners ..."
    over_pool: Fraction | None = None  # "... 1,000,000 € is paid as the distribution sum"

    @classmethod
    def from_params(cls, p: Params) -> ClassSpec:
        kind = p.choice("kind", KINDS)
        over = p.opt_sub("pool_if_winners_over")
        spec = cls(
            key=p.text("class"),
            label=p.text("label", ""),
            kind=kind,
            share=p.dec("share") if kind == "share" else None,
            prize=p.dec("prize") if kind in ("fixed", "plus") else None,
            min_pool=p.opt_dec("min_pool"),
            max_pool=p.opt_dec("max_pool"),
            overflow_to=p.text("overflow_to") if p.has("overflow_to") else None,
            importable=p.flag("importable", False),
            max_jackpot=p.opt_dec("max_jackpot"),
            over_winners=over.integer("winners") if over else None,
            over_pool=over.dec("pool") if over else None,
        )
        if spec.min_pool is not None and spec.max_pool is not None and spec.min_pool > spec.max_pool:
            raise InvalidParams(p.path, "min_pool is larger than max_pool")
        return spec


def validate_class_round(
    game: str,
    inp: ClassRound,
    p: Params,
    specs: list[ClassSpec],
    plussa: BoostConfig | None,
    tuplaus_p: Params | None,
) -> None:
    by_key = {s.key: s for s in specs}
    known = ", ".join(by_key)

    def check_key(section: str, key: str) -> ClassSpec:
        if key not in by_key:
            raise RoundInputError(f"{section}.{key}", f"{game} has no class {key} (classes: {known})")
        return by_key[key]

    def check_count(section: str, key: str, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RoundInputError(f"{section}.{key}", f"must be a whole number ≥ 0, got {value!r}")
        return value

    _check_amount("turnover", inp.turnover)
    for key, n in inp.winners.items():
        check_key("winners", key)
        check_count("winners", key, n)
    for key, amount in inp.rollover_in.items():
        spec = check_key("rollover_in", key)
        if spec.kind not in ("share", "common"):
            raise RoundInputError(
                f"rollover_in.{key}", f"class {key} is not a pari-mutuel class; it cannot roll over"
            )
        _check_amount(f"rollover_in.{key}", amount)
    jackpot_specs = [s for s in specs if s.kind == "jackpot"]
    if inp.jackpot is not None:
        if not jackpot_specs:
            raise RoundInputError("jackpot", f"{game} has no confirmed jackpot class")
        _check_amount("jackpot", inp.jackpot)
        for s in jackpot_specs:
            if s.max_jackpot is not None and Fraction(inp.jackpot) > s.max_jackpot:
                raise RoundInputError(
                    "jackpot",
                    f"the confirmed jackpot {show(Fraction(inp.jackpot))} exceeds the maximum "
                    f"{show(s.max_jackpot)} of {game} class {s.key}",
                )
    for s in jackpot_specs:
        if inp.winners.get(s.key, 0) > 0 and inp.jackpot is None:
            raise RoundInputError(
                "jackpot", f"class {s.key} has winners: the round's confirmed jackpot is required"
            )
    if inp.jackpot_to_highest_class and p.opt_sub("unwon_jackpot") is None:
        raise RoundInputError("jackpot_to_highest_class", f"the rules of {game} do not provide for it")
    if inp.prize_pool is not None:
        if p.text("base") != "prize_pool":
            raise RoundInputError("prize_pool", f"{game} shares are computed from turnover, not a prize pool")
        _check_amount("prize_pool", inp.prize_pool)
    if inp.lines_in_draw is not None:
        if not p.has("common_contribution_per_line"):
            raise RoundInputError("lines_in_draw", f"{game} has no per-line common contribution")
        check_count("lines_in_draw", "", inp.lines_in_draw)
    for key, amount in inp.common_pools.items():
        if check_key("common_pools", key).kind != "common":
            raise RoundInputError(f"common_pools.{key}", f"class {key} is not a common (multinational) class")
        _check_amount(f"common_pools.{key}", amount)
    for key, central in inp.central.items():
        spec = check_key("central", key)
        if not spec.importable:
            raise RoundInputError(
                f"central.{key}", f"class {key} of {game} cannot be imported from the central system"
            )
        _check_amount(f"central.{key}.prize", central.prize)
        if key in inp.rollover_in:
            raise RoundInputError(
                f"rollover_in.{key}",
                f"class {key} is imported from the central system, which keeps its rollover",
            )
        if key in inp.common_pools:
            raise RoundInputError(
                f"common_pools.{key}", f"class {key} is imported: give its prize or its pool, not both"
            )
        if central.winners is not None:
            check_count(f"central.{key}", "winners", central.winners)
    for s in specs:
        if s.kind == "common" and inp.winners.get(s.key, 0) > 0:
            if s.key not in inp.common_pools and s.key not in inp.central:
                raise RoundInputError(
                    f"common_pools.{s.key}",
                    f"class {s.key} has winners: give its distribution sum (common_pools) or its "
                    "imported prize (central)",
                )
    if inp.plussa_boosted and plussa is None:
        raise RoundInputError("plussa", f"{game} has no Plussa")
    for key, d in inp.plussa_boosted.items():
        check_key("plussa.boosted", key)
        assert plussa is not None
        if key not in plussa.classes:
            raise RoundInputError(
                f"plussa.boosted.{key}",
                f"class {key} is not boosted by Plussa (classes {', '.join(plussa.classes)})",
            )
        check_count("plussa.boosted", key, d)
        if d > inp.winners.get(key, 0):
            raise RoundInputError(
                f"plussa.boosted.{key}",
                f"{d} boosted lines but only {inp.winners.get(key, 0)} winners in class {key}",
            )
    if inp.plussa_turnover is not None:
        if plussa is None:
            raise RoundInputError("plussa.turnover", f"{game} has no Plussa")
        _check_amount("plussa.turnover", inp.plussa_turnover)
    if inp.tuplaus and tuplaus_p is None:
        raise RoundInputError("tuplaus", f"{game} has no Tuplaus")
    for key, d in inp.tuplaus.items():
        check_key("tuplaus", key)
        assert tuplaus_p is not None
        if key not in tuplaus_p.str_list("classes"):
            raise RoundInputError(f"tuplaus.{key}", f"Tuplaus does not double class {key} under these rules")
        check_count("tuplaus", key, d)
        if d > inp.winners.get(key, 0):
            raise RoundInputError(
                f"tuplaus.{key}",
                f"{d} doubled lines but only {inp.winners.get(key, 0)} winners in class {key}",
            )


def _check_amount(field_name: str, value: Decimal) -> None:
    if not isinstance(value, Decimal) or not value.is_finite():
        raise RoundInputError(field_name, f"expected a Decimal amount, got {value!r}")
    if value < 0:
        raise RoundInputError(field_name, f"must not be negative (got {value})")
    if not is_cents(Fraction(value)):
        raise RoundInputError(field_name, f"{value} is not a whole number of cents")
