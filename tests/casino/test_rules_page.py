"""The casino rules page: every game and variant with the version in force, and a version's paytable
and the exact house edge of every bet."""

from __future__ import annotations

import copy
import datetime as dt

import pytest
from django.utils import timezone

from casino import services
from casino.models import CasinoRuleVersion
from casino.rules.games import roulette
from compliance import roles

SINGLE = "single_zero_zero_loses"


def test_rules_page_lists_every_variant_with_the_version_in_force(staff_client, published):
    response = staff_client(roles.COMPLIANCE_OFFICER).get("/casino/rules/")
    rows = {(r["rulebook"], r["game"], r["variant"]): r for r in response.context["rows"]}
    assert len(rows) == CasinoRuleVersion.objects.count()
    assert rows[("000", "roulette", SINGLE)]["in_force"].version == 1


def test_rules_page_shows_a_later_version_as_next_not_in_force(staff_client, published):
    rules = copy.deepcopy(roulette.VARIANTS_000[SINGLE])
    rules["payouts"]["straight"] = "36"
    later = timezone.now() + dt.timedelta(days=7)
    services.rule_version_publish(actor="system:test", rulebook="000", game="roulette", variant=SINGLE,
                                  effective_from=later, rules=rules)
    row = next(r for r in staff_client(roles.AUDITOR).get("/casino/rules/").context["rows"] if r["variant"] == SINGLE)
    assert (row["in_force"].version, row["upcoming"].version) == (1, 2)


def test_version_page_shows_the_exact_edge_of_every_bet(staff_client, published):
    version = CasinoRuleVersion.objects.get(rulebook="000", game="roulette", variant=SINGLE)
    body = staff_client(roles.OPERATOR).get(f"/casino/rules/{version.pk}/").content.decode()
    assert '<tr data-bet="straight"><td class="mono">straight</td><td class="num edge">2.702702</td>' in body
    assert "1/37" in body and "payouts.straight" in body


@pytest.mark.parametrize("language,shown", [("fi", "2,702702"), ("sv", "2,702702"), ("en", "2.702702")])
def test_version_page_writes_the_edge_with_the_readers_decimal_separator(staff_client, published, language, shown):
    version = CasinoRuleVersion.objects.get(rulebook="000", game="roulette", variant=SINGLE)
    client = staff_client(roles.OPERATOR)
    client.cookies["django_language"] = language
    body = client.get(f"/casino/rules/{version.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<tr data-bet="straight"><td class="mono">straight</td><td class="num edge">{shown}</td>' in body


def test_version_page_says_when_the_engines_compute_no_edge(staff_client, published):
    version = CasinoRuleVersion.objects.filter(game="blackjack").first()
    response = staff_client(roles.OPERATOR).get(f"/casino/rules/{version.pk}/")
    assert response.context["edges"].edges is None and not response.context["edges"].error


def test_version_page_names_the_value_a_lost_figure_needs(staff_client, published):
    version = CasinoRuleVersion.objects.get(game="tuplanoppa")
    assert "rules.dice" in staff_client(roles.OPERATOR).get(f"/casino/rules/{version.pk}/").context["edges"].error


def test_rules_page_of_one_game_shows_each_variants_paytable_and_edges(staff_client, published):
    response = staff_client(roles.AUDITOR).get("/casino/rules/", {"game": "000/money_wheel"})
    body = response.content.decode()
    assert {r["variant"] for r in response.context["rows"]} == {"casino", "game_hall"}
    assert body.count('<tr data-bet="20"><td class="mono">20</td><td class="num edge">22.222222</td>') == 2
    assert "sectors[0].odds" in body


def test_rules_page_ignores_an_unknown_game(staff_client, published):
    response = staff_client(roles.AUDITOR).get("/casino/rules/", {"game": "000/craps"})
    assert response.status_code == 200 and response.context["chosen"] == ""
