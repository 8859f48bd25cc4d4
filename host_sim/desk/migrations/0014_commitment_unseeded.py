from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('desk', '0013_bowl_sealed'),
    ]

    operations = [
        migrations.AddField(
            model_name='commitment',
            name='unseeded',
            field=models.BooleanField(default=False),
        ),
    ]
