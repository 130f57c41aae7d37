"""Database triggers that make the audit table append-only (DESIGN §5), for PostgreSQL and SQLite."""

from django.db.backends.base.base import BaseDatabaseWrapper

TABLE = "compliance_auditevent"
MESSAGE = "compliance_auditevent is append-only"

_POSTGRES_INSTALL = [
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
_POSTGRES_DROP = [
    f"DROP TRIGGER IF EXISTS compliance_audit_no_change ON {TABLE}",
    f"DROP TRIGGER IF EXISTS compliance_audit_no_truncate ON {TABLE}",
]
_SQLITE_INSTALL = [
    f"""CREATE TRIGGER IF NOT EXISTS compliance_audit_no_update BEFORE UPDATE ON {TABLE}
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}: UPDATE refused'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS compliance_audit_no_delete BEFORE DELETE ON {TABLE}
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}: DELETE refused'); END""",
]
_SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS compliance_audit_no_update",
    "DROP TRIGGER IF EXISTS compliance_audit_no_delete",
]


def _statements(connection: BaseDatabaseWrapper, install: bool) -> list[str]:
    if connection.vendor == "postgresql":
        return _POSTGRES_INSTALL if install else _POSTGRES_DROP
    if connection.vendor == "sqlite":
        return _SQLITE_INSTALL if install else _SQLITE_DROP
    raise NotImplementedError(f"No append-only triggers for the {connection.vendor} database.")


def install(connection: BaseDatabaseWrapper) -> None:
    with connection.cursor() as cursor:
        for sql in _statements(connection, install=True):
            cursor.execute(sql)


def drop(connection: BaseDatabaseWrapper) -> None:
    """Remove the triggers. Only the test harness does this, to empty tables between tests."""
    with connection.cursor() as cursor:
        for sql in _statements(connection, install=False):
            cursor.execute(sql)
