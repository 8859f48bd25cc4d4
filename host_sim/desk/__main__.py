"""python -m host_sim.desk COMMAND: the prize desk's commands (Django's manage.py).

  serve [--listen HOST:PORT] [--https]   upgrade the database (migrate) and serve the desk
                                  (--https: TLS, its own certificate unless --cert/--key)
  attendant NAME                  add an attendant or set a password (asks twice);
                                  --language zh|en, --supervisor: a supervisor's settings
  addbowl ID (--secret-hex HEX | --secret TEXT)   the bowl's claim secret (its admin
                                  menu 领奖密钥 shows it in hex); again to change it
  importjournal FILE...           import journals copied off bowls (gNNNNNNNN.bbj)
  listen --broker HOST[:PORT] --event NAME   awards, bowl status and asks from the MQTT broker
                                  (firmware/PROTOCOL.md); the broker password from $MQTT_PASSWORD
  stock --event NAME [CLASS=N ...] [--step CLASS=N ...]   the event's shared prize stock
                                  (total per class); without CLASS=N, what is granted so far
  pace --event NAME [CLASS=N/day | CLASS=N/hour | CLASS=off ...]   the release schedule: at
                                  most N of a class handed out a day or an hour (the dice unchanged)
  report FILE.xlsx                the whole event as an Excel workbook (also /report.xlsx)
  backup FILE                     a consistent copy of the running desk's database (0600;
                                  it holds the bowls' secrets); serve --backup-dir FOLDER
                                  [--backup-every MINUTES] makes them by itself
  restore FILE                    a backup becomes the desk's database (stop serve first)
  migrate, showmigrations, ...    Django's own commands

The desk's folder is $BOBING_DESK_DIR (default data/desk): desk.sqlite3, secret_key."""
import os
import sys

from host_sim import compat

compat.install()  # this entry point's one set-up: the MicroPython shim, firmware/ importable

from host_sim.cli import guarded  # noqa: E402
from host_sim.cli.options import InputError  # noqa: E402


def main(argv=None):
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "host_sim.desk.settings")
    argv = list(sys.argv if argv is None else argv)
    argv[0] = "python -m host_sim.desk"
    if len(argv) == 1 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    try:
        from django.core.management import execute_from_command_line
    except ModuleNotFoundError as e:  # the system's python, not the project's .venv
        from host_sim.cli import missing_message, missing_package
        if missing_package(e) is None:
            raise
        print(missing_message(e, "host_sim.desk"), file=sys.stderr)
        return 2
    return guarded(lambda: _run(argv, execute_from_command_line))


def _check_args(argv):
    """Arguments Python could not decode (not UTF-8: it keeps them as surrogates) and a
    desk folder that is not a folder: said before Django reads either."""
    for i, a in enumerate(argv[1:], 1):
        try:
            a.encode("utf-8")
        except UnicodeEncodeError:
            raise InputError("参数 argument %d %s 不是UTF-8文字 is not UTF-8 text: write it in UTF-8 "
                             "(file names too)" % (i, ascii(a)[:80]))
    from host_sim.desk.paths import data_dir
    folder = data_dir(os.environ)
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise InputError("BOBING_DESK_DIR %s 不是文件夹 is not a folder: name a folder (it is made if missing)"
                         % folder)


class DatabaseFailed(InputError):
    status = 1  # as Django's own commands fail


def _run(argv, execute_from_command_line):
    import django
    from django.core.management import call_command
    from django.db import DatabaseError
    _check_args(argv)
    try:
        from django.apps import apps
        if not apps.ready:  # once per process (a second setup would configure logging again)
            django.setup()
        if argv[1] not in ("migrate", "makemigrations", "showmigrations", "sqlmigrate", "help"):
            call_command("migrate", interactive=False, verbosity=0)  # a fresh or older database: up to date
        execute_from_command_line(argv)
    except DatabaseError as e:
        raise DatabaseFailed("the desk's database (%s): %s" % (os.environ.get("BOBING_DESK_DIR") or "data/desk", e))


if __name__ == "__main__":
    sys.exit(main())
