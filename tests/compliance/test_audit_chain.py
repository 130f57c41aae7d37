"""The audit trail is append-only, hash-chained and verifiable (DESIGN §5)."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from compliance import triggers
from compliance.audit import GENESIS_HASH, audit_record, verify_chain
from compliance.models import AuditEvent


def _record_some(n: int = 3) -> list[AuditEvent]:
    return [
        audit_record(actor="system:test", action=f"test.step{i}", data={"i": i, "amount": Decimal("1.10")})
        for i in range(n)
    ]


def _verify_exit_code(capsys) -> tuple[int, str]:
    try:
        call_command("audit_verify")
    except SystemExit as exc:
        return int(exc.code), capsys.readouterr().err
    return 0, capsys.readouterr().out


def test_events_are_chained_by_previous_hash(db):
    first, second, third = _record_some()
    assert (second.prev_hash, third.prev_hash) == (first.hash, second.hash)


def test_the_chain_starts_from_the_genesis_hash(db):
    _record_some(1)
    assert AuditEvent.objects.get(seq=1).prev_hash == GENESIS_HASH


def test_sequence_numbers_follow_each_other(db):
    events = _record_some(4)
    assert [e.seq for e in events] == list(range(events[0].seq, events[0].seq + 4))


def test_intact_chain_verifies_with_exit_code_zero(db, capsys):
    _record_some()
    code, out = _verify_exit_code(capsys)
    assert code == 0 and "intact" in out


def test_database_refuses_update_of_an_audit_event(db):
    event = _record_some(1)[0]
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE compliance_auditevent SET action = 'forged' WHERE id = %s", [event.pk])


def test_database_refuses_delete_of_an_audit_event(db):
    event = _record_some(1)[0]
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM compliance_auditevent WHERE id = %s", [event.pk])


def test_orm_cannot_delete_an_audit_event_either(db):
    event = _record_some(1)[0]
    with pytest.raises(DatabaseError), transaction.atomic():
        AuditEvent.objects.filter(pk=event.pk).delete()


@pytest.mark.postgres
def test_database_refuses_truncate_of_the_audit_table(db):
    if connection.vendor != "postgresql":
        pytest.skip("TRUNCATE exists only on PostgreSQL")
    _record_some(1)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending FK checks in the way
            cursor.execute("TRUNCATE compliance_auditevent CASCADE")


def _tamper(sql: str, params: list) -> None:
    triggers.drop(connection)
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
    finally:
        triggers.install(connection)


def test_verify_names_the_first_altered_row_and_exits_non_zero(db, capsys):
    events = _record_some(5)
    _tamper("UPDATE compliance_auditevent SET data = %s WHERE id = %s", ['{"i": 99}', events[2].pk])
    code, err = _verify_exit_code(capsys)
    assert code == 1
    assert f"id={events[2].pk} seq={events[2].seq}" in err


def test_verify_detects_a_rewritten_hash_by_the_broken_link(db):
    events = _record_some(4)
    _tamper("UPDATE compliance_auditevent SET action = 'x', hash = %s WHERE id = %s", ["f" * 64, events[1].pk])
    report = verify_chain()
    assert (report.ok, report.bad_id) == (False, events[1].pk)


def test_verify_detects_removed_newest_events(db):
    events = _record_some(3)
    _tamper("DELETE FROM compliance_auditevent WHERE id = %s", [events[-1].pk])
    report = verify_chain()
    assert not report.ok and "head records" in report.reason


def test_audit_event_rolls_back_with_the_change_it_records(db):
    before = AuditEvent.objects.count()
    with pytest.raises(RuntimeError), transaction.atomic():
        audit_record(actor="system:test", action="test.rolled_back")
        raise RuntimeError("the change failed")
    assert AuditEvent.objects.count() == before


def test_decimals_are_stored_as_the_strings_they_were_hashed_as(db):
    event = _record_some(1)[0]
    event.refresh_from_db()
    assert event.data["amount"] == "1.10" and verify_chain().ok


def test_scheduled_verification_records_a_significant_event_when_broken(db):
    from compliance.tasks import audit_verify_chain

    events = _record_some(2)
    _tamper("UPDATE compliance_auditevent SET actor_repr = 'mallory' WHERE id = %s", [events[0].pk])
    result = audit_verify_chain.apply().get()  # in this process, whatever the broker
    assert result["ok"] is False
    assert AuditEvent.objects.filter(action="audit.chain_broken", significant=True).exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_writers_keep_a_single_unbroken_chain():
    if connection.vendor != "postgresql":
        pytest.skip("row locking is meaningful on PostgreSQL")
    from django.db import connections

    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for i in range(15):
                audit_record(actor=f"system:writer{n}", action="test.concurrent", data={"i": i})
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    report = verify_chain()
    assert report.ok and report.checked == AuditEvent.objects.count()
    assert AuditEvent.objects.filter(action="test.concurrent").count() == 90
