"""Where the desk keeps its data: without Django, so that a command can check the
folder before Django's settings make it (settings.py and __main__.py)."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def data_dir(environ):
    """The desk's folder: outside build/, which `make clean` removes with the database in it."""
    return os.path.abspath(environ.get("BOBING_DESK_DIR") or os.path.join(ROOT, "data", "desk"))
