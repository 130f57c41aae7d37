"""PostgreSQL: the partitioned lottery_line keeps no primary key of its own (docs/draws.md, "Lines and masks").

A partitioned table's primary key makes every partition carry a unique b-tree on id. For a COPY
retail import's partitions that index was the import's most expensive step after the rows
themselves (100-170 ms per 300,000 lines on two cores), and it guards nothing the import does not
guarantee already: the import numbers its lines itself (its batch's base plus the row number, each
row once, `lottery.services.retail`), each partition's CHECK bounds its ids to its own range, and
nothing else writes ids in a batch's span. The lines are stored in id order, so a BRIN index on id
finds a line by id (the winners list, a page at a time) and the chunks of a settlement by range.

- `lottery_line_p0` (the lines numbered by the table's own sequence: online wagers, the other
  games' retail files) keeps a primary key of its own on id: rows are inserted there one by one.
- Each COPY import partition made before this migration gets a BRIN index on id in place of the
  unique index it loses. Later ones are built with a BRIN index on (id, wager_id).

Backward: the parent's primary key again (built on every partition), the BRIN indexes on id gone.
SQLite: nothing changes (a plain table with its primary key). Django's model state is unchanged.
"""

from django.db import migrations

IMPORT_PARTITIONS = (
    "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid"
    " WHERE i.inhparent = 'lottery_line'::regclass AND c.relname <> 'lottery_line_p0' ORDER BY 1"
)


def _import_partitions(schema_editor) -> list[str]:
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(IMPORT_PARTITIONS)
        return [name for (name,) in cursor.fetchall()]


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    parts = _import_partitions(schema_editor)
    schema_editor.execute("ALTER TABLE lottery_line DROP CONSTRAINT lottery_line_pkey")
    schema_editor.execute("ALTER TABLE lottery_line_p0 ADD CONSTRAINT lottery_line_p0_pkey PRIMARY KEY (id)")
    for name in parts:
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name}_id_brin ON {name} USING brin (id)"
                              " WITH (pages_per_range = 8)")


def backward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in _import_partitions(schema_editor):
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}_id_brin")
    schema_editor.execute("ALTER TABLE lottery_line_p0 DROP CONSTRAINT lottery_line_p0_pkey")
    schema_editor.execute("ALTER TABLE lottery_line ADD CONSTRAINT lottery_line_pkey PRIMARY KEY (id)")


class Migration(migrations.Migration):
    dependencies = [("lottery", "0007_wager_reference_bytewise")]

    operations = [migrations.RunPython(forward, backward)]
