"""backup FILE: a consistent copy of the desk's database, taken while it runs
(SQLite's online backup API: every committed hand-over, those still in the
-wal file too), written 0600. It holds the bowls' claim secrets: keep it as
locked away as the desk's computer. `restore FILE` puts it back."""
from django.core.management.base import BaseCommand

from host_sim.desk import backup, inputs


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, p):
        p.add_argument("file", metavar="FILE", help="the backup file to write (replaced if it exists)")

    def handle(self, *args, file, **kw):
        try:
            n = backup.backup(file)
        except backup.BackupError as e:
            raise inputs.refuse(str(e))
        self.stdout.write("已备份 backed up: %s (%d 次兑奖 hand-overs)" % (file, n))
