"""Slot-machine tournaments (000-lottery §12, RA III; fee caps RA IV-PS / RA IV-PK), kind ``slot_tournament``.

Checks a tournament's terms and computes its heats, ranking and prizes from the tournament
instructions (*turnausohje*), which the rules leave to the operator (scoring weights, heats, the
number advancing, tie rules, prize basis): every one of them is an input, none has a default.

Terms checked (``violations``; the product refuses such a tournament):

* an entry fee and/or a minimum purchase of chips or tokens (digest A23: fee, purchase or both);
* the entry fee cap: 20 € in gaming points and arcades (RA IV-PS); in the casino 4,000 € for the
  electronic poker table (RA IV-PK); no cap is stated for other casino tournaments;
* team tournaments only in the operator's own arcades, not in partners' premises (RA III);
* electronic poker tables only in arcades and the casino (RA I-ATG).

Scoring (RA III): a participant's points are ``sum(weight x metric)`` over the metrics the
instructions weight: ``staked`` (money staked), ``won`` (wins), ``games`` (games played),
``credits_left`` (credits left on the machine at the end), ``pajatso_points`` (sum of pajatso
gate-win points), ``pajatso_hits`` (number of gate hits) and ``other`` (another game-specific
rule's count). Weights are exact decimals and may be negative. Higher points rank higher; ties are
broken by ``tie_break`` (metrics compared in order, higher first); participants still equal share a
rank (1, 2, 2, 4).

Heats: each heat but the last names how many ``advance``; the next heat's participants must be
those advancing (all of a tie straddling the cut may be carried, the instructions decide). The
winner is the best of the last heat. The overall order is the last heat's ranking, then those out
in each earlier heat by their rank there.

Prizes (RA III): ``{"basis": "fixed", "amount": "500.00"}``, ``{"basis": "fees"}`` (the sum of the
entry fees) or ``{"basis": "fees_share", "share": "0.8"}``, split by ``split`` (exact shares of
the pool by place, summing to 1). Each prize is rounded down to the cent; the rest is breakage. A
tie across prize places is settled by ``ties_share_prizes`` (true: the tied share the places'
prizes equally); without it the places are reported ``undetermined`` for staff to decide.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..base import EngineError, money_str, to_cents_down
from ..jsonio import KINDS
from ._common import ATG_VENUES, exact, fields, flag, money, need, number, venue, whole

METRICS = ("staked", "won", "games", "credits_left", "pajatso_points", "pajatso_hits", "other")
MACHINES = ("slot", "pajatso", "electronic_poker")
KEYS = {"kind", "venue", "machine", "team", "entry_fee", "minimum_purchase", "scoring", "tie_break", "heats",
        "prizes", "ties_share_prizes"}
PS_FEE_CAP, POKER_FEE_CAP = Decimal(20), Decimal(4000)


def _terms(doc: Mapping[str, Any], venue_type: str, machine: str) -> tuple[list[dict[str, Any]], list[str], Any]:
    violations: list[dict[str, Any]] = []
    notes: list[str] = []
    team = flag(need(doc, "team"), "team")
    fee = money(doc["entry_fee"], "entry_fee", allow_zero=False) if doc.get("entry_fee") is not None else None
    purchase = (money(doc["minimum_purchase"], "minimum_purchase", allow_zero=False)
                if doc.get("minimum_purchase") is not None else None)
    if fee is None and purchase is None:
        violations.append({"field": "entry_fee", "rule": "RA III, digest A23",
                           "message": "a tournament takes an entry fee and/or a minimum purchase of chips or tokens"})
    if venue_type == "casino":
        cap = POKER_FEE_CAP if machine == "electronic_poker" else None
        rule = "RA IV-PK: electronic poker table tournament entry fee" if cap else "RA IV-PK states no cap"
    else:
        cap, rule = PS_FEE_CAP, "RA IV-PS: slot machine tournament entry fee"
        notes.append("RA IV-PS: stakes placed in the machine during a tournament have no monetary value; "
                     "the prize is a separately announced prize sum")
    if fee is not None and cap is not None and fee > cap:
        violations.append({"field": "entry_fee", "value": money_str(fee), "maximum": money_str(cap), "rule": rule,
                           "message": f"the entry fee {money_str(fee)} is above the maximum {money_str(cap)}"})
    if team and venue_type != "arcade":
        violations.append({"field": "team", "rule": "RA III",
                           "message": "team tournaments are held only in the operator's own arcades"})
    if machine == "electronic_poker" and venue_type not in ATG_VENUES:
        violations.append({"field": "machine", "rule": "RA I-ATG",
                           "message": "electronic poker tables are run only in arcades and in the casino"})
    terms = {"entry_fee": None if fee is None else money_str(fee),
             "minimum_purchase": None if purchase is None else money_str(purchase),
             "fee_cap": None if cap is None else money_str(cap), "fee_cap_rule": rule, "team": team}
    return violations, notes, (terms, fee)


def _rank(rows: list[dict[str, Any]], tie_break: list[str]) -> list[dict[str, Any]]:
    """Sort by points then the tie-break metrics (higher first); equal keys share a rank."""
    def key(r: dict[str, Any]) -> tuple:
        return (r["_points"], *(r["_metrics"][m] for m in tie_break))

    ordered = sorted(rows, key=lambda r: (tuple(-v for v in key(r)), r["entrant"]))
    for pos, r in enumerate(ordered):
        same = pos > 0 and key(ordered[pos - 1]) == key(r)
        r["rank"] = ordered[pos - 1]["rank"] if same else pos + 1
    return ordered


def _heat(i: int, heat: Any, weights: Mapping[str, Fraction], tie_break: list[str], last: bool) -> dict[str, Any]:
    where = f"heats[{i}]"
    fields(heat, {"advance", "results"}, where)
    raw = need(heat, "results", where)
    if not isinstance(raw, list) or not 1 <= len(raw) <= 10_000:
        raise EngineError(f"{where}.results", "a list of 1-10,000 participants' results")
    used = set(weights) | set(tie_break)
    rows, names = [], set()
    for j, r in enumerate(raw):
        rw = f"{where}.results[{j}]"
        fields(r, {"entrant", *METRICS}, rw)
        name = need(r, "entrant", rw)
        if not isinstance(name, str) or not 0 < len(name) <= 64:
            raise EngineError(f"{rw}.entrant", "the participant's or team's reference, 1-64 characters")
        if name in names:
            raise EngineError(f"{rw}.entrant", f"{name!r} is listed twice in the heat")
        names.add(name)
        metrics = {m: number(need(r, m, rw), f"{rw}.{m}") for m in used}
        points = sum((weights[m] * metrics[m] for m in weights), Fraction(0))
        rows.append({"entrant": name, "_points": points, "_metrics": metrics})
    if last:
        if heat.get("advance") is not None:
            raise EngineError(f"{where}.advance", "the last heat decides the winner: no one advances from it")
        advance = None
    else:
        if len(rows) < 2:
            raise EngineError(f"{where}.results", "a heat others advance from needs at least 2 participants")
        advance = whole(need(heat, "advance", where), f"{where}.advance", 1, len(rows) - 1)
    ranked = _rank(rows, tie_break)
    sure, tied = [], []
    if advance is not None:
        cut_rank = ranked[advance - 1]["rank"]
        after = ranked[advance]["rank"]
        for r in ranked:
            if r["rank"] < cut_rank or (r["rank"] == cut_rank and after != cut_rank):
                sure.append(r["entrant"])
            elif r["rank"] == cut_rank:
                tied.append(r["entrant"])
    return {"ranked": ranked, "advance": advance, "sure": sure, "tied": tied}


def _split(raw: Any) -> list[Fraction]:
    if not isinstance(raw, list) or not 1 <= len(raw) <= 1000:
        raise EngineError("prizes.split", "the pool's shares by place, e.g. [\"0.5\", \"0.3\", \"0.2\"]")
    shares = [number(s, f"prizes.split[{k}]") for k, s in enumerate(raw)]
    if sum(shares) != 1:
        raise EngineError("prizes.split", f"the shares add up to {exact(sum(shares))}, not 1")
    return shares


def _prizes(doc: Mapping[str, Any], fee: Decimal | None, entrants: int, order: list[dict[str, Any]]):
    spec = doc["prizes"]
    fields(spec, {"basis", "amount", "share", "split"}, "prizes")
    basis = need(spec, "basis", "prizes")
    if basis == "fixed":
        pool = Fraction(money(need(spec, "amount", "prizes"), "prizes.amount", allow_zero=False))
    elif basis in ("fees", "fees_share"):
        if fee is None:
            raise EngineError("prizes.basis", "there is no entry fee to build the prize from")
        pool = Fraction(fee) * entrants
        if basis == "fees_share":
            share = number(need(spec, "share", "prizes"), "prizes.share")
            if not 0 < share <= 1:
                raise EngineError("prizes.share", "a share of the entry fees above 0 and at most 1")
            pool *= share
    else:
        raise EngineError("prizes.basis", "\"fixed\", \"fees\" or \"fees_share\" (RA III)")
    shares = _split(need(spec, "split", "prizes"))
    place_prize = [pool * s for s in shares]
    share_ties = flag(doc["ties_share_prizes"], "ties_share_prizes") if doc.get("ties_share_prizes") is not None \
        else None
    awards, undetermined = [], []
    place = 0
    while place < len(place_prize) and place < len(order):
        group = [r for r in order if r["overall_rank"] == order[place]["overall_rank"]]
        places = list(range(place, min(place + len(group), len(place_prize))))
        amount = sum((place_prize[p] for p in places), Fraction(0))
        if len(group) == 1:
            awards.append({"entrant": group[0]["entrant"], "place": place + 1,
                           "prize": money_str(to_cents_down(amount))})
        elif share_ties:
            each = to_cents_down(amount / len(group))
            awards += [{"entrant": r["entrant"], "place": place + 1, "prize": money_str(each),
                        "note": f"tied: places {places[0] + 1}-{place + len(group)} shared"} for r in group]
        else:
            undetermined.append({"entrants": [r["entrant"] for r in group],
                                 "places": [p + 1 for p in places], "amount": money_str(to_cents_down(amount)),
                                 "note": "a tie across prize places: the tournament instructions' tie rule decides"})
        place += len(group)
    paid = sum((Decimal(a["prize"]) for a in awards), Decimal(0)) + sum(
        (Decimal(u["amount"]) for u in undetermined), Decimal(0))
    return {"basis": basis, "pool": money_str(to_cents_down(pool)), "pool_exact": exact(pool), "awards": awards,
            "undetermined": undetermined, "breakage": exact(pool - Fraction(paid))}


def slot_tournament(doc: Mapping[str, Any]) -> dict[str, Any]:
    fields(doc, KEYS)
    venue_type = venue(need(doc, "venue"))
    machine = need(doc, "machine")
    if machine not in MACHINES:
        raise EngineError("machine", f"{machine!r} is not one of: {', '.join(MACHINES)}")
    violations, notes, (terms, fee) = _terms(doc, venue_type, machine)
    scoring = need(doc, "scoring")
    fields(scoring, METRICS, "scoring")
    if not scoring:
        raise EngineError("scoring", f"the instructions' weights by metric ({', '.join(METRICS)})")
    weights = {m: number(w, f"scoring.{m}", negative=True) for m, w in scoring.items()}
    tie_break = doc.get("tie_break", [])
    if not isinstance(tie_break, list) or any(m not in METRICS for m in tie_break) or len(set(tie_break)) != len(
            tie_break):
        raise EngineError("tie_break", f"a list of distinct metrics ({', '.join(METRICS)}), compared in order")
    raw_heats = need(doc, "heats")
    if not isinstance(raw_heats, list) or not 1 <= len(raw_heats) <= 100:
        raise EngineError("heats", "a list of 1-100 heats, in the order played")
    heats = []
    for i, heat in enumerate(raw_heats):
        h = _heat(i, heat, weights, tie_break, i == len(raw_heats) - 1)
        if heats:
            prev = heats[-1]
            names = {r["entrant"] for r in h["ranked"]}
            missing = [n for n in prev["sure"] if n not in names]
            extra = [n for n in names if n not in prev["sure"] and n not in prev["tied"]]
            if missing or extra:
                raise EngineError(f"heats[{i}].results", "the participants must be those who advanced from heat "
                                  f"{i}" + (f"; missing {missing}" if missing else "") +
                                  (f"; did not advance {sorted(extra)}" if extra else ""))
        heats.append(h)
    # The overall order: the last heat's ranking, then those out in each earlier heat by their rank there.
    order: list[dict[str, Any]] = []
    offset = 0
    placed: set[str] = set()
    for h in reversed(heats):
        group = [r for r in h["ranked"] if r["entrant"] not in placed]
        first = group[0]["rank"] if group else 0
        for r in group:
            order.append({"entrant": r["entrant"], "overall_rank": offset + r["rank"] - first + 1})
            placed.add(r["entrant"])
        offset += len(group)
    out_heats = []
    for h in heats:
        out_heats.append({
            "ranking": [{"entrant": r["entrant"], "rank": r["rank"], "points": exact(r["_points"])} for r in h["ranked"]],
            "advance": h["advance"], "advancing": h["sure"],
            "tied_at_cut": h["tied"],
        })
    last = heats[-1]["ranked"]
    winners = [r["entrant"] for r in last if r["rank"] == 1]
    answer: dict[str, Any] = {
        "ok": not violations, "violations": violations, "terms": terms, "notes": notes,
        "heats": out_heats, "overall": order,
        "winner": winners[0] if len(winners) == 1 else None,
        "tied_for_first": winners if len(winners) > 1 else [],
        "rule": "000-lottery RA III: the best under the instructions when the last heat's playing time ends",
    }
    if doc.get("prizes") is not None:
        answer["prizes"] = _prizes(doc, fee, len(heats[0]["ranked"]), order)
    return answer


KINDS["slot_tournament"] = slot_tournament
