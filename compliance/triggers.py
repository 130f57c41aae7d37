"""Database triggers that protect the audit chain (DESIGN §5, docs/compliance.md "Audit trail"), for
PostgreSQL and SQLite.

- `compliance_auditevent` is append-only: UPDATE, DELETE and TRUNCATE are refused, and an INSERT must
  follow the head (its `seq` the head's plus one, its `prev_hash` the head's hash).
- `compliance_auditchainhead` is protected: it cannot be deleted or truncated, never moves backwards,
  and always names the last event (seq, hash and key), or the genesis when there are no events.

A table owner can still switch triggers off; what they do then is found by the keyed seals and the
checkpoints kept outside the database (`audit_verify`).
"""

from django.db.backends.base.base import BaseDatabaseWrapper

TABLE = "compliance_auditevent"
HEAD = "compliance_auditchainhead"
MESSAGE = "compliance_auditevent is append-only"
HEAD_MESSAGE = "compliance_auditchainhead is protected"
GENESIS = "0" * 64

# The head names the last event, or the genesis of an empty chain. "Last" is max(seq), which both
# databases read from the end of the seq index; `NOT EXISTS (... seq > NEW.last_seq)` got a generic
# plan on PostgreSQL that scanned the whole table on every event.
_HEAD_MATCHES = f"""(
    (NEW.last_seq = 0 AND NEW.last_hash = '{GENESIS}' AND NEW.last_key_id = ''
        AND NOT EXISTS (SELECT 1 FROM {TABLE}))
    OR (NEW.last_seq = (SELECT MAX(seq) FROM {TABLE})
        AND EXISTS (SELECT 1 FROM {TABLE} e WHERE e.seq = NEW.last_seq AND e.hash = NEW.last_hash
                    AND e.key_id = NEW.last_key_id))
)"""
_FOLLOWS_HEAD = f"""EXISTS (SELECT 1 FROM {HEAD} h WHERE h.id = 1 AND h.last_seq = NEW.seq - 1
    AND h.last_hash = NEW.prev_hash)"""

_POSTGRES_APPEND_ONLY = [
    f"""
    CREATE OR REPLACE FUNCTION compliance_audit_refuse_change() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '{MESSAGE}: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
    END;
    $$
    """,
    f"DROP TRIGGER IF EXISTS compliance_audit_no_change ON {TABLE}",
    f"""CREATE TRIGGER compliance_audit_no_change BEFORE UPDATE OR DELETE ON {TABLE}
        FOR EACH ROW EXECUTE FUNCTION compliance_audit_refuse_change()""",
    f"DROP TRIGGER IF EXISTS compliance_audit_no_truncate ON {TABLE}",
    f"""CREATE TRIGGER compliance_audit_no_truncate BEFORE TRUNCATE ON {TABLE}
        FOR EACH STATEMENT EXECUTE FUNCTION compliance_audit_refuse_change()""",
]
_POSTGRES_CHAIN = [
    f"""
    CREATE OR REPLACE FUNCTION compliance_audit_follows_head() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        IF NOT {_FOLLOWS_HEAD} THEN
            RAISE EXCEPTION '{MESSAGE}: event % does not follow the chain head', NEW.seq
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NEW;
    END;
    $$
    """,
    f"DROP TRIGGER IF EXISTS compliance_audit_insert_follows_head ON {TABLE}",
    f"""CREATE TRIGGER compliance_audit_insert_follows_head BEFORE INSERT ON {TABLE}
        FOR EACH ROW EXECUTE FUNCTION compliance_audit_follows_head()""",
    f"""
    CREATE OR REPLACE FUNCTION compliance_audit_guard_head() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' OR TG_OP = 'TRUNCATE' THEN
            RAISE EXCEPTION '{HEAD_MESSAGE}: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF NEW.id <> 1 THEN
            RAISE EXCEPTION '{HEAD_MESSAGE}: only the head row 1 may exist' USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF TG_OP = 'UPDATE' AND NEW.last_seq < OLD.last_seq THEN
            RAISE EXCEPTION '{HEAD_MESSAGE}: the head cannot move back from % to %', OLD.last_seq, NEW.last_seq
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF NOT {_HEAD_MATCHES} THEN
            RAISE EXCEPTION '{HEAD_MESSAGE}: the head must name the last event (seq %)', NEW.last_seq
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NEW;
    END;
    $$
    """,
    f"DROP TRIGGER IF EXISTS compliance_audit_head_guard ON {HEAD}",
    f"""CREATE TRIGGER compliance_audit_head_guard BEFORE INSERT OR UPDATE OR DELETE ON {HEAD}
        FOR EACH ROW EXECUTE FUNCTION compliance_audit_guard_head()""",
    f"DROP TRIGGER IF EXISTS compliance_audit_head_no_truncate ON {HEAD}",
    f"""CREATE TRIGGER compliance_audit_head_no_truncate BEFORE TRUNCATE ON {HEAD}
        FOR EACH STATEMENT EXECUTE FUNCTION compliance_audit_guard_head()""",
]
_POSTGRES_DROP = [
    f"DROP TRIGGER IF EXISTS compliance_audit_no_change ON {TABLE}",
    f"DROP TRIGGER IF EXISTS compliance_audit_no_truncate ON {TABLE}",
    f"DROP TRIGGER IF EXISTS compliance_audit_insert_follows_head ON {TABLE}",
    f"DROP TRIGGER IF EXISTS compliance_audit_head_guard ON {HEAD}",
    f"DROP TRIGGER IF EXISTS compliance_audit_head_no_truncate ON {HEAD}",
]

_SQLITE_APPEND_ONLY = [
    f"""CREATE TRIGGER IF NOT EXISTS compliance_audit_no_update BEFORE UPDATE ON {TABLE}
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}: UPDATE refused'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS compliance_audit_no_delete BEFORE DELETE ON {TABLE}
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}: DELETE refused'); END""",
]
_SQLITE_CHAIN = [
    f"""CREATE TRIGGER IF NOT EXISTS compliance_audit_insert_follows_head BEFORE INSERT ON {TABLE}
        WHEN NOT {_FOLLOWS_HEAD}
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}: the event does not follow the chain head'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS compliance_audit_head_no_delete BEFORE DELETE ON {HEAD}
        BEGIN SELECT RAISE(ABORT, '{HEAD_MESSAGE}: DELETE refused'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS compliance_audit_head_insert BEFORE INSERT ON {HEAD}
        WHEN NEW.id <> 1 OR NOT {_HEAD_MATCHES}
        BEGIN SELECT RAISE(ABORT, '{HEAD_MESSAGE}: the head must name the last event'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS compliance_audit_head_back BEFORE UPDATE ON {HEAD}
        WHEN NEW.last_seq < OLD.last_seq
        BEGIN SELECT RAISE(ABORT, '{HEAD_MESSAGE}: the head cannot move back'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS compliance_audit_head_update BEFORE UPDATE ON {HEAD}
        WHEN NEW.id <> 1 OR NOT {_HEAD_MATCHES}
        BEGIN SELECT RAISE(ABORT, '{HEAD_MESSAGE}: the head must name the last event'); END""",
]
_SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS compliance_audit_no_update",
    "DROP TRIGGER IF EXISTS compliance_audit_no_delete",
    "DROP TRIGGER IF EXISTS compliance_audit_insert_follows_head",
    "DROP TRIGGER IF EXISTS compliance_audit_head_no_delete",
    "DROP TRIGGER IF EXISTS compliance_audit_head_insert",
    "DROP TRIGGER IF EXISTS compliance_audit_head_back",
    "DROP TRIGGER IF EXISTS compliance_audit_head_update",
]


def _statements(connection: BaseDatabaseWrapper, install: bool, chain: bool = True) -> list[str]:
    if connection.vendor == "postgresql":
        return (_POSTGRES_APPEND_ONLY + (_POSTGRES_CHAIN if chain else [])) if install else _POSTGRES_DROP
    if connection.vendor == "sqlite":
        return (_SQLITE_APPEND_ONLY + (_SQLITE_CHAIN if chain else [])) if install else _SQLITE_DROP
    raise NotImplementedError(f"No audit triggers for the {connection.vendor} database.")


def _run(connection: BaseDatabaseWrapper, statements: list[str]) -> None:
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def install(connection: BaseDatabaseWrapper) -> None:
    """Every trigger: append-only events, inserts that follow the head, the protected head."""
    _run(connection, _statements(connection, install=True))


def install_append_only(connection: BaseDatabaseWrapper) -> None:
    """Only the append-only triggers of migration 0002 (the head's columns come with 0008)."""
    _run(connection, _statements(connection, install=True, chain=False))


def drop(connection: BaseDatabaseWrapper) -> None:
    """Remove every trigger. Only the test harness does this, to empty tables between tests (and
    migration 0008's reversal, and the tamper tests, as an attacker with owner rights would)."""
    _run(connection, _statements(connection, install=False))
