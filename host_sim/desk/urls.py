from django.contrib.auth import views as auth_views
from django.urls import path

from . import finals, mqttlog, views

urlpatterns = [
    path("", views.home, name="counter"),
    path("check", views.check, name="check"),
    path("redeem", views.redeem, name="redeem"),
    path("import", views.import_journal, name="import"),
    path("stock", views.stock, name="stock"),
    path("report.csv", views.report_csv, name="report"),
    path("forecast", views.forecast, name="forecast"),
    path("final", finals.page, name="final"),
    path("final/draw", finals.draw, name="final_draw"),
    path("bowls", views.bowls, name="bowls"),
    path("mqtt", mqttlog.page, name="mqtt"),
    path("login", auth_views.LoginView.as_view(template_name="desk/login.html"), name="login"),
    path("logout", auth_views.LogoutView.as_view(), name="logout"),
]
