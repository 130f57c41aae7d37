"""Prize rule versions: loaded from the digest automatically, immutable, chosen by date."""

import datetime as dt
import json

import pytest
from django.core.management import call_command

from compliance.models import AuditEvent
from lottery.models import RuleSet
from lottery.rules.rulesets import DEFAULT_RULESETS, GAMES
from lottery.selectors import ruleset_effective
from lottery.services import RuleSetConflict, load_default_rulesets, ruleset_publish


def _lotto_params() -> dict:
    return RuleSet.objects.get(game="lotto", version=DEFAULT_RULESETS[0]["version"]).params


def test_every_game_has_its_digest_version_after_migrate(db):
    assert set(RuleSet.objects.values_list("game", flat=True)) == set(GAMES)


def test_stored_parameters_are_those_of_the_digest(db):
    stored = {(r.game, r.version): r.params for r in RuleSet.objects.all()}
    assert all(stored[(d["game"], d["version"])] == d["params"] for d in DEFAULT_RULESETS)


def test_loading_again_adds_nothing(db):
    before = RuleSet.objects.count()
    assert not any(created for _, created in load_default_rulesets())
    assert RuleSet.objects.count() == before


def test_a_published_version_cannot_be_edited(db):
    ruleset = RuleSet.objects.get(game="lotto")
    ruleset.params = {**ruleset.params, "min_pool_mode": "before_rollover"}
    with pytest.raises(ValueError, match="never changed"):
        ruleset.save()


def test_republishing_a_version_with_other_parameters_is_refused(db, make_staff):
    params = {**_lotto_params(), "min_pool_mode": "before_rollover"}
    with pytest.raises(RuleSetConflict):
        ruleset_publish(actor=make_staff("Administrator"), game="lotto", version=DEFAULT_RULESETS[0]["version"],
                        effective_from=dt.date(2024, 1, 1), params=params)


def test_new_version_takes_effect_on_its_date_and_is_audited(db, make_staff):
    admin = make_staff("Administrator")
    new, created = ruleset_publish(actor=admin, game="lotto", version="2027-1",
                                   effective_from=dt.date(2027, 1, 1), params=_lotto_params())
    assert created
    assert ruleset_effective("lotto", dt.date(2026, 12, 31)).version != "2027-1"
    assert ruleset_effective("lotto", dt.date(2027, 1, 1)) == new
    assert AuditEvent.objects.filter(action="lottery.ruleset_published", object_id=str(new.pk), actor=admin).exists()


def test_parameters_with_a_misspelt_key_are_refused(db, make_staff):
    params = _lotto_params()
    params["min_pool_mod"] = params.pop("min_pool_mode")
    with pytest.raises(ValueError, match="min_pool_mod"):
        ruleset_publish(actor=make_staff("Administrator"), game="lotto", version="bad",
                        effective_from=dt.date(2030, 1, 1), params=params)


def test_publish_command_needs_a_user_allowed_to_publish(db, make_staff, tmp_path):
    from django.core.management.base import CommandError

    path = tmp_path / "v.json"
    path.write_text(json.dumps({"game": "lotto", "version": "2028-1", "effective_from": "2028-01-01",
                                "params": _lotto_params()}))
    operator = make_staff("Operator")
    with pytest.raises(CommandError, match="not an active user allowed"):
        call_command("publish_ruleset", str(path), by=operator.username)
    call_command("publish_ruleset", str(path), by=make_staff("Administrator").username, stdout=open("/dev/null", "w"))
    assert RuleSet.objects.filter(game="lotto", version="2028-1").exists()
