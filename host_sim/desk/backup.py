"""Backups of the desk's database through SQLite's online backup API
(sqlite3.Connection.backup): a consistent copy of every committed transaction,
the ones still in the -wal file too, taken while counters hand prizes over
(`cp desk.sqlite3` of a running desk misses what is in the -wal). A backup
holds everything the desk has, the bowls' claim secrets among them: it is
written 0600, and kept like the database itself.

  backup(path)             one copy, written to path.tmp, checked, then renamed
  Every(folder, minutes)   serve's automatic copies (a thread), and one at shutdown
  restore(path)            a backup's content into the desk's database"""
import datetime
import logging
import os
import sqlite3
import threading

log = logging.getLogger("desk")
PAGES = 256  # per step: writers wait at most one step's copy, never the whole backup


class BackupError(Exception):
    """str(): what went wrong, bilingual."""


def _db_path():
    from django.conf import settings
    return settings.DATABASES["default"]["NAME"]


def _check(con, what):
    ok = con.execute("PRAGMA integrity_check").fetchone()[0]
    if ok != "ok":
        raise BackupError("%s 已损坏 is damaged: %s" % (what, ok))


def backup(path):
    """Copy the desk's database to path (a new file, 0600; an existing one is replaced
    only by a complete, checked copy) -> the number of hand-overs it holds."""
    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    if os.path.isdir(path):
        raise BackupError("%s 是文件夹 is a folder: name the backup file, e.g. %s" % (
            path, os.path.join(path, "desk-backup.sqlite3")))
    if not os.path.isdir(folder):
        raise BackupError("文件夹不存在 no such folder: %s" % folder)
    tmp = path + ".tmp"
    try:
        os.unlink(tmp)  # a copy left by a crash
    except FileNotFoundError:
        pass
    try:
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        src = sqlite3.connect(_db_path(), timeout=20)
        dst = sqlite3.connect(tmp)
        try:
            src.backup(dst, pages=PAGES)
            dst.execute("PRAGMA journal_mode=DELETE")  # one file: nothing left in a -wal beside it
            _check(dst, tmp)
            n = dst.execute("SELECT COUNT(*) FROM desk_redemption").fetchone()[0]
        finally:
            dst.close()
            src.close()
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)  # on the stick before it is called the backup
        finally:
            os.close(fd)
        os.replace(tmp, path)
        os.chmod(path, 0o600)
    except (OSError, sqlite3.Error) as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise BackupError("备份失败 backup to %s failed: %s" % (path, e))
    return n


def restore(path):
    """The backup at path becomes the desk's database (stop `serve` and `listen` first)
    -> the number of hand-overs it holds. The backup is checked before anything changes."""
    if not os.path.isfile(path):
        raise BackupError("%s 不是备份文件 is not a backup file" % path)
    try:
        src = sqlite3.connect("file:%s?mode=ro" % os.path.abspath(path), uri=True)
        try:
            _check(src, path)
            n = src.execute("SELECT COUNT(*) FROM desk_redemption").fetchone()[0]
            dst = sqlite3.connect(_db_path(), timeout=20)
            try:
                src.backup(dst)  # one transaction on the desk's database: all of it or nothing
            finally:
                dst.close()
        finally:
            src.close()
    except sqlite3.Error as e:
        raise BackupError("恢复失败 restore from %s failed (is it a desk backup?): %s" % (path, e))
    return n


def name(now=None):
    return "desk-%s.sqlite3" % (now or datetime.datetime.now()).strftime("%Y%m%d-%H%M%S")


class Every:
    """serve's automatic backups into `folder` (a USB stick the promoter names): one
    every `minutes`, and one more when stop() is called (the server's shutdown)."""

    def __init__(self, folder, minutes):
        self.folder, self.seconds = folder, minutes * 60
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="desk-backup", daemon=True)

    def start(self):
        self.thread.start()
        return self

    def once(self):
        path = os.path.join(self.folder, name())
        try:
            n = backup(path)
        except BackupError as e:
            log.error("%s", e)  # said; the desk goes on serving
            return None
        log.info("backup: %s (%d hand-overs)", path, n)
        return path

    def _run(self):
        while not self.done.wait(self.seconds):
            self.once()

    def stop(self):
        self.done.set()
        self.thread.join(60)
        return self.once()
