"""A damaged journal as the host's tools say it (replay --journal, verify-fair):
what kind of damage in Chinese, then the firmware's own English sentence
(journal.Problem.text)."""
from bobing import journal

# the firmware's kinds of damage (journal.Problem.code), Chinese and English: the host's
# tools and the desk's pages (host_sim/desk/ingest.py) both say them from here
KINDS = {
    journal.TRUNCATED: ("记录不完整", "a record cut short"),
    journal.BAD_CHECKSUM: ("记录已损坏", "a record damaged"),
    journal.NEWER_VERSION: ("新版固件的记录", "a newer firmware's game"),
    journal.OTHER_GAME: ("非本局记录", "another game's file"),
    journal.BAD_CONFIG: ("设置无效", "the game's settings are invalid"),
    journal.BAD_EVENT: ("记录无效", "an invalid event"),
    journal.UNREADABLE: ("无法读取", "the file cannot be read"),
    journal.FLASH_FULL: ("无存储空间", "the flash is full"),
    journal.NOT_RECOVERED: ("无法恢复", "recovery failed"),
}
_DAMAGED = ("已损坏", "damaged")


def kind(p):
    """journal.Problem -> (Chinese, English) name of its kind of damage."""
    return KINDS.get(p.code, _DAMAGED)


def problem(p):
    """journal.Problem -> one line: `日志有误（KIND）journal problem: TEXT`."""
    return "日志有误（%s）journal problem: %s" % (kind(p)[0], p.text)
