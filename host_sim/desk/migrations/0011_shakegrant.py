import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("desk", "0010_attendant_language"),
    ]

    operations = [
        migrations.CreateModel(
            name="ShakeGrant",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("event", models.CharField(max_length=32)),
                ("gid", models.PositiveIntegerField()),
                ("n", models.PositiveSmallIntegerField()),
                ("ref", models.CharField(blank=True, max_length=24)),
                ("by", models.CharField(max_length=150)),
                ("at", models.DateTimeField()),
                ("state", models.CharField(default="new", max_length=4)),
                ("why", models.CharField(blank=True, max_length=200)),
                ("acked", models.DateTimeField(null=True)),
                ("bowl", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, to="desk.bowl")),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("bowl", "gid"), name="one_shake_grant")],
            },
        ),
    ]
