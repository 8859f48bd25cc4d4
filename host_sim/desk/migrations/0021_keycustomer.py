from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):

    dependencies = [
        ('desk', '0020_fair_rules_stock'),
    ]

    operations = [
        migrations.CreateModel(
            name='KeyCustomer',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_no', models.PositiveIntegerField()),
                ('customer', models.PositiveIntegerField()),
                ('minute', models.PositiveIntegerField(default=0)),
                ('seen', models.DateTimeField()),
                ('bowl', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, to='desk.bowl')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('bowl', 'game_no', 'customer'),
                                                        name='one_key_customer')],
            },
        ),
    ]
