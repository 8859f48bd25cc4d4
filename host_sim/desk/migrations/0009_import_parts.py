from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("desk", "0008_finalbowl"),
    ]

    operations = [
        migrations.AddField(
            model_name="import",
            name="parts",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
