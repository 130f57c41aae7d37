"""Venues, versioned tables, recorded rounds, their verification job and discrepancies (issue 19)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from casino import operations, verification
from casino.games import REGISTRY
from casino.games.registry import family_of
from casino.models import Discrepancy, RecordedRound, RoundBatch, RoundVerification, TableVersion
from casino.rules import registry as engines
from compliance.errors import InvalidInput, NotPermitted, StateConflict
from compliance.models import AuditEvent
from tests.factories import PersonFactory

PLAYED = timezone.make_aware(dt.datetime(2026, 3, 14, 20, 15))


@pytest.fixture
def casino_venue(published):
    return operations.venue_create(actor="system:test", code="helsinki", name="Casino Helsinki", kind="casino",
                                   jurisdiction="FI")


@pytest.fixture
def roulette(casino_venue):
    return operations.table_create(
        actor="system:test", venue=casino_venue, code="r1", game="roulette", variant="single_zero_la_partage",
        min_stake_cents=200, max_stake_cents={"roulette_inside_1": 10_000, "roulette_outside": 50_000},
        effective_from=timezone.make_aware(dt.datetime(2026, 1, 1)))


def spin(ref, number, paid, stake="10.00", **bet):
    return {"table": "helsinki/r1", "ref": ref, "played_at": PLAYED.isoformat(),
            "bets": [{"type": "straight", "numbers": [17], "stake": stake, "box": 1, **bet}],
            "outcome": {"number": number}, "paid": [paid]}


def test_every_engine_game_belongs_to_exactly_one_family():
    covered = [g for spec in REGISTRY for g in spec.engines]
    assert sorted(covered) == sorted({g for _r, g in engines.engines()}) and len(covered) == len(set(covered))


def test_the_benchmark_mix_adds_up_to_all_rounds():
    assert sum(spec.mix_percent for spec in REGISTRY) == 100


def test_a_family_verification_returns_the_due_payout_and_the_difference():
    verdict = family_of("roulette").verification.verify(
        rulebook="000", game="roulette", variant="single_zero_la_partage", rules=None, venue="casino",
        bets=[{"type": "straight", "numbers": [17], "stake": "10.00"}], outcome={"number": 17}, paid_cents=[35_100])
    assert (verdict.due_cents, verdict.difference_cents, [f.kind for f in verdict.findings]) == ([36_000], -900, ["payout"])


def test_a_table_above_the_legal_maximum_is_refused_beside_the_field(casino_venue):
    with pytest.raises(InvalidInput) as refused:
        operations.table_create(actor="system:test", venue=casino_venue, code="r2", game="roulette",
                                variant="single_zero_la_partage", min_stake_cents=100,
                                max_stake_cents={"roulette_inside_1": 70_000})
    assert "roulette_inside_1" in refused.value.field_messages()["max_stake"][0]


def test_a_game_hall_table_is_held_to_the_game_hall_maximum(published):
    hall = operations.venue_create(actor="system:test", code="hall", name="Hall", kind="game_hall", jurisdiction="FI")
    with pytest.raises(InvalidInput):
        operations.table_create(actor="system:test", venue=hall, code="b1", game="blackjack", variant="gh_a_3to2",
                                min_stake_cents=100, max_stake_cents={"blackjack_box": 5_000})


def test_a_table_change_is_a_new_version_and_the_old_one_stays(roulette):
    operations.table_version_create(actor="system:test", table=roulette, variant="single_zero_la_partage",
                                    min_stake_cents=500, max_stake_cents={"roulette_inside_1": 20_000})
    versions = list(TableVersion.objects.filter(table=roulette).order_by("version").values_list("version", "min_stake_cents"))
    assert versions == [(1, 200), (2, 500)]


def test_a_table_version_cannot_be_edited_in_place(roulette):
    version = roulette.versions.get()
    version.min_stake_cents = 1
    with pytest.raises(ValueError):
        version.save()


def test_rounds_are_recorded_all_or_nothing_with_the_row_and_field_named(roulette):
    with pytest.raises(InvalidInput) as refused:
        operations.rounds_record(actor="system:test", source="api",
                                 rounds=[spin("a", 17, "360.00"), spin("b", 3, "0.00", stake="ten")])
    assert (refused.value.extra["rows"][0]["row"], refused.value.extra["rows"][0]["field"],
            RecordedRound.objects.count()) == (2, "bets[0].stake", 0)


def test_a_round_reference_is_recorded_once_per_table(roulette):
    operations.rounds_record(actor="system:test", source="api", rounds=[spin("a", 17, "360.00")], verify=False)
    with pytest.raises(InvalidInput):
        operations.rounds_record(actor="system:test", source="api", rounds=[spin("a", 17, "360.00")], verify=False)


def test_a_table_system_posts_only_to_tables_assigned_to_it(roulette):
    with pytest.raises(InvalidInput) as refused:
        operations.rounds_record(actor="system:test", source="api", rounds=[spin("a", 17, "360.00")],
                                 allowed_tables=[])
    assert refused.value.extra["rows"][0]["field"] == "table"


def _batch(rounds):
    return operations.rounds_record(actor="inspector-x", source="inspector", rounds=rounds, verify=False)


def test_verification_finds_a_wrong_payout_and_nothing_in_a_right_one(roulette):
    batch = _batch([spin("ok", 17, "360.00"), spin("wrong", 17, "350.00"), spin("lost", 3, "0.00")])
    verification.verify_batch(batch.pk)
    found = list(Discrepancy.objects.values_list("round__ref", "kind", "amount_cents"))
    assert found == [("wrong", "payout", -1000)]


def test_a_discrepancy_is_a_significant_audit_event(roulette):
    batch = _batch([spin("wrong", 17, "350.00")])
    verification.verify_batch(batch.pk)
    assert AuditEvent.objects.filter(action="casino.discrepancy_found", significant=True).count() == 1


def test_a_stake_above_the_table_limit_paid_in_full_is_a_stake_not_voided(roulette):
    batch = _batch([spin("over", 17, "7200.00", stake="200.00")])  # limit 100: due 100 x 36 + 100 back
    verification.verify_batch(batch.pk)
    assert list(Discrepancy.objects.values_list("kind", "amount_cents")) == [("not_voided", 720_000 - 370_000)]


def test_a_self_excluded_or_under_age_player_is_a_discrepancy(roulette):
    child = PersonFactory(birth_date=dt.date(2012, 1, 1))
    batch = _batch([spin("kid", 3, "0.00", person=child.pk)])
    verification.verify_batch(batch.pk)
    assert "player_refused" in set(Discrepancy.objects.values_list("kind", flat=True))


def test_a_second_run_of_the_job_changes_nothing(roulette):
    batch = _batch([spin("wrong", 17, "350.00"), spin("ok", 17, "360.00")])
    verification.verify_batch(batch.pk)
    verification.verify_batch(batch.pk)
    batch.refresh_from_db()
    assert (Discrepancy.objects.count(), RoundVerification.objects.count(), batch.verified, batch.state) == (
        1, 2, 2, RoundBatch.State.VERIFIED)


def test_a_killed_run_resumes_after_the_last_chunk_written(roulette, monkeypatch):
    batch = _batch([spin(f"r{i}", 17, "350.00" if i % 2 else "360.00") for i in range(5)])
    monkeypatch.setattr(verification, "CHUNK", 2)
    calls = {"n": 0}
    real = verification._verify_chunk

    def dies_on_the_second_chunk(*args):
        calls["n"] += 1
        if calls["n"] == 2:
            raise SystemExit("worker killed")
        return real(*args)

    monkeypatch.setattr(verification, "_verify_chunk", dies_on_the_second_chunk)
    with pytest.raises(SystemExit):
        verification.verify_batch(batch.pk)
    batch.refresh_from_db()
    assert (batch.verified, RoundVerification.objects.count()) == (2, 2)
    monkeypatch.setattr(verification, "_verify_chunk", real)
    verification.verify_batch(batch.pk)
    batch.refresh_from_db()
    assert (batch.verified, RoundVerification.objects.count(), Discrepancy.objects.count()) == (5, 5, 2)


def test_a_correction_points_at_the_round_it_corrects(roulette):
    _batch([spin("a", 17, "350.00")])
    _batch([{**spin("a-fix", 17, "360.00"), "corrects": "a"}])
    fix = RecordedRound.objects.get(ref="a-fix")
    assert fix.corrects.ref == "a"


def test_a_recorded_round_is_never_changed(roulette):
    _batch([spin("a", 17, "360.00")])
    with pytest.raises(ValueError):
        RecordedRound.objects.get().save()


def test_the_recorder_may_not_resolve_what_was_found_in_the_round(roulette, make_staff):
    batch = _batch([spin("wrong", 17, "350.00")])
    verification.verify_batch(batch.pk)
    found = Discrepancy.objects.get()
    with pytest.raises(NotPermitted):
        operations.discrepancy_resolve(actor="inspector-x", discrepancy=found, note="paid the rest")
    done = operations.discrepancy_resolve(actor="manager-y", discrepancy=found, note="paid the rest")
    assert done.resolved_at is not None
    with pytest.raises(StateConflict):
        operations.discrepancy_resolve(actor="manager-y", discrepancy=found, note="again")


def test_a_jsonl_file_and_a_csv_file_record_the_same_rounds(roulette):
    import json

    jsonl = "\n".join(json.dumps(spin(f"j{i}", 17, "360.00")) for i in range(3)).encode()
    batch = operations.rounds_import_file(actor="system:test", file=jsonl, name="rounds.jsonl")
    rows = ["table,ref,played_at,bets,outcome,paid,corrects"]
    for i in range(3):
        r = spin(f"c{i}", 17, "360.00")
        rows.append(",".join(['helsinki/r1', r["ref"], r["played_at"], '"' + json.dumps(r["bets"]).replace('"', '""') + '"',
                              '"' + json.dumps(r["outcome"]).replace('"', '""') + '"', '"[""360.00""]"', ""]))
    csv_batch = operations.rounds_import_file(actor="system:test", file="\n".join(rows).encode(), name="rounds.csv")
    assert (batch.rounds, csv_batch.rounds) == (3, 3)


def test_a_gaming_point_table_must_post_its_maxima(published):
    point = operations.venue_create(actor="system:test", code="point", name="Kioski", kind="gaming_point",
                                    jurisdiction="FI")
    with pytest.raises(InvalidInput) as refused:
        operations.table_create(actor="system:test", venue=point, code="r1", game="roulette", variant="ray",
                                min_stake_cents=100, max_stake_cents={})
    assert "max_stake" in refused.value.field_messages()


def test_a_foreign_casino_may_not_lower_the_minimum_age_below_21(published):
    with pytest.raises(InvalidInput) as refused:
        operations.venue_create(actor="system:test", code="b", name="Billionaire", kind="foreign_casino",
                                jurisdiction="UA", min_age=18)
    assert "min_age" in refused.value.field_messages()


def test_verification_uses_the_table_version_in_force_when_the_round_was_played(roulette):
    later = timezone.make_aware(dt.datetime(2026, 3, 1))
    operations.table_version_create(actor="system:test", table=roulette, variant="single_zero_la_partage",
                                    min_stake_cents=200, max_stake_cents={"roulette_inside_1": 5_000},
                                    effective_from=later)
    early = {**spin("early", 17, "3600.00", stake="100.00"), "played_at": "2026-02-01T20:00:00+02:00"}
    late = spin("late", 17, "3600.00", stake="100.00")  # 14 March: the limit is 50.00 by then
    verification.verify_batch(_batch([early, late]).pk)
    assert list(Discrepancy.objects.values_list("round__ref", "kind")) == [("late", "not_voided")]


def test_a_file_refused_in_a_late_chunk_leaves_nothing_recorded(roulette, monkeypatch):
    import json

    monkeypatch.setattr(operations, "INSERT_CHUNK", 2)  # the first chunks are written before the problem is read
    rounds = [spin(f"f{i}", 17, "360.00") for i in range(6)]
    rounds[5]["paid"] = ["lots"]
    with pytest.raises(InvalidInput) as refused:
        operations.rounds_import_file(actor="system:test", file="\n".join(map(json.dumps, rounds)).encode(),
                                      name="rounds.jsonl", verify=False)
    assert (refused.value.extra["rows"][0]["row"], RecordedRound.objects.count(), RoundBatch.objects.count()) == (6, 0, 0)


def test_a_reference_given_again_in_a_later_chunk_is_reported_as_given_twice(roulette, monkeypatch):
    monkeypatch.setattr(operations, "INSERT_CHUNK", 2)
    rounds = [spin("a", 17, "360.00"), spin("b", 17, "360.00"), spin("c", 17, "360.00"), spin("a", 3, "0.00")]
    with pytest.raises(InvalidInput) as refused:
        operations.rounds_record(actor="system:test", source="api", rounds=rounds, verify=False)
    assert [(r["row"], r["field"], r["message"]) for r in refused.value.extra["rows"]] == [
        (4, "ref", "this round reference appears twice")]
