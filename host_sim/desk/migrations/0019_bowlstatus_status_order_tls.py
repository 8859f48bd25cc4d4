from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('desk', '0018_fair_format2'),
    ]

    operations = [
        migrations.AddField(
            model_name='bowlstatus',
            name='status_order',
            field=models.BigIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='bowlstatus',
            name='tls',
            field=models.BooleanField(null=True),
        ),
    ]
