"""report FILE.xlsx: the whole event as an Excel workbook (host_sim/desk/report.py): every award,
redeemed or not, every shake grant with its receipt, the counts per bowl, class, hour and day, the
release schedule and the shift hand-overs. Written to FILE.xlsx.tmp first, then renamed: an older
FILE.xlsx is replaced only by a whole new one."""
import os

from django.core.management.base import BaseCommand

from host_sim.desk import inputs, report


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, p):
        p.add_argument("file", metavar="FILE.xlsx", help="where to write the workbook (a name ending in .xlsx)")

    def handle(self, *args, file, **kw):
        if not file.lower().endswith(".xlsx") or os.path.basename(file).startswith("."):
            raise inputs.refuse("%s: 文件名须以 .xlsx 结尾 the file name must end in .xlsx (e.g. event.xlsx)" % file)
        folder = os.path.dirname(os.path.abspath(file))
        if not os.path.isdir(folder):
            raise inputs.refuse("%s: 文件夹不存在 no folder %s: name a file in an existing folder" % (file, folder))
        if os.path.isdir(file):
            raise inputs.refuse("%s: 是文件夹 is a folder: name a file ending in .xlsx" % file)
        data = report.as_bytes()
        tmp = file + ".tmp"
        try:
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, file)
        except OSError as e:
            try:
                os.remove(tmp)
            except OSError:
                pass
            raise inputs.refuse("%s: 写不进 cannot be written: %s" % (file, e.strerror or e))
        self.stdout.write("%s: %d bytes, sheets %s" % (file, len(data), ", ".join(report.SHEETS)))
