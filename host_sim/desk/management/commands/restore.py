"""restore FILE: a backup (`backup FILE`, or serve's --backup-dir) becomes the
desk's database. Stop `serve` and `listen` first; the backup is checked
(PRAGMA integrity_check) before anything changes, and the next command brings
it up to this version's schema."""
from django.core.management.base import BaseCommand

from host_sim.desk import backup, inputs


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, p):
        p.add_argument("file", metavar="FILE", help="the backup to restore")

    def handle(self, *args, file, **kw):
        try:
            n = backup.restore(file)
        except backup.BackupError as e:
            raise inputs.refuse(str(e))
        self.stdout.write("已恢复 restored: %s (%d 次兑奖 hand-overs)" % (file, n))
