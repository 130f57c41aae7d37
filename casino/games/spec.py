"""The casino's game plug-ins (docs/architecture.md, "A round-based casino game").

``TableGameSpec`` extends ``compliance.games.GameSpec`` with what the casino's round pipeline needs:
the engine games of the family (``engines``: the game codes of ``casino.rules`` it covers, in every
rulebook), its share of the benchmark's mix, a sample generator (demo and benchmark rounds, from the
family's documented examples) and its **verification strategy**: given a recorded round and the rule
version in force, what each bet should have paid and what is wrong with what was paid.

Code outside a family's module asks the registry (``casino.games.registry``); it never branches on a
game's name.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson

from casino.rules import jsonio, registry, versions
from casino.rules.base import EngineError, settle_round
from compliance.games import GameSpec

SAMPLES = json.loads((Path(__file__).parent / "samples.json").read_text())

# What verification finds (casino.models.Discrepancy.Kind).
PAYOUT, NOT_ALLOWED, NOT_VOIDED, PLAYER_REFUSED, UNVERIFIABLE = (
    "payout", "not_allowed", "not_voided", "player_refused", "unverifiable")


def cents(amount: str) -> int:
    """A decimal string of the engines ("12.50") in cents."""
    return int(Decimal(amount) * 100)


@dataclass(frozen=True)
class Finding:
    kind: str
    bet_index: int | None
    amount_cents: int | None
    detail: str


@dataclass
class Verdict:
    """What one round should have paid (`due_cents` per bet, None when it could not be computed)
    and what is wrong with what was paid (`findings`). `answer`: the engine's answer."""

    due_cents: list[int] | None
    difference_cents: int | None
    findings: list[Finding] = field(default_factory=list)
    answer: dict | None = None
    #: The stakes voided above the limits and the winnings cut by the win cap, in cents (the daily
    #: venue report sums them); None when the round could not be computed.
    voided_excess_cents: int | None = None
    capped_excess_cents: int | None = None

    @property
    def due_total_cents(self) -> int | None:
        return None if self.due_cents is None else sum(self.due_cents)


#: Rule data by its key (a published version's SHA-256) and venue frames by their canonical text, for
#: the cached answers below (the keys stand for the data in the caches' keys).
_RULES: dict[str, Mapping[str, Any]] = {}
_VENUES: dict[str, Mapping[str, Any] | str] = {}

#: What verification needs of one bet of an engine's answer: the payout due in cents, the plays the
#: rules did not allow, the kind of discrepancy a different payment is, the rule applied, and the
#: stake voided above the limit in cents.
BetDue = tuple[int, tuple[str, ...], str, str, int]


def canonical(value: Any) -> str | None:
    """The canonical text of a JSON value (keys sorted, no spaces), or None for what JSON cannot hold
    exactly here (an integer beyond 64 bits): equal texts are equal values, so the text can stand for
    the value as a cache key. A str, not orjson's bytes, which keep a buffer of kilobytes each."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError
        return None


def _bet_due(bet: Mapping[str, Any]) -> BetDue:
    """A bet of the engine's JSON answer (casino.rules.jsonio.result_json) as verification reads it."""
    if bet["status"] == "refused":
        kind = PLAYER_REFUSED
    elif bet["voided_excess"] != "0.00":
        kind = NOT_VOIDED
    else:
        kind = PAYOUT
    return cents(bet["payout"]), tuple(bet.get("violations", ())), kind, bet["rule"], cents(bet["voided_excess"])


def _document(rules_key: str, venue_key: str, rulebook: str, game: str, variant: str, bets: Any,
              outcome: Any) -> dict[str, Any]:
    doc = {"kind": "round", "rulebook": rulebook, "venue": _VENUES[venue_key], "game": game, "variant": variant,
           "bets": bets, "outcome": outcome}
    if rules_key:
        doc["rules"] = _RULES[rules_key]
    return doc


@lru_cache(maxsize=20_000)
def _answer(rules_key: str, doc_json: str) -> dict:
    """The engine's answer for one canonical round document under the rule data `rules_key` (the
    round page's answer, and rounds whose text JSON cannot key exactly)."""
    doc = json.loads(doc_json)
    if rules_key:
        doc["rules"] = _RULES[rules_key]
    return jsonio.round_json(doc)


@lru_cache(maxsize=20_000)
def _round_dues(rules_key: str, venue_key: str, rulebook: str, game: str, variant: str, bets_key: str,
                outcome_key: str) -> tuple[tuple[BetDue, ...], int]:
    """Every bet's due of one round, computed by the engine (the whole round: age, limits, the game,
    the win cap). The engines are pure: the same round under the same rule data and frame has the same
    answer, and recorded rounds repeat (the same documented deal at the same stakes), so a process
    computes each once (EngineError is not cached: it is raised again). With the winnings the win cap
    cut, in cents."""
    doc = _document(rules_key, venue_key, rulebook, game, variant, orjson.loads(bets_key), orjson.loads(outcome_key))
    whole = jsonio.round_json(doc)
    return tuple(_bet_due(b) for b in whole["bets"]), cents(whole["capped_excess"])


@lru_cache(maxsize=1_000)
def _frame(rules_key: str, venue_key: str, rulebook: str, game: str, variant: str):
    """(engine, rule data, legal frame, win cap in cents or None) of a round's context, parsed by the
    engines' own `parse_round` (with a stand-in bet: the real bets are parsed one by one), or None
    when the engines refuse it (the whole round then goes to the engine, which says why)."""
    probe = _document(rules_key, venue_key, rulebook, game, variant, [{"type": "-", "stake": "1.00"}], {})
    try:
        engine, rules, venue, _bets, _outcome = jsonio.parse_round(probe)
    except EngineError:
        return None
    return engine, rules, venue, None if venue.win_cap is None else int(venue.win_cap * 100)


@lru_cache(maxsize=50_000)
def _bet_alone(rules_key: str, venue_key: str, rulebook: str, game: str, variant: str, bet_key: str,
               outcome_key: str) -> tuple[BetDue, int]:
    """One bet settled by the engine as a round of its own (`settle_round`: age, its stake limit, the
    game, the cap), with its winnings in cents before any cap. For an engine that settles each bet
    alone (``settles_bets_alone``) this is the bet's result inside any round whose players together
    win no more than the cap, whatever the other bets (tests/casino/test_bet_alone.py proves it)."""
    engine, rules, venue, _cap = _frame(rules_key, venue_key, rulebook, game, variant)
    result = settle_round(engine, rules, venue, [jsonio.parse_bet(0, orjson.loads(bet_key))], orjson.loads(outcome_key))
    return _bet_due(jsonio.result_json(result)["bets"][0]), int(result.bets[0].winnings * 100)


@lru_cache(maxsize=10_000)
def _seat_ok(box_type: type, box: Any, player_type: type, player: Any) -> bool:
    """Whether the engine accepts a bet's box and player (`jsonio.parse_bet`, on a stand-in bet)."""
    try:
        jsonio.parse_bet(0, {"type": "-", "stake": "1.00", "box": box, "player": player})
    except EngineError:
        return False
    return True


def _seated(bet: Any) -> Any:
    """The bet without its box and player (what a bet settled alone does not read: they only group
    winnings under the cap), or None when the engine would refuse them."""
    if not isinstance(bet, dict):
        return None
    if "box" not in bet and "player" not in bet:
        return bet
    box, player = bet.get("box"), bet.get("player")
    try:
        if not _seat_ok(type(box), box, type(player), player):
            return None
    except TypeError:  # an unhashable box or player: let the engine say what is wrong
        return None
    return {k: v for k, v in bet.items() if k != "box" and k != "player"}


def _dues_bet_by_bet(rules_key: str, venue_key: str, rulebook: str, game: str, variant: str, bets: Any,
                     outcome: Any, outcome_key: str) -> list[BetDue] | None:
    """Every bet's due from the bets settled alone, or None where that is not the whole round's answer
    (a bet or the outcome the engine refuses, or winnings that reach the win cap: the whole round then
    goes to the engine)."""
    if not isinstance(bets, list) or not bets or len(bets) > jsonio.MAX_BETS or not isinstance(outcome, Mapping):
        return None
    frame = _frame(rules_key, venue_key, rulebook, game, variant)
    if frame is None:
        return None
    cap = frame[3]
    dues: list[BetDue] = []
    won = 0
    for bet in bets:
        alone = _seated(bet)
        bet_key = None if alone is None else canonical(alone)
        if bet_key is None:
            return None
        try:
            due, winnings = _bet_alone(rules_key, venue_key, rulebook, game, variant, bet_key, outcome_key)
        except EngineError:
            return None
        dues.append(due)
        won += winnings
    if cap is not None and won > cap:
        return None
    return dues


@lru_cache(maxsize=256)
def _settles_bets_alone(rulebook: str, game: str) -> bool:
    try:
        return bool(getattr(registry.get(rulebook, game), "settles_bets_alone", False))
    except EngineError:  # the whole round goes to the engine, which says what is wrong
        return False


class EngineVerification:
    """The verification strategy of a house-banked table game: the round recomputed by the engine
    (age, stake-limit voids, the game, the win cap) with the rule data of the version in force, and
    every bet's due payout compared with what was paid.

    How the engine is asked (the answer is the same, tests/casino/test_bet_alone.py): an engine that
    settles each bet alone (``settles_bets_alone``: roulette, the wheels and dice) is asked bet by bet,
    each (bet, outcome, rule data, frame) once per process, when the round's winnings stay within the
    win cap; any other round is asked whole, each distinct round once per process."""

    def verify(self, *, rulebook: str, game: str, variant: str, rules: Mapping[str, Any] | None,
               venue: Mapping[str, Any] | str, bets: Sequence[Mapping[str, Any]], outcome: Mapping[str, Any],
               paid_cents: Sequence[int], rules_key: str = "", venue_key: str | None = None,
               answer: bool = False) -> Verdict:
        """`rules_key`: the fingerprint of `rules` (a published version's SHA-256) and `venue_key`:
        `canonical(venue)`, so that neither is serialised for every round; computed when not given.
        `answer`: the engine's whole answer too (the round page), computed for the whole round."""
        if rules is not None:
            rules_key = rules_key or versions.fingerprint(rules)
            _RULES.setdefault(rules_key, rules)
        else:
            rules_key = ""
        venue_key = venue_key or canonical(venue)
        outcome_key = canonical(outcome)
        try:
            dues, capped = None, 0  # bets settled alone are asked only while no win reaches the cap
            if not answer and venue_key is not None and outcome_key is not None:
                _VENUES.setdefault(venue_key, venue)
                if type(rulebook) is str and type(game) is str and _settles_bets_alone(rulebook, game):
                    dues = _dues_bet_by_bet(rules_key, venue_key, rulebook, game, variant, bets, outcome, outcome_key)
                if dues is None and (bets_key := canonical(bets)) is not None:
                    dues, capped = _round_dues(rules_key, venue_key, rulebook, game, variant, bets_key, outcome_key)
            if dues is None:
                doc = {"kind": "round", "rulebook": rulebook, "venue": venue, "game": game, "variant": variant,
                       "bets": list(bets), "outcome": outcome}
                whole = _answer(rules_key, json.dumps(doc, sort_keys=True, separators=(",", ":")))
                return _judge([_bet_due(b) for b in whole["bets"]], paid_cents, cents(whole["capped_excess"]), whole)
        except EngineError as exc:
            return Verdict(None, None, [Finding(UNVERIFIABLE, None, None, f"{exc.field}: {exc.message}")])
        return _judge(dues, paid_cents, capped)


def _judge(dues: Sequence[BetDue], paid_cents: Sequence[int], capped_cents: int,
           answer: dict | None = None) -> Verdict:
    """What was paid against what was due, bet by bet."""
    due = [d[0] for d in dues]
    voided = sum(d[4] for d in dues)
    if len(paid_cents) != len(due):
        return Verdict(due, None, [Finding(UNVERIFIABLE, None, None, "paid: one amount per bet")], answer,
                       voided, capped_cents)
    findings: list[Finding] = []
    for index, ((owed, violations, kind, rule, _voided), paid) in enumerate(zip(dues, paid_cents)):
        for violation in violations:
            findings.append(Finding(NOT_ALLOWED, index, None, violation))
        if paid != owed:
            findings.append(Finding(kind, index, paid - owed, rule))
    return Verdict(due, sum(paid_cents) - sum(due), findings, answer, voided, capped_cents)


def clear_caches() -> None:
    """Forget every computed answer (the benchmark, so that the verification computes its own)."""
    for cached in (_answer, _round_dues, _frame, _bet_alone, _seat_ok):
        cached.cache_clear()


VERIFY = EngineVerification()


def sample_round(templates: Sequence[Mapping[str, Any]], rng: random.Random,
                 vary: Callable[[dict, random.Random], None] | None = None) -> dict:
    """One documented round of the family at random, stakes scaled by 1, 2 or 5 (within the limits of
    the frames the examples come from) and, where the family says how, its outcome drawn anew."""
    doc = json.loads(json.dumps(rng.choice(templates)))
    factor = rng.choice((1, 1, 2, 5)) if doc["frame"] != "game_hall" else 1
    for bet in doc["bets"]:
        bet["stake"] = str(Decimal(bet["stake"]) * factor)
    if vary is not None:
        vary(doc, rng)
    return doc


@dataclass(frozen=True)
class TableGameSpec(GameSpec):
    """A table game family: its engines' game codes, its verification and its sample rounds."""

    engines: tuple[str, ...] = ()
    verification: EngineVerification = VERIFY
    mix_percent: int = 0  # its share of the benchmark's rounds (issue 19 item 7)
    sampler: Callable[[random.Random, str, str], dict | None] | None = None  # (rng, rulebook, frame) -> round

    def sample(self, rng: random.Random, rulebook: str, frame: str) -> dict | None:
        """A realistic round of the family for a venue frame (None: none documented there)."""
        return None if self.sampler is None else self.sampler(rng, rulebook, frame)


def documented_sampler(family: str, vary: Callable[[dict, random.Random], None] | None = None):
    """A sampler drawing from the family's documented examples (samples.json) of the frame."""

    def sampler(rng: random.Random, rulebook: str, frame: str) -> dict | None:
        templates = [t for t in SAMPLES.get(family, ()) if t["rulebook"] == rulebook and t["frame"] == frame]
        return sample_round(templates, rng, vary) if templates else None

    return sampler
