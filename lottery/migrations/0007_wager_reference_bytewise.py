"""PostgreSQL: wager references compare byte-wise (COLLATE "C").

A reference is a token (a ticket number, a channel's business key): only its equality matters, and
under a libc collation such as the databases' C.UTF-8 every comparison in the unique
(channel, reference) index calls strcoll. Byte-wise, writing the 222,000 wagers of a 1,000,000-line
retail file costs about a tenth less (docs/draws.md, "Benchmark"). Equality is the same under both
(a deterministic collation compares equal only identical bytes). The unique index is rebuilt with
the column. Django's model state is unchanged (SQLite has no "C" collation; its default, BINARY, is
already byte-wise).
"""

from django.db import migrations


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute('ALTER TABLE lottery_wager ALTER COLUMN reference TYPE varchar(64) COLLATE "C"')


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute('ALTER TABLE lottery_wager ALTER COLUMN reference TYPE varchar(64) COLLATE "default"')


class Migration(migrations.Migration):
    dependencies = [("lottery", "0006_winning_partitions")]

    operations = [migrations.RunPython(forward, backward)]
