"""Casino rule versions: published through a service with its audit event, never changed, selected
by the time of the round, and never lowering the odds of the version they supersede."""

from __future__ import annotations

import copy
import datetime as dt
import io
import json
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from casino import services
from casino.models import CasinoRuleVersion
from casino.rules import versions
from casino.rules.games import roulette, wheels
from casino.selectors import house_edges, version_at
from compliance import roles
from compliance.errors import InvalidInput, StateConflict
from compliance.models import AuditEvent

SINGLE = "single_zero_zero_loses"


def _at(*args) -> dt.datetime:
    return timezone.make_aware(dt.datetime(*args))


def _future(days: int) -> dt.datetime:
    return timezone.now() + dt.timedelta(days=days)


def _publish(rules, when, variant=SINGLE, actor="system:test"):
    return services.rule_version_publish(actor=actor, rulebook="000", game="roulette", variant=variant,
                                         effective_from=when, rules=rules)


def _raised(rules=None, straight="36"):
    rules = copy.deepcopy(rules or roulette.VARIANTS_000[SINGLE])
    rules["payouts"]["straight"] = straight
    return rules


# ------------------------------------------------------------------------------------------- pure part


def test_payout_cells_are_the_ratio_strings_not_counts_or_commissions():
    cells = versions.payout_cells({"payouts": {"straight": "35"}, "decks": 6, "commission": "5/100",
                                   "sectors": [{"symbol": "1", "odds": "1", "count": 23}], "surrender": {"loses": "1/2"}})
    assert cells == {"payouts.straight": "35", "sectors[0].odds": "1"}


def test_a_lowered_and_a_dropped_cell_are_named():
    before = {"payouts": {"straight": "35", "split": "17", "street": "11"}}
    after = {"payouts": {"straight": "34", "split": "18"}}
    assert [(c.path, c.before, c.after) for c in versions.lowered_cells(before, after)] == [
        ("payouts.straight", "35", "34"), ("payouts.street", "11", None)]


def test_fractions_are_compared_as_numbers():
    assert versions.lowered_cells({"blackjack_pays": "3/2"}, {"blackjack_pays": "7/5"})[0].path == "blackjack_pays"
    assert versions.lowered_cells({"blackjack_pays": "6/5"}, {"blackjack_pays": "3/2"}) == []


# ------------------------------------------------------------------------------------------ publishing


def test_publishing_records_version_fingerprint_and_a_significant_audit_event(db, publisher):
    version, created = _publish(roulette.VARIANTS_000[SINGLE], _at(2026, 1, 1), actor=publisher)
    event = AuditEvent.objects.get(action="casino.rule_version_published")
    assert created and version.version == 1 and version.published_by == publisher.username
    assert version.rules_sha256 == versions.fingerprint(roulette.VARIANTS_000[SINGLE])
    assert event.significant and event.object_id == str(version.pk)


def test_publishing_the_same_data_and_date_again_changes_nothing(db):
    first, _ = _publish(roulette.VARIANTS_000[SINGLE], _at(2026, 1, 1))
    again, created = _publish(roulette.VARIANTS_000[SINGLE], _at(2026, 1, 1))
    assert (again.pk, created) == (first.pk, False)


def test_a_published_version_is_never_changed_or_deleted(db):
    version, _ = _publish(roulette.VARIANTS_000[SINGLE], _at(2026, 1, 1))
    version.source = "edited"
    with pytest.raises(ValueError):
        version.save()
    with pytest.raises(ValueError):
        version.delete()


def test_a_version_that_raises_the_odds_is_the_next_version(db):
    _publish(roulette.VARIANTS_000[SINGLE], _at(2026, 1, 1))
    version, created = _publish(_raised(), _future(30))
    assert created and version.version == 2


def test_a_version_that_lowers_a_payout_is_refused_naming_the_cell(db):
    _publish(roulette.VARIANTS_000[SINGLE], _at(2026, 1, 1))
    with pytest.raises(services.OddsLowered) as refusal:
        _publish(_raised(straight="34"), _future(30))
    assert "payouts.straight" in refusal.value.detail
    assert refusal.value.extra["cells"] == [{"cell": "payouts.straight", "before": "35", "after": "34"}]
    assert CasinoRuleVersion.objects.count() == 1


def test_a_new_version_cannot_take_effect_in_the_past(db):
    _publish(roulette.VARIANTS_000[SINGLE], _at(2026, 1, 1))
    with pytest.raises(StateConflict) as refusal:
        _publish(_raised(), timezone.now() - dt.timedelta(hours=1))
    assert "effective_from" in refusal.value.fields


def test_a_new_version_must_take_effect_after_the_latest(db):
    _publish(roulette.VARIANTS_000[SINGLE], _future(60))
    with pytest.raises(StateConflict):
        _publish(_raised(), _future(30))


@pytest.mark.parametrize("kwargs,field", [({"game": "craps"}, "game"), ({"variant": "triple_zero"}, "variant"),
                                          ({"rules": []}, "rules")])
def test_bad_publication_names_the_field(db, kwargs, field):
    args = {"actor": "system:test", "rulebook": "000", "game": "roulette", "variant": SINGLE,
            "effective_from": _at(2026, 1, 1), "rules": roulette.VARIANTS_000[SINGLE], **kwargs}
    with pytest.raises(InvalidInput) as refusal:
        services.rule_version_publish(**args)
    assert field in refusal.value.fields


def test_the_version_in_force_is_chosen_by_the_time_of_the_round(db):
    v1, _ = _publish(roulette.VARIANTS_000[SINGLE], _at(2026, 1, 1))
    v2, _ = _publish(_raised(), _future(30))
    assert version_at("000", "roulette", SINGLE, _at(2025, 12, 31, 23, 59)) is None
    assert version_at("000", "roulette", SINGLE, _at(2026, 1, 1)) == v1
    assert version_at("000", "roulette", SINGLE, _future(29)) == v1
    assert version_at("000", "roulette", SINGLE, _future(31)) == v2


def test_builtin_variants_are_published_once(published):
    assert len(published) == CasinoRuleVersion.objects.count() > 60
    assert services.publish_builtin_variants(actor="system:test", effective_from=_at(2026, 1, 1)) == []


def test_house_edge_of_a_version_is_the_engines_exact_figure(published):
    version = CasinoRuleVersion.objects.get(rulebook="000", game="money_wheel", variant="casino")
    edges = {e.bet: e for e in house_edges("000", "money_wheel", version.rules).edges}
    assert edges["1"].exact == Fraction(8, 54) == wheels.house_edge(version.rules)["1"]
    assert edges["1"].percent == "14.814814"


# -------------------------------------------------------------------------------------------- command


def _file(tmp_path, data):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(data))
    return str(path)


def _command(tmp_path, data, *extra, by=None):
    out = io.StringIO()
    args = ["--rulebook", "000", "--game", "roulette", "--variant", SINGLE, "--file", _file(tmp_path, data), *extra]
    if by:
        args += ["--by", by]
    call_command("publish_casino_rules", *args, stdout=out)
    return out.getvalue()


def test_command_publishes_a_version(db, tmp_path, publisher):
    out = _command(tmp_path, roulette.VARIANTS_000[SINGLE], "--effective-from", "2026-01-01T00:00", by=publisher.username)
    version = CasinoRuleVersion.objects.get()
    assert "Published" in out and timezone.localtime(version.effective_from).hour == 0


def test_command_dry_run_prints_new_edges_beside_the_version_in_force_and_publishes_nothing(db, tmp_path):
    _publish(roulette.VARIANTS_000[SINGLE], _at(2026, 1, 1))
    out = _command(tmp_path, _raised(), "--effective-from", "2027-01-01T00:00", "--dry-run")
    straight = next(line for line in out.splitlines() if line.strip().startswith("straight"))
    # 36:1 on a straight up: no edge (0 %) beside the 1/37 of version 1 (2.702702 %).
    assert straight.split()[1:3] == ["0.000000", "2.702702"]
    assert CasinoRuleVersion.objects.count() == 1


@pytest.mark.parametrize("extra,by,message", [
    (["--effective-from", "tomorrow"], "admin", "--effective-from"),
    (["--effective-from", "2026-01-01T00:00"], None, "--by"),
    (["--effective-from", "2026-01-01T00:00"], "nobody", "not an active user"),
])
def test_command_bad_input_exits_2_with_a_message(db, tmp_path, make_staff, extra, by, message):
    make_staff(roles.ADMINISTRATOR, username="admin")
    with pytest.raises(CommandError) as refusal:
        _command(tmp_path, roulette.VARIANTS_000[SINGLE], *extra, by=by)
    assert refusal.value.returncode == 2 and message in str(refusal.value)


def test_command_refuses_lowered_odds_naming_the_cell(db, tmp_path, publisher):
    _publish(roulette.VARIANTS_000[SINGLE], _at(2026, 1, 1))
    with pytest.raises(CommandError) as refusal:
        _command(tmp_path, _raised(straight="30"), "--effective-from", "2030-01-01T00:00", by=publisher.username)
    assert refusal.value.returncode == 2 and "payouts.straight: 35 lowered to 30" in str(refusal.value)
