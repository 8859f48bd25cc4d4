"""The WSGI application (served by waitress: `python -m host_sim.desk serve`)."""
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "host_sim.desk.settings")

from host_sim import compat
compat.install()  # the MicroPython shim; firmware/ importable
from django.core.wsgi import get_wsgi_application  # noqa: E402

application = get_wsgi_application()
