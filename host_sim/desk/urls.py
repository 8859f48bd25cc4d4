from django.contrib.auth.decorators import login_not_required
from django.urls import path

from . import views, views_fair as fair, views_final, views_login, views_mqtt, views_report, views_shift

urlpatterns = [
    path("", views.home, name="counter"),
    path("check", views.check, name="check"),
    path("redeem", views.redeem, name="redeem"),
    path("shakes", views.shakes_page, name="shakes"),
    path("import", views.import_journal, name="import"),
    path("stock", views.stock, name="stock"),
    path("report.csv", views.report_csv, name="report"),
    path("shift", views_shift.page, name="shift"),
    path("shift/close", views_shift.close, name="shift_close"),
    path("report.xlsx", views_report.report_xlsx, name="report_xlsx"),
    path("forecast", views.forecast, name="forecast"),
    path("final", views_final.page, name="final"),
    path("final/draw", views_final.draw, name="final_draw"),
    path("bowls", views.bowls, name="bowls"),
    path("mqtt", views_mqtt.page, name="mqtt"),
    path("fair", fair.page, name="fair"),  # public: no login (verifiable fairness)
    path("fair/export.json", fair.export, name="fair_export"),
    path("fair/seed", fair.take_seed, name="fair_seed"),  # public: a customer's own seed from his phone
    # a fair kiosk's claim QR (bobing/claim.py's link), upper case: that award's verdict, public
    path("F/<str:bowl>/<str:ga>/<str:cls>", fair.claim_page, name="fair_claim"),
    # the waiting screen's QR: a customer adds his own seed from his phone (public)
    path("J/<str:bowl>/<str:gk>", fair.join_page, name="fair_join"),
    # a customer's receipt: his turn checked in his phone by the bowl's own code (public)
    path("V/sw.js", fair.service_worker, name="fair_verify_sw"),  # (keeps the receipt page for offline)
    path("V/<str:bowl>/<str:gk>", fair.verify_page, name="fair_verify"),
    path("fair/fw/<str:name>.py", fair.firmware_module, name="fair_firmware"),
    path("login", views_login.Login.as_view(), name="login"),
    path("logout", views.logout_page, name="logout"),
    # the language switch on every page (the login page's too): Django's view, by POST
    path("language", login_not_required(views.language), name="set_language"),
    path("too-large", views.too_large, name="too_large"),
]
