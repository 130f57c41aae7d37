"""Plussa boost, Lotto classes 2-6 (§28) and Vikinglotto classes 2-8 (§30); digest §15.2.

"If the plus number is correct, the prize of classes 2-6 is won five-fold. Of the class's
combined total of prizes at most 1,000,000 € is multiplied. If the limit is exceeded,
exactly 4,000,000 € is divided among the results entitled to the boosted prize in addition
to the actual prize."

Per class with ``n`` boosted lines and payable base prize ``b``:

* ``B = n x b`` (A1: base prizes of the boosted lines; ``limit_basis = class_base`` takes
  every winner of the class instead);
* ``B <= 1,000,000`` -> each boosted line gets ``5 x b``;
* otherwise each gets ``b + 4,000,000 / n``, rounded once (breakage from the 4,000,000).

The 5x multiplies the *paid* (already rounded) base prize, so a boosted prize is exactly
five times the published prize (§0.4, W6a); ``multiply = exact`` multiplies the exact one.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .money import round_to_step
from .params import Params


@dataclass(frozen=True)
class BoostConfig:
    classes: tuple[str, ...]
    multiplier: Fraction
    limit: Fraction
    extra: Fraction
    limit_basis: str
    multiply: str

    @classmethod
    def from_params(cls, p: Params) -> BoostConfig:
        return cls(
            classes=tuple(p.str_list("classes")),
            multiplier=p.dec("multiplier"),
            limit=p.dec("limit"),
            extra=p.dec("extra"),
            limit_basis=p.choice("limit_basis", ("boosted_base", "class_base")),
            multiply=p.choice("multiply", ("rounded", "exact")),
        )


@dataclass(frozen=True)
class BoostResult:
    prize: Fraction  # payable per boosted line
    basis: Fraction
    limited: bool
    extra: Fraction  # funded
    paid_extra: Fraction  # boosted lines x (prize - base)
    breakage: Fraction


def boost(
    cfg: BoostConfig,
    *,
    base_paid: Fraction,
    base_exact: Fraction,
    winners: int,
    boosted: int,
    step: Fraction,
    mode: str,
) -> BoostResult:
    """Boost ``boosted`` of the class's ``winners`` whose payable prize is ``base_paid``."""
    basis = (boosted if cfg.limit_basis == "boosted_base" else winners) * base_paid
    reference = base_paid if cfg.multiply == "rounded" else base_exact
    if basis <= cfg.limit:
        prize = round_to_step(cfg.multiplier * reference, step, mode)
        paid_extra = boosted * (prize - base_paid)
        return BoostResult(prize, basis, False, paid_extra, paid_extra, Fraction(0))
    prize = round_to_step(reference + cfg.extra / boosted, step, mode)
    paid_extra = boosted * (prize - base_paid)
    return BoostResult(prize, basis, True, cfg.extra, paid_extra, cfg.extra - paid_extra)
