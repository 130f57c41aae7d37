"""Retail sales files: validated completely, loaded all or nothing, every bad row reported."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection

from compliance.models import AuditEvent
from lottery.models import Line, Wager
from lottery.rules.bitmask import picks_to_mask
from lottery.services import DrawStateError
from lottery.services.retail import HEADER, retail_import
from tests.factories import DrawFactory
from tests.lottery.support import lotto_row, sales_file


@pytest.fixture
def draw(db):
    return DrawFactory(state="closed")


def _sold(draw):
    return draw.sales_open_at + dt.timedelta(hours=1)


def _import(draw, rows, actor="system:test", **kwargs):
    return retail_import(actor=actor, draw=draw, stream=sales_file(rows, **kwargs), file_name="sales.csv")


def _good_rows(draw):
    t = _sold(draw)
    return [
        lotto_row("A1", t, (1, 2, 3, 4, 5, 6, 7)),
        lotto_row("A1", t, (8, 9, 10, 11, 12, 13, 14), plus=12),
        lotto_row("B2", t, (40, 39, 38, 37, 36, 35, 34), terminal="T0002"),
    ]


def test_a_good_file_is_imported(draw):
    record = _import(draw, _good_rows(draw))
    assert (record.state, record.rows, record.tickets, record.lines) == ("done", 3, 2, 3)


def test_the_rows_of_a_ticket_make_one_wager(draw):
    _import(draw, _good_rows(draw))
    wager = Wager.objects.get(reference="A1")
    assert (wager.channel, wager.line_count, wager.stake_cents, wager.retail_terminal) == ("retail", 2, 250, "T0001")


def test_lines_are_stored_as_bitmasks(draw):
    _import(draw, _good_rows(draw))
    stored = sorted(Line.objects.filter(draw=draw).values_list("main_mask", "plus", "addon_cents"))
    assert stored == sorted([(picks_to_mask(range(1, 8)), None, 0), (picks_to_mask(range(8, 15)), 12, 50),
                             (picks_to_mask(range(34, 41)), None, 0)])


def test_an_import_is_audited(draw):
    record = _import(draw, _good_rows(draw))
    assert AuditEvent.objects.filter(action="lottery.retail_imported", object_id=str(record.pk)).exists()


def test_the_database_path_is_copy_on_postgresql_and_batches_elsewhere(draw):
    record = _import(draw, _good_rows(draw))
    assert record.method == ("copy" if connection.vendor == "postgresql" else "batches")


def test_a_file_with_a_bad_row_loads_nothing(draw):
    rows = _good_rows(draw) + [lotto_row("C3", _sold(draw), (1, 2, 3, 4, 5, 6, 41))]
    record = _import(draw, rows)
    assert (record.state, Line.objects.filter(draw=draw).count(), Wager.objects.count()) == ("failed", 0, 0)


def test_every_bad_row_is_reported_by_its_row_number(draw):
    t = _sold(draw)
    rows = [
        lotto_row("A1", t),
        lotto_row("B2", t, (1, 2, 3, 4, 5, 6, 41)),  # row 3: out of range
        lotto_row("C3", t, (1, 1, 3, 4, 5, 6, 7)),  # row 4: duplicate
        lotto_row("D4", t, plus=31),  # row 5: plus out of range
        lotto_row("E5", draw.sales_close_at + dt.timedelta(minutes=1)),  # row 6: after the close
        lotto_row("F6", t, stake=0),  # row 7: no stake
    ]
    record = _import(draw, rows)
    assert [e["row"] for e in record.errors] == [3, 4, 5, 6, 7]


def test_the_report_says_what_is_wrong(draw):
    record = _import(draw, [lotto_row("B2", _sold(draw), (1, 2, 3, 4, 5, 6, 41))])
    assert "out of range 1..40" in " ".join(record.errors[0]["errors"])


def test_a_value_that_is_not_a_number_is_reported(draw):
    row = lotto_row("B2", _sold(draw)).replace(",7,", ",seven,")
    record = _import(draw, [lotto_row("A1", _sold(draw)), row])
    assert record.errors == [{"row": 3, "ticket": "B2", "errors": ["n7: 'seven' is not a whole number"],
                              "messages": [{"msgid": "%(what)s: %(value)s is not a whole number",
                                            "params": {"what": "n7", "value": "'seven'"}}]}]


def test_a_row_with_missing_columns_is_reported(draw):
    record = _import(draw, [lotto_row("A1", _sold(draw)), "B2,2026-01-01T00:00:00+00:00,T1,1,2,3"])
    assert record.errors[0]["row"] == 3 and "expected 15 columns" in record.errors[0]["errors"][0]


def test_rows_of_one_ticket_must_agree_on_the_sale(draw):
    t = _sold(draw)
    record = _import(draw, [lotto_row("A1", t), lotto_row("A1", t + dt.timedelta(minutes=5))])
    assert record.errors[0]["errors"] == ["sold_at: differs from row 2 of the same ticket"]


def test_a_wrong_header_is_refused(draw):
    record = _import(draw, _good_rows(draw), header="ticket,numbers\n")
    assert (record.state, record.errors[0]["row"]) == ("failed", 1)


def test_an_empty_file_is_refused(draw):
    record = _import(draw, [])
    assert record.errors[0]["errors"] == ["the file has no sales rows"]


def test_trailing_blank_lines_are_not_rows(draw):
    record = retail_import(actor="system:test", draw=draw, file_name="s.csv",
                           stream=sales_file(_good_rows(draw) + ["\n", "\n"]))
    assert (record.state, record.rows) == ("done", 3)


def test_the_same_file_is_not_imported_twice(draw):
    _import(draw, _good_rows(draw))
    again = _import(draw, _good_rows(draw))
    assert "already imported" in again.errors[0]["errors"][0]


def test_a_ticket_already_imported_is_reported(draw):
    _import(draw, _good_rows(draw)[:1])
    record = _import(draw, [lotto_row("Z9", _sold(draw)), lotto_row("A1", _sold(draw), (2, 3, 4, 5, 6, 7, 8))])
    assert record.errors == [{"row": 3, "ticket": "A1", "errors": ["ticket A1 was already imported"],
                              "messages": [{"msgid": "ticket %(ticket)s was already imported",
                                            "params": {"ticket": "A1"}}]}]


def test_a_refused_import_is_recorded_and_audited(draw):
    record = _import(draw, [lotto_row("B2", _sold(draw), (1, 2, 3, 4, 5, 6, 41))])
    assert AuditEvent.objects.filter(action="lottery.retail_import_refused", object_id=str(record.pk)).exists()


def test_sales_cannot_be_imported_once_a_result_is_entered(db):
    draw = DrawFactory(state="result_entered")
    with pytest.raises(DrawStateError, match="retail sales are imported"):
        _import(draw, _good_rows(draw))


def test_eurojackpot_lines_keep_their_stars(db):
    draw = DrawFactory(game_code="eurojackpot", state="closed")
    t = timezone_iso(_sold(draw))
    record = _import(draw, [f"E1,{t},T1,1,2,3,4,5,,,3,12,,250,0"])
    assert (record.state, Line.objects.get(draw=draw).extra_mask) == ("done", picks_to_mask([3, 12]))


def test_eurojackpot_lines_need_two_different_stars(db):
    draw = DrawFactory(game_code="eurojackpot", state="closed")
    t = timezone_iso(_sold(draw))
    record = _import(draw, [f"E1,{t},T1,1,2,3,4,5,,,3,3,,250,0"])
    assert "duplicated" in " ".join(record.errors[0]["errors"])


def test_a_milli_line_has_no_plussa(db):
    draw = DrawFactory(game_code="milli", state="closed")
    t = timezone_iso(_sold(draw))
    record = _import(draw, [f"M1,{t},T1,1,2,3,4,5,6,,,,5,100,50"])
    assert record.state == "failed"


def test_the_header_constant_matches_the_documented_columns():
    assert ",".join(HEADER) == "ticket,sold_at,terminal,n1,n2,n3,n4,n5,n6,n7,s1,s2,plus,stake_cents,plus_cents"


def timezone_iso(value):
    from django.utils import timezone

    return timezone.localtime(value).isoformat()


@pytest.mark.postgres
def test_postgresql_reports_the_same_rows_as_the_validator(draw):
    if connection.vendor != "postgresql":
        pytest.skip("COPY exists only on PostgreSQL")
    from lottery.games import registry
    from lottery.services.retail import _validate_all

    t = _sold(draw)
    rows = [lotto_row("A1", t), lotto_row("B2", t, (1, 2, 3, 4, 5, 6, 41)), lotto_row("C3", t, plus=0),
            lotto_row("A1", t, terminal="T9"), lotto_row("D4", t, stake=2_000_000)]
    record = _import(draw, rows)
    report, _ = _validate_all(draw, registry.get("lotto").codec.line_format(draw.ruleset.params), sales_file(rows))
    assert record.errors == report.entries


def test_the_command_imports_a_file(draw, tmp_path):
    from django.core.management import call_command

    path = tmp_path / "sales.csv"
    path.write_bytes(sales_file(_good_rows(draw)).getvalue())
    call_command("import_retail_sales", str(path), "--draw", f"lotto:{draw.number}")
    assert Line.objects.filter(draw=draw).count() == 3


def test_the_command_fails_on_a_refused_file(draw, tmp_path):
    from django.core.management import CommandError, call_command

    path = tmp_path / "sales.csv"
    path.write_bytes(sales_file([lotto_row("B2", _sold(draw), (1, 2, 3, 4, 5, 6, 41))]).getvalue())
    with pytest.raises(CommandError, match="1 bad rows"):
        call_command("import_retail_sales", str(path), "--draw", str(draw.pk))


# ------------------------------------------------------------------------------------------------
# PostgreSQL: the file in two halves, the lines in partitions of their own (migration 0005)
# ------------------------------------------------------------------------------------------------

def _tables(prefix: str) -> dict[str, bool]:
    """name -> is a partition, of the tables whose name starts with prefix."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT relname, relispartition FROM pg_class WHERE relkind = 'r' AND relname LIKE %s",
                       [prefix.replace("_", "\\_") + "%"])
        return dict(cursor.fetchall())


def _many_rows(draw, tickets: int = 60):
    t = _sold(draw)
    rows = []
    for i in range(tickets):
        for j in range(1 + i % 3):
            nums = [(i + j + k * 5) % 40 + 1 for k in range(7)]
            rows.append(lotto_row(f"M{i:05d}", t, nums, plus=(i % 30) + 1 if j == 0 else None, terminal=f"T{i % 7}"))
    return rows


@pytest.mark.postgres
@pytest.mark.parametrize("pieces", [2, 3])
def test_postgresql_streams_a_big_file_in_two_halves_into_partitions(draw, monkeypatch, pieces):
    """Two halves; below SPLIT_PIECE_ROWS one partition per half, from it three (the first FIRST_PIECE_SHARE of the
    rows beside the wagers, the rest in two), each of consecutive rows, whatever half they came from."""
    if connection.vendor != "postgresql":
        pytest.skip("COPY exists only on PostgreSQL")
    from lottery.services import retail

    monkeypatch.setattr(retail, "SPLIT_MIN_BYTES", 0)
    if pieces == 3:
        monkeypatch.setattr(retail, "SPLIT_PIECE_ROWS", 10)
    rows = _many_rows(draw)
    record = _import(draw, rows)
    assert (record.state, record.rows, record.lines, record.tickets) == ("done", len(rows), len(rows), 60)
    base = record.batch * 2**32
    lines = list(Line.objects.filter(draw=draw).order_by("id").values_list("id", "wager_id", "main_mask", "plus"))
    assert [line_id - base for line_id, *_ in lines] == list(range(1, len(rows) + 1))  # numbered in file order
    wagers = dict(Wager.objects.filter(draw=draw).values_list("reference", "id"))
    assert wagers["M00001"] == base + 2  # the ticket's first row
    assert lines[1] == (base + 2, base + 2, picks_to_mask([2, 7, 12, 17, 22, 27, 32]), 2)
    parts = _tables(f"lottery_line_b{record.batch}_")
    assert parts == {f"lottery_line_b{record.batch}_{k}": True for k in range(1, pieces + 1)}
    with connection.cursor() as cursor:  # consecutive rows in each, in order, covering every line
        cursor.execute("SELECT tableoid::regclass::text, MIN(id), MAX(id), COUNT(*) FROM lottery_line"
                       " WHERE draw_id = %s GROUP BY 1 ORDER BY 2", [draw.pk])
        spans = [(lo - base, hi - base, n) for _, lo, hi, n in cursor.fetchall()]
    assert len(spans) == pieces and spans[0][0] == 1 and spans[-1][1] == len(rows)
    assert all(hi - lo + 1 == n for lo, hi, n in spans)
    assert all(nxt[0] == prev[1] + 1 for prev, nxt in zip(spans, spans[1:]))
    if pieces == 3:
        assert spans[0][2] == int(len(rows) * retail.FIRST_PIECE_SHARE)
    assert _tables(f"lottery_stage_b{record.batch}_") == {}  # the work tables are gone


@pytest.mark.postgres
def test_postgresql_a_staged_row_is_found_by_its_number_and_rows_out_of_order_are_refused(db):
    """The line pieces read their staging rows by ctid range (`_piece_segments`), cut at the ctid of a
    row found by its number: the exact row on a table of many blocks, and an error, not a wrong cut,
    when the rows are not in number order."""
    if connection.vendor != "postgresql":
        pytest.skip("staging tables exist only on PostgreSQL")
    from lottery.services import retail

    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE stage_in_order (rn bigint, pad text)")
        cursor.execute("INSERT INTO stage_in_order SELECT g, repeat('x', 200) FROM generate_series(1, 2000) g")
        cursor.execute("SELECT pg_relation_size('stage_in_order') / current_setting('block_size')::int")
        assert cursor.fetchone()[0] > 40  # many blocks: the search takes several steps
        for rn in (1, 2, 35, 36, 777, 1999, 2000):
            ctid = retail._row_ctid(cursor, "stage_in_order", rn, 2000)
            cursor.execute(f"SELECT rn FROM stage_in_order WHERE ctid = '{ctid}'")
            assert cursor.fetchone()[0] == rn
        cursor.execute("CREATE TEMPORARY TABLE stage_reversed (rn bigint, pad text)")
        cursor.execute("INSERT INTO stage_reversed SELECT g, repeat('x', 200) FROM generate_series(2000, 1, -1) g")
        with pytest.raises(RuntimeError, match="row 1 of stage_reversed"):
            retail._row_ctid(cursor, "stage_reversed", 1, 2000)


@pytest.mark.postgres
def test_postgresql_an_imports_id_span_holds_only_its_draws_lines(draw):
    """Settlement reads a COPY import's chunks by id alone (lottery.matching.draw_filter_sql): the
    partitions of the import's id span refuse a line of another draw."""
    if connection.vendor != "postgresql":
        pytest.skip("COPY exists only on PostgreSQL")
    from django.db import IntegrityError, transaction

    record = _import(draw, _good_rows(draw))
    other = DrawFactory(state="closed")
    line = Line.objects.filter(draw=draw).order_by("-id").values("id", "wager_id", "main_mask").first()
    with pytest.raises(IntegrityError, match="_draw"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO lottery_line (id, main_mask, extra_mask, flags, stake_cents, addon_cents, draw_id, wager_id)"
            " VALUES (%s, %s, 0, 0, 100, 0, %s, %s)", [line["id"] + 1, line["main_mask"], other.pk, line["wager_id"]])
    assert line["id"] == record.batch * 2**32 + record.lines
    assert Line.objects.filter(draw=other).count() == 0


@pytest.mark.postgres
def test_postgresql_line_ids_unique_in_the_sequence_partition_and_found_by_id_in_an_imports(draw):
    """Migration 0008: lottery_line has no key of its own. The partition of sequence-numbered lines
    keeps its primary key (rows are inserted there one by one); an import's partitions number their
    lines themselves and are read by id through their BRIN index."""
    if connection.vendor != "postgresql":
        pytest.skip("partitions exist only on PostgreSQL")
    from django.db import IntegrityError, transaction

    _import(draw, _good_rows(draw))
    imported = list(Line.objects.filter(draw=draw).order_by("id").values_list("id", "main_mask"))
    wanted = dict(imported[::2])
    assert dict(Line.objects.filter(pk__in=list(wanted)).values_list("id", "main_mask")) == wanted
    online = Line.objects.create(draw=draw, wager_id=Wager.objects.filter(draw=draw).first().pk, main_mask=127,
                                 stake_cents=100)
    assert online.pk < 2**32
    with pytest.raises(IntegrityError, match="lottery_line_p0_pkey"), transaction.atomic(), connection.cursor() as c:
        c.execute("INSERT INTO lottery_line (id, main_mask, extra_mask, flags, stake_cents, addon_cents, draw_id,"
                  " wager_id) VALUES (%s, 127, 0, 0, 100, 0, %s, %s)", [online.pk, draw.pk, online.wager_id])
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.relname, am.amname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
                       " JOIN pg_am am ON am.oid = c.relam JOIN pg_class t ON t.oid = i.indrelid"
                       " WHERE t.relname LIKE 'lottery_line_b%%' AND t.relispartition")
        indexes = cursor.fetchall()
    assert indexes and all(kind == "brin" for _, kind in indexes)


@pytest.mark.postgres
def test_postgresql_reports_every_bad_row_of_a_file_in_two_halves(draw, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("COPY exists only on PostgreSQL")
    from lottery.games import registry
    from lottery.services import retail

    monkeypatch.setattr(retail, "SPLIT_MIN_BYTES", 0)
    t = _sold(draw)
    rows = _many_rows(draw, 20)
    rows[3] = lotto_row("B2", t, (1, 2, 3, 4, 5, 6, 41))
    rows[-2] = lotto_row("M00001", t, terminal="T9")  # the ticket's first rows are in the first half
    record = _import(draw, rows)
    report, _ = retail._validate_all(draw, registry.get("lotto").codec.line_format(draw.ruleset.params), sales_file(rows))
    assert (record.state, record.errors) == ("failed", report.entries)
    assert [e["row"] for e in record.errors] == [5, len(rows)]
    assert Line.objects.filter(draw=draw).count() == 0
    assert _tables(f"lottery_line_b{record.batch or 0}_") == {} and _tables("lottery_stage_b") == {}


@pytest.mark.postgres
def test_postgresql_drops_the_work_tables_of_an_import_that_died(transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("COPY exists only on PostgreSQL")
    from lottery.services import retail

    with connection.cursor() as cursor:  # committed work tables of two batches: 999998 still running
        for name in ("lottery_stage_b999999_1", "lottery_stage_b999999_t", "lottery_line_b999999_2",
                     "lottery_stage_b999998_1"):
            cursor.execute(f"CREATE TABLE {name} (x int)")
    running = retail._work_connection()
    work = retail._work_connection()
    try:
        running.execute("SELECT pg_advisory_lock(%s, 999998)", [retail.LEFTOVER_LOCK])
        retail._drop_leftovers(work.cursor())
        left = set(_tables("lottery_stage_b99999")) | set(_tables("lottery_line_b99999"))
    finally:
        running.close()
        work.execute("DROP TABLE IF EXISTS lottery_stage_b999998_1")
        work.close()
    assert left == {"lottery_stage_b999998_1"}


@pytest.mark.postgres
def test_postgresql_refuses_a_file_with_a_copy_end_of_data_line(draw):
    if connection.vendor != "postgresql":
        pytest.skip("COPY exists only on PostgreSQL")
    t = _sold(draw)
    rows = [lotto_row("A1", t), "\\.", lotto_row("B2", t, (8, 9, 10, 11, 12, 13, 14))]
    record = _import(draw, rows)  # COPY would stop at the line \. and load only A1
    assert (record.state, [e["row"] for e in record.errors]) == ("failed", [3])
    assert Line.objects.filter(draw=draw).count() == 0
