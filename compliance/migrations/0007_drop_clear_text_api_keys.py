"""API keys moved to django-rest-knox (digests, with expiry). The old table of DRF's authtoken app held
every key in clear; it is dropped so that no copy of a key is left in the database (issue 14)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("compliance", "0006_control_permissions")]

    operations = [
        migrations.RunSQL("DROP TABLE IF EXISTS authtoken_token", reverse_sql=migrations.RunSQL.noop),
    ]
