"""The app registries in compliance (DESIGN §1): the apps register their role grants, pages, report
kinds and demo data from their AppConfig.ready(), and what staff get from them is exactly what the
tables in compliance and config gave before (expected_roles_and_navigation.json, taken from that code)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.urls import reverse

from compliance import demo, roles
from compliance.demo import register_demo, seeders_in_order
from compliance.management.commands import seed_demo
from compliance.models import Report
from compliance.navigation import ENTRIES
from compliance.reports.kinds import KINDS, ReportKind, register_kind
from config.navigation import entries_for
from lottery.reports import DRAW_PAYOUT, LARGE_WINS
from players.reports import PLAYER_PROTECTION

EXPECTED = json.loads((Path(__file__).parent / "expected_roles_and_navigation.json").read_text())
STAFF_ROLES = [r for r in roles.ROLES if r != roles.SALES_CHANNEL]
# What the casino added since (issue 17's round check and rule versions; issue 19's venues, tables, recorded
# rounds and discrepancies, and its two roles), granted on purpose.
VENUES_READ = ["casino.view_table", "casino.view_tableversion", "casino.view_venue"]
ROUNDS_READ = ["casino.view_discrepancy", "casino.view_recordedround", "casino.view_roundbatch"]
# Issue 19 item 4: disputes (the inspector records them) and complaints (the manager handles them).
DISPUTES_READ = ["casino.view_complaint", "casino.view_dispute"]
# Issue 19 item 3: the jackpots (read by the casino roles and compliance; managed by the casino manager; a
# large win approved by the compliance officer).
JACKPOTS_READ = ["casino.view_jackpot", "casino.view_jackpotaccrual", "casino.view_jackpotday",
                 "casino.view_jackpotentry", "casino.view_jackpotversion"]
CASINO_PERMISSIONS = {
    roles.OPERATOR: ["casino.check_round", "casino.view_casinoruleversion"],
    roles.DRAW_SUPERVISOR: ["casino.check_round", "casino.view_casinoruleversion"],
    roles.COMPLIANCE_OFFICER: ["casino.view_casinoruleversion", "casino.view_roundcheck", *VENUES_READ, *ROUNDS_READ,
                               "casino.resolve_discrepancy", *DISPUTES_READ, *JACKPOTS_READ,
                               "casino.approve_jackpot_win"],
    roles.AUDITOR: ["casino.view_casinoruleversion", "casino.view_roundcheck", *VENUES_READ, *ROUNDS_READ,
                    "casino.view_roundverification", *DISPUTES_READ, *JACKPOTS_READ],
    roles.ADMINISTRATOR: ["casino.check_round", "casino.publish_rules", "casino.view_casinoruleversion",
                          "casino.view_roundcheck", *VENUES_READ, *ROUNDS_READ, "casino.view_roundverification",
                          "casino.add_venue", "casino.change_venue", "casino.delete_venue", "casino.add_table",
                          "casino.change_table", "casino.delete_table", "casino.manage_venues", "casino.record_round",
                          "casino.resolve_discrepancy", *DISPUTES_READ, "casino.record_dispute", "casino.record_complaint",
                          "casino.handle_complaint", *JACKPOTS_READ, "casino.manage_jackpots",
                          "casino.approve_jackpot_win"],
    roles.CASINO_MANAGER: ["casino.check_round", "casino.view_casinoruleversion", "casino.publish_rules",
                           "casino.manage_venues", *VENUES_READ, *ROUNDS_READ, "casino.resolve_discrepancy",
                           *DISPUTES_READ, "casino.record_complaint", "casino.handle_complaint", *JACKPOTS_READ,
                           "casino.manage_jackpots"],
    roles.CASINO_INSPECTOR: ["casino.check_round", "casino.view_casinoruleversion", *VENUES_READ, *ROUNDS_READ,
                             "casino.record_round", *DISPUTES_READ, "casino.record_dispute", "casino.record_complaint",
                             *JACKPOTS_READ],
    roles.SALES_CHANNEL: ["casino.record_round"],
}
OPERATIONS_PAGES = ["casino:venues", "casino:rounds", "casino:discrepancies", "casino:disputes", "casino:complaints",
                    "casino:jackpots"]
CASINO_PAGES = {
    roles.OPERATOR: ["casino:round-check", "casino:rules"],
    roles.DRAW_SUPERVISOR: ["casino:round-check", "casino:rules"],
    roles.COMPLIANCE_OFFICER: [*OPERATIONS_PAGES, "casino:rules"],
    roles.AUDITOR: [*OPERATIONS_PAGES, "casino:rules"],
    roles.ADMINISTRATOR: [*OPERATIONS_PAGES, "casino:round-check", "casino:rules"],
    roles.CASINO_MANAGER: [*OPERATIONS_PAGES, "casino:round-check", "casino:rules"],
    roles.CASINO_INSPECTOR: [*OPERATIONS_PAGES, "casino:round-check", "casino:rules"],
}


def _expected_pages(role: str) -> list[str]:
    """The pages of before, with the casino's after the lottery's (config.navigation.SECTIONS)."""
    before = EXPECTED["navigation"][role]
    role = role.removesuffix("+staff")
    cut = max(i for i, name in enumerate(before) if name == "dashboard" or name.startswith("lottery:")) + 1
    return [*before[:cut], *CASINO_PAGES.get(role, []), *before[cut:]]


def _group_permissions(role: str) -> list[str]:
    perms = Group.objects.get(name=role).permissions.select_related("content_type")
    return sorted(f"{p.content_type.app_label}.{p.codename}" for p in perms)


# --- role grants --------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", roles.ROLES)
def test_each_role_group_holds_exactly_the_permissions_it_held_before_the_apps_registered_them(db, role):
    assert _group_permissions(role) == sorted(EXPECTED["roles"][role] + CASINO_PERMISSIONS.get(role, []))


def test_every_project_app_registers_its_role_grants():
    assert list(roles.GRANTS) == ["compliance", "players", "lottery", "casino"]


def test_an_app_may_not_grant_another_apps_permissions():
    with pytest.raises(ValueError, match="only its own permissions, not compliance.view_report"):
        roles.register_grants("lottery", {roles.OPERATOR: ["lottery.view_draw", "compliance.view_report"]})
    assert "compliance.view_report" not in roles.GRANTS["lottery"].get(roles.OPERATOR, [])


def test_a_grant_to_an_unknown_role_is_refused():
    with pytest.raises(ValueError, match="unknown role 'Croupier'"):
        roles.register_grants("casino", {"Croupier": ["casino.view_table"]})


# --- navigation -------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", STAFF_ROLES)
def test_the_header_shows_each_role_the_pages_it_showed_before(staff_client, role):
    response = staff_client(role).get(reverse("dashboard"))
    assert [item["url_name"] for item in response.context["nav_items"]] == _expected_pages(role)


@pytest.mark.parametrize("role", STAFF_ROLES)
def test_the_dashboard_shows_each_role_the_tiles_it_showed_before(staff_client, role):
    response = staff_client(role).get(reverse("dashboard"))
    expected = [name for name in _expected_pages(role) if name != "dashboard"]
    assert [tile["url_name"] for tile in response.context["tiles"]] == expected


def test_a_staff_administrator_also_sees_the_django_admin(staff_client):
    response = staff_client(roles.ADMINISTRATOR, is_staff=True).get(reverse("dashboard"))
    assert [i["url_name"] for i in response.context["nav_items"]] == _expected_pages("Administrator+staff")


def test_a_sales_channel_user_is_offered_the_pages_it_was_offered_before(make_staff):
    user = make_staff(roles.SALES_CHANNEL)
    assert [e["url_name"] for e in entries_for(user)] == EXPECTED["navigation"][roles.SALES_CHANNEL]


def test_each_app_registers_its_own_pages():
    assert {app: sorted({e.url_name.split(":")[0] for e in entries}) for app, entries in ENTRIES.items()} == {
        "compliance": ["compliance"], "players": ["players"], "lottery": ["lottery"], "casino": ["casino"]}


# --- report kinds -----------------------------------------------------------------------------------


def test_the_report_kinds_are_offered_in_the_order_the_apps_registered_them():
    assert list(KINDS) == ["audit_extract", "exclusion_hits", "player_protection", "draw_payout", "large_wins",
                           "casino_venue_day", "casino_disputes_complaints", "jackpot_liability"]


def test_the_lottery_and_players_kinds_are_their_apps_own():
    assert (KINDS["draw_payout"], KINDS["large_wins"], KINDS["player_protection"]) == (
        DRAW_PAYOUT, LARGE_WINS, PLAYER_PROTECTION)


def test_the_reports_page_offers_a_kind_registered_by_the_lottery_with_the_fields_it_adds(staff_client):
    response = staff_client(roles.COMPLIANCE_OFFICER).get(reverse("compliance:reports"))
    form = response.context["form"]
    assert ("draw_payout" in dict(form.fields["kind"].choices),
            response.context["kind_fields"]["draw_payout"]) == (True, ["draw", "draw_id", "version"])


@pytest.fixture
def extra_kind():
    kind = ReportKind("test_registered", "Registered in a test", "1", "compliance/reports/table.html",
                      (("n", "N"),), lambda params: [{"n": 1}])
    register_kind(kind)
    yield kind
    del KINDS[kind.key]


def test_a_kind_registered_by_an_app_can_be_requested_on_the_reports_page(staff_client, extra_kind):
    client = staff_client(roles.COMPLIANCE_OFFICER)
    client.post(reverse("compliance:report-create"), {"kind": extra_kind.key, "language": "en",
                                                      "since": "2026-01-01", "until": "2026-01-31"})
    assert Report.objects.get().kind == extra_kind.key


def test_a_second_kind_under_a_registered_key_is_refused(extra_kind):
    with pytest.raises(ValueError, match="registered twice"):
        register_kind(ReportKind(extra_kind.key, "Another", "1", "compliance/reports/table.html", (), None))


# --- demo data --------------------------------------------------------------------------------------


def test_seed_demo_runs_the_seeders_of_the_apps_in_dependency_order():
    assert [s.app_label for s in seeders_in_order()] == ["compliance", "players", "lottery", "casino"]


def test_seed_demo_names_no_app():
    source = Path(seed_demo.__file__).read_text()
    assert [name for name in ("players", "lottery", "casino") if name in source] == []


@pytest.fixture
def recorded_seeders(monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(demo, "SEEDERS", {})
    register_demo("second", lambda stdout: calls.append("second"), after=("first", "not-installed"))
    register_demo("first", lambda stdout: calls.append("first"))
    return calls


def test_seed_demo_runs_every_registered_seeder_after_those_it_needs(db, recorded_seeders):
    call_command("seed_demo", stdout=io.StringIO())
    assert recorded_seeders == ["first", "second"]


def test_seeders_that_need_each_other_in_a_circle_are_refused(monkeypatch):
    monkeypatch.setattr(demo, "SEEDERS", {})
    register_demo("a", print, after=("b",))
    register_demo("b", print, after=("a",))
    with pytest.raises(ValueError, match="circle"):
        seeders_in_order()
