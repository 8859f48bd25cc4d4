"""The WSGI application (served by waitress: `python -m host_sim.desk serve`)."""
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "host_sim.desk.settings")

import host_sim  # noqa: F401  (firmware/ on sys.path, the const shim)
from django.core.wsgi import get_wsgi_application

application = get_wsgi_application()
