"""DRF's authtoken table kept API tokens in plain text; knox's (hashed, expiring) replaces it.

The old tokens become invalid (docs/security.md): their table is dropped, and authtoken's
migration records with it, so nothing readable is left in the database or its future dumps.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0005_session_confirm_entries"),
        ("knox", "0009_extend_authtoken_field"),
    ]

    operations = [
        migrations.RunSQL("DROP TABLE IF EXISTS authtoken_token", migrations.RunSQL.noop),
        migrations.RunSQL(
            "DELETE FROM django_migrations WHERE app = 'authtoken'", migrations.RunSQL.noop
        ),
    ]
