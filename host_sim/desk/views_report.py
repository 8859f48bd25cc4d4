"""The whole event's workbook, /report.xlsx (host_sim/desk/report.py), for any logged-in
attendant, as the day's CSV is (LoginRequiredMiddleware)."""
from django.http import HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from . import report

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@require_http_methods(["GET"])
def report_xlsx(request):
    resp = HttpResponse(report.as_bytes(), content_type=XLSX)
    resp["Content-Disposition"] = 'attachment; filename="event-%s.xlsx"' % timezone.localtime().strftime("%Y%m%d-%H%M")
    return resp
