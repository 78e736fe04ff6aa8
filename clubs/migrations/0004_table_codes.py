"""Table codes (issue 17): each table gets a code a phone opens it with; a session may turn
them off. Existing tables get a code of their own (a unique default cannot be added at once)."""

from django.db import migrations, models

import clubs.models


def give_codes(apps, schema_editor):  # type: ignore[no-untyped-def]
    Table = apps.get_model("clubs", "Table")
    for table in Table.objects.filter(code__isnull=True).only("pk"):
        table.code = clubs.models.new_table_code()
        table.save(update_fields=["code"])


class Migration(migrations.Migration):
    dependencies = [("clubs", "0003_player_invitation")]

    operations = [
        migrations.AddField(
            model_name="session",
            name="table_codes",
            field=models.BooleanField(
                default=True,
                help_text="Phones may open a table by its code (/t/<code>) while the session runs.",
            ),
        ),
        migrations.AddField(
            model_name="table",
            name="code",
            field=models.CharField(max_length=8, null=True),
        ),
        migrations.RunPython(give_codes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="table",
            name="code",
            field=models.CharField(
                default=clubs.models.new_table_code,
                help_text="Opens the table's rubber on any phone at /t/<code> while the session runs.",
                max_length=8,
                unique=True,
            ),
        ),
    ]
