"""The keyed audit chain (issue 15, item 6): each event records the audit key it was sealed with, the
head records the key of the last event, the existing unkeyed chain is sealed, and triggers make inserts
follow the head and protect the head itself (compliance.triggers).

Existing rows are not rewritten: the table is append-only and they are the evidence. One keyed event,
`audit.chain_sealed`, is appended after them (when there are any); its HMAC covers the previous row's
hash and so, through the links, every unkeyed row (docs/compliance.md, "Audit trail").
"""

from django.db import migrations, models


def seal_and_protect(apps, schema_editor):
    from compliance import triggers
    from compliance.audit import chain_seal_unkeyed

    # SQLite rebuilt the tables for the new columns (without their triggers); PostgreSQL kept them.
    triggers.drop(schema_editor.connection)
    chain_seal_unkeyed(
        apps.get_model("compliance", "AuditEvent"),
        apps.get_model("compliance", "AuditChainHead"),
        actor_repr="system:migration",
    )
    triggers.install(schema_editor.connection)


def unprotect(apps, schema_editor):
    # Back to the append-only triggers of 0002. A seal event written by this migration stays (the
    # table is append-only) and, without its key_id column, no longer verifies: reversing is for a
    # development database only.
    from compliance import triggers

    triggers.drop(schema_editor.connection)
    triggers.install_append_only(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("compliance", "0007_drop_clear_text_api_keys")]

    operations = [
        migrations.AddField(
            model_name="auditevent",
            name="key_id",
            field=models.CharField(
                blank=True, default="", editable=False, max_length=32,
                help_text="The audit key that sealed the row; empty for the unkeyed first chain.",
            ),
        ),
        migrations.AddField(
            model_name="auditchainhead",
            name="last_key_id",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.RunPython(seal_and_protect, unprotect),
    ]
