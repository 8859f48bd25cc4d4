"""A damaged journal as the host's tools say it (replay --journal, verify-fair):
what kind of damage in Chinese, then the firmware's own English sentence
(journal.Problem.text)."""
from bobing import journal

# the kinds as the desk's pages name them (host_sim/desk/locale, zh_Hans)
KIND_ZH = {
    journal.TRUNCATED: "记录不完整",
    journal.BAD_CHECKSUM: "记录已损坏",
    journal.NEWER_VERSION: "新版固件的记录",
    journal.OTHER_GAME: "非本局记录",
    journal.BAD_CONFIG: "设置无效",
    journal.BAD_EVENT: "记录无效",
    journal.UNREADABLE: "无法读取",
    journal.FLASH_FULL: "无存储空间",
}


def problem(p):
    """journal.Problem -> one line: `日志有误（KIND）journal problem: TEXT`."""
    return "日志有误（%s）journal problem: %s" % (KIND_ZH.get(p.code, "已损坏"), p.text)
