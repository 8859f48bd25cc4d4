"""The MQTT activity page (mqttlog.py records it: awards received, messages refused)."""
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from .models import Import


@require_http_methods(["GET"])
def page(request):
    """The MQTT activity: awards received and messages refused, newest first."""
    rows = Import.objects.filter(source="mqtt").order_by("-id")[:100]
    return render(request, "desk/mqtt.html", {"rows": rows})
