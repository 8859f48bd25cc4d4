from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('desk', '0016_shakegrant_receipt'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='by_key',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='game',
            name='key_minutes',
            field=models.JSONField(default=list),
        ),
    ]
