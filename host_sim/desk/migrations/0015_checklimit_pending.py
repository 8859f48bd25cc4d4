from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('desk', '0014_commitment_unseeded'),
    ]

    operations = [
        migrations.AddField(
            model_name='checklimit',
            name='pending_code',
            field=models.CharField(blank=True, max_length=8),
        ),
        migrations.AddField(
            model_name='checklimit',
            name='pending_wait',
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
