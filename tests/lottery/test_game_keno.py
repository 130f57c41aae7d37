"""Keno (+ Kunkku) through the whole draw pipeline: sold over the API and by a retail file, drawn,
settled set-based in two independent ways that must agree, approved and paid; its caps applied."""

from __future__ import annotations

import pytest

from compliance import roles
from compliance.models import AuditEvent
from lottery.games import keno as keno_game
from lottery.models import Draw, DrawState, Line, Payout, RetailImport, RunState, TierResult, Winning
from lottery.services import DrawInputError, pay_draw, settlement_approve, wager_place
from tests.lottery.game_support import (
    add_lines,
    draw_and_settle,
    engine_line_prizes,
    import_rows,
    place,
    schedule,
    stored_lines,
    winnings,
)

RESULT = {"numbers": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 64, 65, 66, 67, 70], "kunkku": 66}

# (picks, Kunkku-Keno, stake cents): sold over the API by two players, then in a retail file.
PLAYER_A = [([1, 2, 3, 4, 5], False, 100),                # level 5, 5 correct: 200 x
            ([1, 2, 3, 64, 66, 30, 31], True, 100),      # level 7, 5 correct, Kunkku number on the line: 30 x
            ([40, 41, 42], False, 100)]                   # nothing
PLAYER_B = [(list(range(21, 32)), False, 200),           # level 11, 0 correct: 1 x
            ([67, 50], True, 100)]                        # level 2, 1 correct, Kunkku number not on it: nothing
RETAIL = [("R-1", [64, 65, 66, 1], True, 200),            # level 4, 4 correct with the Kunkku number: 200 x
          ("R-1", [1, 2, 3, 4, 5, 6, 7, 40, 41, 42], False, 100),  # level 10, 7 correct: 20 x
          ("R-2", [68, 69, 1, 2, 40, 41], False, 100)]    # level 6, 2 correct: nothing


def _api_line(picks, kunkku, stake):
    return {"numbers": picks, "kunkku": kunkku, "stake_cents": stake, "addon_cents": 100 if kunkku else 0}


def _retail_row(ticket, picks, kunkku, stake):
    row = {"ticket": ticket, "kunkku": 1 if kunkku else "", "stake_cents": stake, "addon_cents": 100 if kunkku else 0}
    row.update({f"n{i}": n for i, n in enumerate(picks, start=1)})
    return row


@pytest.fixture
def keno_round(api_client_for, make_gambler, people):
    """A Keno round sold over the API (two players) and by a retail file, drawn and settled."""
    draw = schedule("keno", 7001)
    api = api_client_for(roles.SALES_CHANNEL)
    players = []
    for name, lines in (("A", PLAYER_A), ("B", PLAYER_B)):
        player, session = make_gambler(100_00)
        response = place(api, draw, player, session, f"K-{name}", [_api_line(*x) for x in lines])
        assert response.status_code == 201, response.json()
        players.append(player)
    record = import_rows(draw, people[0], [_retail_row(*x) for x in RETAIL])
    assert record.state == RetailImport.State.DONE, record.errors
    run = draw_and_settle(draw, RESULT, people[0], people[1])
    return Draw.objects.get(pk=draw.pk), run, players


def _expected(draw) -> dict[int, int]:
    sold = [(p, k, s) for p, k, s in PLAYER_A + PLAYER_B] + [(p, k, s) for _, p, k, s in RETAIL]
    lines = stored_lines(draw)
    assert len(lines) == len(sold)
    return engine_line_prizes("keno", RESULT, [(line.pk, {"picks": p, "kunkku": k}, s)
                                                for line, (p, k, s) in zip(lines, sold)])


def test_a_keno_round_settles_with_the_engines_prize_for_every_line(keno_round):
    draw, run, _ = keno_round
    assert (run.state, winnings(run)) == (RunState.SETTLED, _expected(draw))


def test_kunkku_lines_with_the_kunkku_number_are_paid_from_the_kunkku_column(keno_round):
    _, run, _ = keno_round
    kunkku = TierResult.objects.filter(run=run, class_key__endswith="-kunkku")
    assert sorted(kunkku.values_list("class_key", "winners", "prize_cents")) == [("4-4-kunkku", 1, 400_00),
                                                                                  ("7-5-kunkku", 1, 30_00)]


def test_keno_numbers_above_63_are_stored_in_the_extra_mask_and_count_as_hits(keno_round):
    draw, run, _ = keno_round
    line = Line.objects.filter(draw_id=draw.pk, extra_mask__gt=0).order_by("id").first()
    assert (keno_game.CODEC.describe_line(line.main_mask, line.extra_mask, line.plus, line.flags)["numbers"],
            Winning.objects.get(run=run, line_id=line.pk).class_no) == ([1, 2, 3, 30, 31, 64, 66], 7051)


def test_approved_keno_prizes_reach_the_players_game_accounts(keno_round, people):
    draw, run, (a, b) = keno_round
    settlement_approve(actor=people[2], draw=draw)
    pay_draw(draw)
    a.account.refresh_from_db()
    b.account.refresh_from_db()
    # A staked 3 € + 1 € Kunkku and won 200 € + 30 €; B staked 3 € + 1 € Kunkku and won 2 € (1 x 2 €).
    assert (a.account.balance_cents, b.account.balance_cents, Draw.objects.get(pk=draw.pk).state) == (
        100_00 - 400 + 230_00, 100_00 - 400 + 2_00, DrawState.PAID)


def test_retail_keno_prizes_are_claimed_at_the_point_of_sale(keno_round, people):
    draw, run, _ = keno_round
    settlement_approve(actor=people[2], draw=draw)
    retail = Payout.objects.filter(draw=draw, state=Payout.State.RETAIL)
    assert sorted(retail.values_list("amount_cents", flat=True)) == [20_00, 400_00]


# ------------------------------------------------------------------------------------------------
# caps
# ------------------------------------------------------------------------------------------------

TEN = list(range(1, 11))  # level 10, 10 correct: 200,000 x


def _cap_round(people, lines, number):
    """A Keno round whose lines (picks, Kunkku, stake) are written directly, drawn and settled."""
    draw = schedule("keno", number)
    add_lines(draw, [_api_line(*x) for x in lines])
    run = draw_and_settle(draw, RESULT, people[0], people[1])
    return Draw.objects.get(pk=draw.pk), run


def _engine(draw, lines):
    return engine_line_prizes("keno", RESULT, [(line.pk, {"picks": p, "kunkku": k}, s)
                                               for line, (p, k, s) in zip(stored_lines(draw), lines)])


def test_a_keno_cell_over_its_cap_shares_2_5_million_by_stake(people):
    # 10 € + 20 € + 30 € in the cell "level 10, 10 correct": 12,000,000 € calculated > 2,500,000 €.
    draw, run = _cap_round(people, [(TEN, False, 1000), (TEN, False, 2000), (TEN, False, 3000)], 7101)
    prizes = sorted(winnings(run).values())
    assert prizes == [41_666_666, 83_333_333, 125_000_000]


def test_a_capped_keno_cell_keeps_its_breakage_so_paid_and_breakage_make_the_cap(people):
    draw, run = _cap_round(people, [(TEN, False, 1000), (TEN, False, 2000), (TEN, False, 3000)], 7102)
    tier = TierResult.objects.get(run=run, class_key="10-10")
    assert (tier.capped, tier.paid_cents + tier.breakage_cents, tier.breakage_cents) == (True, 250_000_000, 1)


def test_the_keno_cap_matches_the_engine_computed_from_the_picks(people):
    lines = [(TEN, False, 1000), (TEN, False, 2000), (TEN, False, 3000), ([1, 2, 3, 4, 5], False, 100)]
    draw, run = _cap_round(people, lines, 7103)
    assert winnings(run) == _engine(draw, lines)


def test_the_overall_keno_cap_scales_every_prize_to_15_million(people):
    # Six Kunkku cells each calculated over 3,000,000 € (so capped at 3,000,000 €): 18,000,000 € > 15,000,000 €.
    lines = [([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 66], True, 200),  # 11/11 Kunkku 3,000,000 x 2 €
             ([1, 2, 3, 4, 5, 6, 7, 8, 9, 66], True, 1000),  # 10/10 Kunkku 500,000 x 10 €
             ([1, 2, 3, 4, 5, 6, 7, 8, 66], True, 3000),     # 9/9 150,000 x 30 €
             ([1, 2, 3, 4, 5, 6, 7, 66], True, 20000),       # 8/8 30,000 x 200 €
             ([1, 2, 3, 4, 5, 6, 66], True, 100000),         # 7/7 6,000 x 1,000 €
             ([1, 2, 3, 4, 5, 66], True, 200000),            # 6/6 2,000 x 2,000 €
             ([1, 2, 3, 4, 5], False, 100)]                  # 5/5 200 x 1 €: scaled down too
    draw, run = _cap_round(people, lines, 7104)
    expected = _engine(draw, lines)
    tiers = TierResult.objects.filter(run=run)
    paid = sum(t.paid_cents for t in tiers)
    breakage = sum(t.breakage_cents for t in tiers)
    assert (winnings(run) == expected, paid + breakage, paid <= 15_000_000_00) == (True, 15_000_000_00, True)


# ------------------------------------------------------------------------------------------------
# the two computations must agree
# ------------------------------------------------------------------------------------------------

def test_a_disagreement_between_the_two_paths_halts_the_keno_run(people, monkeypatch):
    # Path B's hand-written table pays level 5, 5 correct 300 x instead of 200 x.
    table = {**keno_game.TABLE, 5: {**keno_game.TABLE[5], 5: (300, 600)}}
    monkeypatch.setattr(keno_game, "TABLE", table)
    draw, run = _cap_round(people, [([1, 2, 3, 4, 5], False, 100)], 7201)
    event = AuditEvent.objects.filter(action="lottery.settlement_disagreement").last()
    assert (run.state, Draw.objects.get(pk=draw.pk).state, event.significant) == (
        RunState.HALTED, DrawState.RESULT_CONFIRMED, True)


# ------------------------------------------------------------------------------------------------
# sales: refusals
# ------------------------------------------------------------------------------------------------

def test_bad_rows_of_a_keno_retail_file_are_reported_by_row_number(people):
    draw = schedule("keno", 7301)
    record = import_rows(draw, people[0], [
        _retail_row("R-1", [1, 2, 3], False, 100),                    # row 2: good
        _retail_row("R-2", [1], False, 100),                          # row 3: one number is no level
        _retail_row("R-3", [1, 2, 71], False, 100),                   # row 4: 71 is out of range
        _retail_row("R-4", [1, 2, 3], True, 100) | {"addon_cents": 0},  # row 5: Kunkku without its fee
        _retail_row("R-5", [5, 5, 6], False, 100),                    # row 6: a number twice
    ])
    rows = {e["row"]: " ".join(e["errors"]) for e in record.errors}
    assert (record.state, sorted(rows), Line.objects.filter(draw_id=draw.pk).count()) == (
        RetailImport.State.FAILED, [3, 4, 5, 6], 0)


def test_a_keno_retail_report_says_what_is_wrong_with_each_row(people):
    draw = schedule("keno", 7302)
    record = import_rows(draw, people[0], [_retail_row("R-1", [1, 2, 71], False, 100),
                                           _retail_row("R-2", [1, 2, 3], True, 100) | {"addon_cents": 0}])
    messages = [" ".join(e["errors"]) for e in record.errors]
    assert ("71 is out of range 1..70" in messages[0], "pays the Kunkku fee" in messages[1]) == (True, True)


def test_a_keno_line_of_twelve_numbers_is_refused_over_the_api(api_client_for, make_gambler):
    draw = schedule("keno", 7303)
    player, session = make_gambler()
    response = place(api_client_for(roles.SALES_CHANNEL), draw, player, session, "K-12",
                     [_api_line(list(range(1, 13)), False, 100)])
    assert (response.status_code, "2..11 numbers" in response.json()["detail"]) == (400, True)


def test_a_keno_line_refuses_fields_of_other_games(make_gambler):
    player, session = make_gambler()
    draw = schedule("keno", 7304)
    with pytest.raises(DrawInputError, match="Keno lines have no plus"):
        wager_place(actor="channel:web", draw=draw, player=player, session=session, reference="K-P",
                    lines=[{"numbers": [1, 2], "plus": 3, "stake_cents": 100}])


def test_a_keno_run_that_crashed_between_chunks_resumes_to_the_same_winners(people, monkeypatch, settings):
    from lottery.services import settlement

    settings.LOTTERY_SETTLEMENT_CHUNK_LINES = 2
    lines = [(TEN, False, 1000), (TEN, False, 2000), ([1, 2, 3, 4, 5], False, 100), ([40, 41], False, 100),
             ([1, 2, 66], True, 100)]
    draw = schedule("keno", 7401)
    add_lines(draw, [_api_line(*x) for x in lines])

    def crash(run, done):
        if done == 1:
            raise RuntimeError("the worker died")

    monkeypatch.setattr(settlement, "after_chunk", crash)
    failed = draw_and_settle(draw, RESULT, people[0], people[1])
    monkeypatch.setattr(settlement, "after_chunk", lambda run, done: None)
    resumed = settlement.run_settlement(failed.pk)
    assert (failed.state, resumed.state, resumed.chunks_total, winnings(resumed)) == (
        RunState.FAILED, RunState.SETTLED, 3, _engine(draw, lines))
