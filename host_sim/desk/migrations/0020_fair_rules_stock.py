from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('desk', '0019_bowlstatus_status_order_tls'),
    ]

    operations = [
        migrations.AddField(
            model_name='fairchain',
            name='rules',
            field=models.CharField(blank=True, max_length=120),
        ),
        migrations.AddField(
            model_name='commitment',
            name='left',
            field=models.JSONField(null=True),
        ),
    ]
