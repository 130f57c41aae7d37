"""Issue 17's "Done when": every game and variant of the engine registry computes through `casino_compute`,
the round-check page and the round-check API, and all three give the same answer.

Each variant is checked with a worked example of its game (tests/casino/rules/examples/): its own when
there is one, else the game's first example with the variant swapped in (a variant changes paytables and
dealer rules, not what a round looks like). Two variants have no example of their own rulebook: Dynamic
Poker of 000 is checked with 002's round, and Tuplanoppa (whose paytable the rulebook lost) with the
posted paytable of its example, published as the variant's version (the built-in data lacks it, so a
check against the built-in version is refused naming `rules.dice`)."""

from __future__ import annotations

import copy
import json

from django.utils import timezone

from casino import services
from casino.models import RoundCheck
from casino.rules import registry
from casino.rules.base import EngineError
from casino.rules.jsonio import compute
from compliance import roles
from tests.casino.conftest import V1_FROM
from tests.casino.rules.support import EXAMPLES_DIR

PAGE = "/casino/rounds/check/"
API = "/api/v1/casino/rounds/check/"
BORROWED = {("000", "dynamic_poker"): ("002", "dynamic_poker", {"venue": "game_hall"})}


def _computes(doc: dict) -> bool:
    try:
        compute(doc)
    except EngineError:
        return False
    return True


def _examples() -> list[dict]:
    docs = []
    for path in sorted(EXAMPLES_DIR.rglob("*.json")):
        doc = json.loads(path.read_text()).get("input")
        if isinstance(doc, dict) and doc.get("kind") == "round" and _computes(doc):
            docs.append(doc)
    return docs


def _rounds() -> dict[tuple[str, str, str], dict]:
    """One computing round for every (rulebook, game, variant) of the registry."""
    examples = _examples()
    own = {(d["rulebook"], d["game"], d["variant"]): d for d in reversed(examples)}
    first = {(d["rulebook"], d["game"]): d for d in reversed(examples) if "rules" not in d}
    rounds = {}
    for (rulebook, game), engine in sorted(registry.engines().items()):
        for variant in engine.variants:
            doc = own.get((rulebook, game, variant))
            if doc is None:
                base_rulebook, base_game, changes = BORROWED.get((rulebook, game), (rulebook, game, {}))
                doc = {**copy.deepcopy(first[(base_rulebook, base_game)]), "rulebook": rulebook, "game": game,
                       "variant": variant, **changes}
            rounds[(rulebook, game, variant)] = doc
    return rounds


ROUNDS = _rounds()


def _publish(doc: dict):
    """The variant's version 1: the round's own rule data when it brings some (Tuplanoppa's posted
    paytable), else the engine's."""
    data = doc.get("rules") or registry.get(doc["rulebook"], doc["game"]).variants[doc["variant"]]
    return services.rule_version_publish(actor="system:test", rulebook=doc["rulebook"], game=doc["game"],
                                         variant=doc["variant"], effective_from=timezone.make_aware(V1_FROM),
                                         rules=dict(data))[0]


def _page_form(doc: dict) -> dict:
    venue = doc["venue"]
    kind = venue if isinstance(venue, str) else venue["kind"]
    limits = {} if isinstance(venue, str) else {k: v for k, v in venue.items() if k != "kind"}
    data = {"game": f"{doc['rulebook']}/{doc['game']}/{doc['variant']}", "venue": f"{doc['rulebook']}/{kind}",
            "outcome": json.dumps(doc["outcome"]), "table_limits": json.dumps(limits) if limits else "",
            "round_at": "", "bets-TOTAL_FORMS": str(len(doc["bets"])), "bets-INITIAL_FORMS": "0",
            "bets-MIN_NUM_FORMS": "0", "bets-MAX_NUM_FORMS": "50"}
    for i, bet in enumerate(doc["bets"]):
        bet = dict(bet)
        data[f"bets-{i}-type"], data[f"bets-{i}-stake"] = bet.pop("type"), bet.pop("stake")
        for key in ("box", "player"):
            if key in bet:
                data[f"bets-{i}-{key}"] = str(bet.pop(key))
        data[f"bets-{i}-params"] = json.dumps(bet) if bet else ""
    return data


def test_every_variant_of_the_registry_has_a_round():
    known = {(rb, game, v) for (rb, game), engine in registry.engines().items() for v in engine.variants}
    assert set(ROUNDS) == known and len(known) > 80


def _through_page_and_api(doc: dict, page_client, api_client) -> list[str]:
    """What differs from casino_compute's answer for this round on the page and in the API ([] when nothing)."""
    version = _publish(doc)
    expected = compute({**{k: v for k, v in doc.items() if k != "rules"}, "rules": version.rules})
    problems = []
    body = {k: doc[k] for k in ("rulebook", "game", "variant", "venue", "bets", "outcome")}
    api = api_client.post(API, body, format="json")
    if api.status_code != 201:
        problems.append(f"API {api.status_code}: {api.json()}")
    elif api.json()["answer"] != expected or api.json()["rule_version"]["id"] != version.pk:
        problems.append("API: another answer")
    before = RoundCheck.objects.count()
    page = page_client.post(PAGE, _page_form(doc))
    if page.status_code != 200 or RoundCheck.objects.count() != before + 1:
        problems.append(f"page {page.status_code}: nothing recorded")
    elif RoundCheck.objects.order_by("-pk").first().answer != expected:
        problems.append("page: another answer")
    return problems


def test_every_variant_computes_the_same_through_the_command_the_page_and_the_api(db, staff_client, api_client_for):
    page_client, api_client = staff_client(roles.OPERATOR), api_client_for(roles.OPERATOR)
    problems = {"/".join(key): found for key, doc in sorted(ROUNDS.items())
                if (found := _through_page_and_api(doc, page_client, api_client))}
    assert problems == {}
    assert RoundCheck.objects.count() == 2 * len(ROUNDS)
