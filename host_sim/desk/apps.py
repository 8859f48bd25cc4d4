from django.apps import AppConfig


class DeskConfig(AppConfig):
    name = "host_sim.desk"
    label = "desk"
    verbose_name = "Prize desk"
