"""Settlement: set-based classification, the engine's prizes, the second check, rerun and crash."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation

from compliance.models import AuditEvent
from lottery import matching
from lottery.games import bitmask, registry
from lottery.models import Draw, DrawState, Line, RunState, SettlementRun, TierResult, Winning
from lottery.rules import games
from lottery.rules.bitmask import mask_to_picks
from lottery.services import DrawStateError, settlement
from tests.factories import DrawFactory
from tests.lottery.support import add_line, add_random_lines

LOTTO_RESULT = {"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3}
RESULTS = {
    "lotto": LOTTO_RESULT,
    "eurojackpot": {"numbers": [1, 2, 3, 4, 5], "stars": [1, 2]},
    "vikinglotto": {"numbers": [1, 2, 3, 4, 5, 6], "viking": 1, "plus": 3},
    "milli": {"numbers": [1, 2, 3, 4, 5, 6], "additional": 7},
}
SHAPES = {  # main (count, max), secondary (count, max), plus max
    "lotto": ((7, 40), (0, 0), 30),
    "eurojackpot": ((5, 50), (2, 12), None),
    "vikinglotto": ((6, 48), (1, 5), 30),
    "milli": ((6, 40), (0, 0), None),
}
CENTRAL = {"vikinglotto": {"common_pools": {"1": "1000000.00", "2": "200000.00"}}}


def _engine_class(game, line: Line, draw) -> tuple[str | None, bool]:
    params = draw.ruleset.params
    result = draw.results.get(status="confirmed").numbers
    picks = frozenset(mask_to_picks(line.main_mask))
    if game == "lotto":
        m = games.lotto
        c = m.classify(m.LottoLine(picks, line.plus), m.LottoResult(frozenset(result["numbers"]), result["additional"], result["plus"]), params)
    elif game == "milli":
        c = games.milli.classify(picks, games.milli.MilliResult(frozenset(result["numbers"]), result["additional"]))
    elif game == "eurojackpot":
        m = games.eurojackpot
        c = m.classify(m.EurojackpotDraw(picks, frozenset(mask_to_picks(line.extra_mask))),
                       m.EurojackpotDraw(frozenset(result["numbers"]), frozenset(result["stars"])))
    else:
        m = games.vikinglotto
        c = m.classify(m.VikinglottoDraw(picks, mask_to_picks(line.extra_mask)[0], line.plus),
                       m.VikinglottoDraw(frozenset(result["numbers"]), result["viking"], result["plus"]), params)
    return c.class_key, bool(c.boosted)


def _lines_for_every_combination(draw, game):
    """One line per feature combination of the game, plus random lines."""
    f = registry.get(game).codec.line_format(draw.ruleset.params)
    for combo in matching.combos(f):
        k = f.main_count
        picks = set(range(1, combo.hits + 1)) | ({k + 1} if combo.additional else set())
        filler = k + 2
        while len(picks) < k:
            picks.add(filler)
            filler += 1
        secondary: list[int] = []
        if f.secondary_count:
            secondary = list(range(1, combo.secondary + 1))
            extra = f.secondary_count + 1 if game == "eurojackpot" else 2
            while len(secondary) < f.secondary_count:
                secondary.append(extra)
                extra += 1
        plus = None if combo.plus is None else (3 if combo.plus else 4)
        add_line(draw, picks, secondary=secondary, plus=plus)
    main, sec, plus_max = SHAPES[game]
    add_random_lines(draw, 300, main=main, secondary=sec, plus_max=plus_max, seed=11)


def _jackpot(game):
    return 50_000_000 if game in ("lotto", "milli") else None


@pytest.mark.parametrize("game", ["lotto", "eurojackpot", "vikinglotto", "milli"])
def test_every_written_winner_has_the_class_the_engine_gives_its_line(db, confirm_result, game):
    draw = DrawFactory(game_code=game, jackpot_cents=_jackpot(game), central_inputs=CENTRAL.get(game, {}))
    _lines_for_every_combination(draw, game)
    run = confirm_result(draw, RESULTS[game])
    settlement.run_settlement(run.pk)
    won = {w.line_id: (str(w.class_no), w.boosted) for w in Winning.objects.filter(run=run)}
    expected = {}
    for line in Line.objects.filter(draw=draw):
        key, boosted = _engine_class(game, line, draw)
        if key is not None:
            expected[line.pk] = (key, boosted)
    assert won == expected


@pytest.mark.parametrize("game", ["lotto", "eurojackpot", "vikinglotto", "milli"])
def test_a_settled_draw_has_both_computations_agreeing(db, confirm_result, game):
    draw = DrawFactory(game_code=game, jackpot_cents=_jackpot(game), central_inputs=CENTRAL.get(game, {}))
    _lines_for_every_combination(draw, game)
    run = settlement.run_settlement(confirm_result(draw, RESULTS[game]).pk)
    assert (run.state, Draw.objects.get(pk=draw.pk).state) == (RunState.SETTLED, DrawState.SETTLED)


def test_winners_are_paid_the_prize_of_their_class(db, confirm_result):
    draw = DrawFactory(jackpot_cents=50_000_000)
    add_line(draw, [1, 2, 3, 4, 9, 10, 11])  # 4 correct: class 5, 10 €
    add_line(draw, [1, 2, 3, 4, 9, 10, 11], plus=3)  # boosted five-fold: 50 €
    add_line(draw, [1, 2, 3, 8, 9, 10, 11])  # 3 + additional: class 6, 2 €
    add_line(draw, [20, 21, 22, 23, 24, 25, 26], plus=3)  # plus number only: class 7, 5 €
    add_line(draw, [20, 21, 22, 23, 24, 25, 26])  # nothing
    run = settlement.run_settlement(confirm_result(draw, LOTTO_RESULT).pk)
    prizes = sorted(Winning.objects.filter(run=run).values_list("class_no", "boosted", "prize_cents"))
    assert prizes == [(5, False, 1000), (5, True, 5000), (6, False, 200), (7, False, 500)]


def test_only_winning_lines_get_a_row(db, confirm_result):
    draw = DrawFactory(jackpot_cents=50_000_000)
    add_random_lines(draw, 500)
    run = settlement.run_settlement(confirm_result(draw, LOTTO_RESULT).pk)
    assert Winning.objects.filter(run=run).count() == sum(t.winners for t in TierResult.objects.filter(run=run))


def test_tier_results_record_the_engine_result_in_cents(db, confirm_result):
    draw = DrawFactory(jackpot_cents=50_000_000)
    add_random_lines(draw, 300)
    run = settlement.run_settlement(confirm_result(draw, LOTTO_RESULT).pk)
    tier = TierResult.objects.get(run=run, class_key="2")
    assert tier.pool_cents == int(run.turnover_cents * 38 / 1000)


def test_unwon_shares_roll_over_to_the_next_draw_of_the_game(db, confirm_result):
    draw = DrawFactory(jackpot_cents=50_000_000)
    following = DrawFactory(state="planned", draw_at=draw.draw_at + dt.timedelta(days=7),
                            sales_open_at=draw.draw_at, sales_close_at=draw.draw_at + dt.timedelta(days=6))
    add_random_lines(draw, 50)
    run = settlement.run_settlement(confirm_result(draw, LOTTO_RESULT).pk)
    expected = {t.class_key: t.rollover_out_cents for t in run.tiers.all() if t.rollover_out_cents}
    following.refresh_from_db()
    assert (following.rollover_in, following.rollover_from_id) == (expected, draw.pk)


# ------------------------------------------------------------------------------------------------
# repeatable: claims, reruns, crashes
# ------------------------------------------------------------------------------------------------

def _outcome(run) -> list[tuple[int, int, bool, int]]:
    """Winners by the rank of their line in the draw, with class, boost and prize."""
    ids = list(Line.objects.filter(draw=run.draw).order_by("id").values_list("id", flat=True))
    rank = {pk: i for i, pk in enumerate(ids)}
    return sorted((rank[w.line_id], w.class_no, w.boosted, w.prize_cents) for w in Winning.objects.filter(run=run))


def _tiers(run) -> list[tuple]:
    return list(run.tiers.order_by("position").values_list("class_key", "winners", "prize_cents", "paid_cents",
                                                          "rollover_out_cents", "breakage_cents"))


@pytest.fixture
def small_chunks(settings):
    settings.LOTTERY_SETTLEMENT_CHUNK_LINES = 40


def _twin_draws(confirm_result, count=400):
    """Two draws with the same lines and result: the first settled cleanly, the second confirmed and
    left for the test to settle (without the first draw's rollovers, so both start alike)."""
    clean = DrawFactory(jackpot_cents=50_000_000)
    twin = DrawFactory(jackpot_cents=50_000_000, draw_at=clean.draw_at + dt.timedelta(minutes=1))
    add_random_lines(clean, count, seed=5)
    add_random_lines(twin, count, seed=5)
    clean_run = settlement.run_settlement(confirm_result(clean, LOTTO_RESULT).pk)
    Draw.objects.filter(pk=twin.pk).update(rollover_in={}, rollover_from=None)
    return clean_run, confirm_result(Draw.objects.get(pk=twin.pk), LOTTO_RESULT)


def test_running_a_settled_run_again_changes_nothing(db, confirm_result):
    draw = DrawFactory(jackpot_cents=50_000_000)
    add_random_lines(draw, 200)
    run = settlement.run_settlement(confirm_result(draw, LOTTO_RESULT).pk)
    before = (_outcome(run), AuditEvent.objects.count())
    settlement.run_settlement(run.pk)
    assert (_outcome(run), AuditEvent.objects.count()) == before


def test_a_worker_cannot_claim_a_run_another_worker_holds(db, confirm_result):
    draw = DrawFactory(jackpot_cents=50_000_000)
    run = confirm_result(draw, LOTTO_RESULT)
    assert (settlement.claim(run.pk, "worker-a"), settlement.claim(run.pk, "worker-b")) == (True, False)


def test_a_run_whose_worker_stopped_beating_is_taken_over(db, confirm_result, settings):
    draw = DrawFactory(jackpot_cents=50_000_000)
    run = confirm_result(draw, LOTTO_RESULT)
    settlement.claim(run.pk, "worker-a")
    SettlementRun.objects.filter(pk=run.pk).update(
        heartbeat_at=SettlementRun.objects.get(pk=run.pk).heartbeat_at
        - dt.timedelta(seconds=settings.LOTTERY_SETTLEMENT_STALE_SECONDS + 1)
    )
    assert settlement.claim(run.pk, "worker-b") is True


def test_a_run_that_failed_midway_resumes_to_the_same_result_as_a_clean_run(db, confirm_result, small_chunks, monkeypatch):
    clean_run, crashed_run = _twin_draws(confirm_result)

    def crash(run, done):
        if done == 3:
            raise RuntimeError("injected crash after 3 chunks")

    monkeypatch.setattr(settlement, "after_chunk", crash)
    failed = settlement.run_settlement(crashed_run.pk)
    monkeypatch.setattr(settlement, "after_chunk", lambda run, done: None)
    resumed = settlement.run_settlement(crashed_run.pk)
    assert (failed.state, failed.chunks_done, resumed.state) == (RunState.FAILED, 3, RunState.SETTLED)
    assert (_outcome(resumed), _tiers(resumed)) == (_outcome(clean_run), _tiers(clean_run))


def test_a_killed_worker_leaves_its_run_to_be_resumed_once_stale(db, confirm_result, small_chunks, monkeypatch, settings):
    clean_run, run = _twin_draws(confirm_result)

    def kill(run, done):
        if done == 5:
            raise SystemExit("worker killed")  # not an Exception: nothing records the failure

    monkeypatch.setattr(settlement, "after_chunk", kill)
    with pytest.raises(SystemExit):
        settlement.run_settlement(run.pk)
    monkeypatch.setattr(settlement, "after_chunk", lambda run, done: None)
    too_early = settlement.run_settlement(run.pk)
    SettlementRun.objects.filter(pk=run.pk).update(
        heartbeat_at=too_early.heartbeat_at - dt.timedelta(seconds=settings.LOTTERY_SETTLEMENT_STALE_SECONDS + 1)
    )
    resumed = settlement.run_settlement(run.pk)
    assert (too_early.state, too_early.chunks_done, resumed.state) == (RunState.RUNNING, 5, RunState.SETTLED)
    assert _outcome(resumed) == _outcome(clean_run)


def test_a_crash_writes_no_winner_twice(db, confirm_result, small_chunks, monkeypatch):
    draw = DrawFactory(jackpot_cents=50_000_000)
    add_random_lines(draw, 400)
    run = confirm_result(draw, LOTTO_RESULT)
    monkeypatch.setattr(settlement, "after_chunk", lambda r, done: (_ for _ in ()).throw(RuntimeError("x")) if done in (2, 6) else None)
    for _ in range(4):
        settlement.run_settlement(run.pk)
    lines = list(Winning.objects.filter(run=run).values_list("line_id", flat=True))
    assert len(lines) == len(set(lines)) == sum(t.winners for t in run.tiers.all())


# ------------------------------------------------------------------------------------------------
# the second computation
# ------------------------------------------------------------------------------------------------

def test_disagreeing_computations_halt_the_run(db, confirm_result, monkeypatch):
    draw = DrawFactory(jackpot_cents=50_000_000)
    add_random_lines(draw, 300)
    run = confirm_result(draw, LOTTO_RESULT)
    wrong = matching.path_b_class_sql(registry.get("lotto").codec, draw.ruleset.params).replace("WHEN h = 4 THEN 5", "WHEN h = 4 THEN 6")
    monkeypatch.setattr(matching, "path_b_class_sql", lambda game, params: wrong)
    run = settlement.run_settlement(run.pk)
    assert (run.state, Draw.objects.get(pk=draw.pk).state) == (RunState.HALTED, DrawState.RESULT_CONFIRMED)


def test_disagreement_is_a_significant_audit_event(db, confirm_result, monkeypatch):
    draw = DrawFactory(jackpot_cents=50_000_000)
    add_random_lines(draw, 300)
    run = confirm_result(draw, LOTTO_RESULT)
    wrong = matching.path_b_class_sql(registry.get("lotto").codec, draw.ruleset.params).replace("h = 5 THEN 4", "h = 5 THEN 3")
    monkeypatch.setattr(matching, "path_b_class_sql", lambda game, params: wrong)
    settlement.run_settlement(run.pk)
    assert AuditEvent.objects.filter(action="lottery.settlement_disagreement", significant=True).exists()


def test_a_halted_run_restarts_from_nothing_when_retried(db, confirm_result, monkeypatch, make_staff):
    draw = DrawFactory(jackpot_cents=50_000_000)
    add_random_lines(draw, 300)
    run = confirm_result(draw, LOTTO_RESULT)
    original = matching.path_b_class_sql
    monkeypatch.setattr(matching, "path_b_class_sql",
                        lambda g, p: original(g, p).replace("h = 4 THEN 5", "h = 4 THEN 6"))
    settlement.run_settlement(run.pk)
    monkeypatch.setattr(matching, "path_b_class_sql", original)
    settlement.settlement_retry(actor=make_staff("Draw supervisor"), run=run)
    assert settlement.run_settlement(run.pk).state == RunState.SETTLED


# ------------------------------------------------------------------------------------------------
# refusals
# ------------------------------------------------------------------------------------------------

def test_missing_central_figures_fail_the_run_with_the_reason(db, confirm_result):
    draw = DrawFactory(game_code="vikinglotto")
    add_line(draw, [1, 2, 3, 4, 5, 6], secondary=[2])  # 6 correct: a common class
    run = settlement.run_settlement(confirm_result(draw, RESULTS["vikinglotto"]).pk)
    assert (run.state, "common_pools" in run.error) == (RunState.FAILED, True)


def test_a_failed_run_settles_once_the_missing_figures_are_recorded(db, confirm_result, make_staff):
    from lottery.services import draw_set_central_inputs

    staff = make_staff("Draw supervisor")
    draw = DrawFactory(game_code="vikinglotto")
    add_line(draw, [1, 2, 3, 4, 5, 6], secondary=[2])
    run = settlement.run_settlement(confirm_result(draw, RESULTS["vikinglotto"]).pk)
    draw_set_central_inputs(actor=staff, draw=draw, inputs=CENTRAL["vikinglotto"])
    settlement.settlement_retry(actor=staff, run=run)
    assert settlement.run_settlement(run.pk).state == RunState.SETTLED


def test_a_draw_waits_for_the_previous_draw_of_its_game(db, confirm_result):
    earlier = DrawFactory(jackpot_cents=50_000_000, state="closed")
    later = DrawFactory(jackpot_cents=50_000_000, draw_at=earlier.draw_at + dt.timedelta(minutes=30))
    run = settlement.run_settlement(confirm_result(later, LOTTO_RESULT).pk)
    assert (run.state, str(earlier) in run.error) == (RunState.FAILED, True)


def test_retrying_a_settled_run_is_refused_in_the_readers_language(db, confirm_result, make_staff):
    run = settlement.run_settlement(confirm_result(DrawFactory(jackpot_cents=50_000_000), LOTTO_RESULT).pk)
    with pytest.raises(DrawStateError) as refused:
        settlement.settlement_retry(actor=make_staff("Draw supervisor"), run=run)
    with translation.override("fi"):
        assert "tilassa laskettu; vain epäonnistunut tai pysäytetty ajo" in str(refused.value)


def test_an_empty_draw_settles_with_every_share_rolled_over(db, confirm_result):
    draw = DrawFactory(jackpot_cents=50_000_000)
    run = settlement.run_settlement(confirm_result(draw, LOTTO_RESULT).pk)
    assert (run.state, run.winners_count, run.lines_count) == (RunState.SETTLED, 0, 0)


def test_chunks_cover_every_line_id_of_the_draw(db, confirm_result, small_chunks):
    draw = DrawFactory(jackpot_cents=50_000_000)
    add_random_lines(draw, 130)
    run = settlement.run_settlement(confirm_result(draw, LOTTO_RESULT).pk)
    ids = list(Line.objects.filter(draw=draw).values_list("id", flat=True))
    covered = [i for i in ids if any(c.lo <= i < c.hi for c in run.chunks.all())]
    assert (covered == ids, run.chunks_total) == (True, 4)


@pytest.mark.postgres
def test_imported_lines_keep_their_own_id_segment_and_few_chunks(db, confirm_result):
    from django.db import connection

    from lottery.services.retail import retail_import
    from tests.lottery.support import lotto_row, sales_file

    if connection.vendor != "postgresql":
        pytest.skip("COPY imports exist only on PostgreSQL")
    draw = DrawFactory(jackpot_cents=50_000_000)
    add_line(draw, [1, 2, 3, 4, 20, 21, 22])
    t = draw.sales_open_at + dt.timedelta(hours=1)
    retail_import(actor="system:test", draw=draw, file_name="s.csv",
                  stream=sales_file([lotto_row("A1", t, (1, 2, 3, 4, 30, 31, 32)), lotto_row("A2", t)]))
    run = settlement.run_settlement(confirm_result(draw, LOTTO_RESULT).pk)
    assert (run.state, run.chunks_total, run.winners_count) == (RunState.SETTLED, 2, 3)


@pytest.mark.postgres
def test_chunks_written_side_by_side_give_the_same_winners(transactional_db, make_staff, settings):
    from django.db import connection

    from lottery.services import draw_close_sales, result_confirm, result_enter

    if connection.vendor != "postgresql":
        pytest.skip("side-by-side chunks need PostgreSQL connections")
    settings.LOTTERY_SETTLEMENT_WORKERS = 2
    settings.LOTTERY_SETTLEMENT_CHUNK_LINES = 100
    draw = DrawFactory(jackpot_cents=50_000_000)
    add_random_lines(draw, 600)
    draw_close_sales(actor="system:test", draw=draw)
    result_enter(actor=make_staff("Draw supervisor"), draw=draw, numbers=LOTTO_RESULT, draw_method="device", witnesses="W")
    queued = []
    real = settlement.enqueue
    settlement.enqueue = queued.append
    try:
        result_confirm(actor=make_staff("Draw supervisor"), draw=draw)
    finally:
        settlement.enqueue = real
    run = settlement.run_settlement(queued[0].pk)
    expected = sum(1 for line in Line.objects.filter(draw=draw) if _engine_class("lotto", line, draw)[0] is not None)
    assert (run.state, run.chunks_done, Winning.objects.filter(run=run).count()) == (RunState.SETTLED, 6, expected)


# ------------------------------------------------------------------------------------------------
# PostgreSQL: path A counting beside path B reading, on worker connections (outside a transaction)
# ------------------------------------------------------------------------------------------------

@pytest.fixture
def side_by_side(transactional_db, settings, monkeypatch):
    """Outside a transaction (committed data, several connections); runs are started by the test."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("side-by-side settlement needs PostgreSQL connections")
    settings.LOTTERY_SETTLEMENT_WORKERS = 2
    settings.LOTTERY_SETTLEMENT_CHUNK_LINES = 40
    monkeypatch.setattr(settlement, "enqueue", lambda run: None)


def _partition_indexes(run) -> set[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename = %s", [f"lottery_winning_r{run.pk}"])
        return {name for (name,) in cursor.fetchall()}


@pytest.mark.postgres
def test_side_by_side_a_crashed_run_resumes_to_the_clean_result(side_by_side, confirm_result, monkeypatch):
    clean_run, crashed_run = _twin_draws(confirm_result)
    assert clean_run.state == RunState.SETTLED
    def crash(run, done):  # workers count done chunks side by side: the first to see 3 or more
        if done >= 3:
            raise RuntimeError("injected")

    monkeypatch.setattr(settlement, "after_chunk", crash)
    failed = settlement.run_settlement(crashed_run.pk)
    assert failed.state == RunState.FAILED and 3 <= failed.chunks_done < failed.chunks_total
    assert Winning.objects.filter(run=failed).count() == sum(c.winners for c in failed.chunks.filter(done_at__isnull=False))
    monkeypatch.setattr(settlement, "after_chunk", lambda run, done: None)
    resumed = settlement.run_settlement(crashed_run.pk)
    assert resumed.state == RunState.SETTLED
    assert (_outcome(resumed), _tiers(resumed)) == (_outcome(clean_run), _tiers(clean_run))
    assert {f"lottery_winning_r{resumed.pk}_class", f"lottery_winning_r{resumed.pk}_prize"} <= _partition_indexes(resumed)


@pytest.mark.postgres
def test_side_by_side_a_killed_worker_is_taken_over_and_pays_nothing_twice(side_by_side, confirm_result, monkeypatch,
                                                                             settings):
    clean_run, run = _twin_draws(confirm_result)

    def kill(run, done):
        if done >= 4:
            raise SystemExit("worker killed")  # not an Exception: nothing records the failure

    monkeypatch.setattr(settlement, "after_chunk", kill)
    with pytest.raises(SystemExit):
        settlement.run_settlement(run.pk)
    monkeypatch.setattr(settlement, "after_chunk", lambda run, done: None)
    left = SettlementRun.objects.get(pk=run.pk)
    assert 4 <= left.chunks_done < left.chunks_total
    assert left.state == RunState.RUNNING and left.engine_result is not None
    SettlementRun.objects.filter(pk=run.pk).update(
        heartbeat_at=left.heartbeat_at - dt.timedelta(seconds=settings.LOTTERY_SETTLEMENT_STALE_SECONDS + 1)
    )
    resumed = settlement.run_settlement(run.pk)
    lines = list(Winning.objects.filter(run=resumed).values_list("line_id", flat=True))
    assert resumed.state == RunState.SETTLED and len(lines) == len(set(lines))
    assert _outcome(resumed) == _outcome(clean_run)


@pytest.mark.postgres
def test_side_by_side_a_crash_before_the_engine_plans_again(side_by_side, confirm_result, monkeypatch):
    clean_run, run = _twin_draws(confirm_result)
    real = bitmask.store_engine

    def crash(*args, **kwargs):
        raise RuntimeError("crash while counting")

    monkeypatch.setattr(bitmask, "store_engine", crash)
    failed = settlement.run_settlement(run.pk)
    assert (failed.state, failed.engine_result, Winning.objects.filter(run=failed).count()) == (RunState.FAILED, None, 0)
    monkeypatch.setattr(bitmask, "store_engine", real)
    resumed = settlement.run_settlement(run.pk)
    assert resumed.state == RunState.SETTLED and _outcome(resumed) == _outcome(clean_run)


@pytest.mark.postgres
def test_side_by_side_disagreeing_computations_halt_the_run(side_by_side, confirm_result, monkeypatch):
    draw = DrawFactory(jackpot_cents=50_000_000)
    add_random_lines(draw, 300)
    run = confirm_result(draw, LOTTO_RESULT)
    wrong = matching.path_b_class_sql(registry.get("lotto").codec, draw.ruleset.params).replace("WHEN h = 4 THEN 5", "WHEN h = 4 THEN 6")
    monkeypatch.setattr(matching, "path_b_class_sql", lambda game, params: wrong)
    run = settlement.run_settlement(run.pk)
    assert (run.state, Draw.objects.get(pk=draw.pk).state) == (RunState.HALTED, DrawState.RESULT_CONFIRMED)
