from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('desk', '0022_pace_handover'),
    ]

    operations = [
        migrations.AddField(
            model_name='redemption',
            name='counter',
            field=models.CharField(blank=True, default='', max_length=32),
        ),
    ]
