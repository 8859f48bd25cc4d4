from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('desk', '0012_fair_commitment'),
    ]

    operations = [
        migrations.AddField(
            model_name='bowl',
            name='sealed_game',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='bowl',
            name='sealed_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
