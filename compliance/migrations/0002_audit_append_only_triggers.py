"""Make the audit table append-only with database triggers (PostgreSQL and SQLite)."""

from django.db import migrations


def install(apps, schema_editor):
    from compliance import triggers

    triggers.install_append_only(schema_editor.connection)


def drop(apps, schema_editor):
    from compliance import triggers

    triggers.drop(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("compliance", "0001_initial")]
    operations = [migrations.RunPython(install, drop)]
