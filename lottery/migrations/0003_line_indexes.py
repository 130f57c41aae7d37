"""Indexes of lottery_line, per database (see Line's docstring), and the id space of bulk imports.

PostgreSQL: BRIN on draw_id and wager_id (autosummarize: autovacuum summarizes each filled range;
the retail import also summarizes after a load). SQLite: b-trees on (draw_id, id) and wager_id.
"""

from django.db import migrations

POSTGRESQL = [
    # Retail imports take ids batch * 2**32 + row (lottery.services.retail); the tables' own
    # sequences stay below 2**32 so the two can never meet (an error, not a collision, at the end).
    "CREATE SEQUENCE IF NOT EXISTS lottery_bulk_batch_seq",
    "ALTER TABLE lottery_line ALTER COLUMN id SET MAXVALUE 4294967295",
    "ALTER TABLE lottery_wager ALTER COLUMN id SET MAXVALUE 4294967295",
    "CREATE INDEX IF NOT EXISTS line_draw_brin ON lottery_line USING brin (draw_id)"
    " WITH (pages_per_range = 32, autosummarize = on)",
    "CREATE INDEX IF NOT EXISTS line_wager_brin ON lottery_line USING brin (wager_id)"
    " WITH (pages_per_range = 32, autosummarize = on)",
]
OTHERS = [
    "CREATE INDEX IF NOT EXISTS line_draw_id_idx ON lottery_line (draw_id, id)",
    "CREATE INDEX IF NOT EXISTS line_wager_idx ON lottery_line (wager_id)",
]
DROP = ["DROP SEQUENCE IF EXISTS lottery_bulk_batch_seq","DROP INDEX IF EXISTS line_draw_brin", "DROP INDEX IF EXISTS line_wager_brin",
        "DROP INDEX IF EXISTS line_draw_id_idx", "DROP INDEX IF EXISTS line_wager_idx"]


def create(apps, schema_editor):
    for sql in POSTGRESQL if schema_editor.connection.vendor == "postgresql" else OTHERS:
        schema_editor.execute(sql)


def drop(apps, schema_editor):
    for sql in DROP:
        schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("lottery", "0002_draws_sales_settlement")]

    operations = [migrations.RunPython(create, drop)]
