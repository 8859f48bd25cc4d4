"""What a replay prints, shared by `replay FILE` (host_sim/cli/replay.py) and
`replay --journal` (host_sim/cli/replay_journal.py): the result as JSON-ready
data, a kiosk's awards in order, and the awards as lines to read (--awards)."""
from bobing import rules

IN_PLAY = "in_play"


def kiosk_awards(table, out, log):
    """A kiosk's awards of one Outcome, each with its customer, award number
    (as the claim screen's No.game-award) and class, appended to log."""
    if not table.kiosk or not out.won:
        return
    first = table.award_no - len(out.won) + 1
    for k in range(len(out.won)):
        c = out.won[k][0]
        a = {"customer": out.customer, "award": first + k, "class": c, "class_zh": table.class_zh[c],
             "rank": rules.RANK_IDS[out.rank], "dice": list(out.dice) if out.dice else None}
        if out.claims:
            a["code"] = out.claims[k]
        log.append(a)


def result(table, events_used, log=None):
    """The JSON-ready result of a table (a kiosk's: with its awards in log)."""
    head = {
        "ended": table.ended,
        "reason": table.reason if table.ended else IN_PLAY,
        "events_used": events_used,
    }
    if table.kiosk:  # customers, not seats; no 状元 held to the end
        head["customers"] = table.customer
        head["awards"] = log or []
        head["won"] = dict((c, table.awards[1][c]) for c in table.classes)
    else:
        zy = None
        if table.holder:
            zy = {"seat": table.holder, "dice": list(table.holder_dice),
                  "rank": rules.RANK_IDS[table.holder_rank]}
        head["zhuangyuan"] = zy
        head["awards"] = dict((str(s), dict((c, table.awards[s][c]) for c in table.classes))
                              for s in range(1, table.seats + 1))
    head["pool"] = dict((c, table.pool[c]) for c in table.classes)
    head["grabbed"] = dict((c, table.grabbed[c]) for c in table.classes)
    return head


def award_lines(games):
    """The awards of replayed games as lines to read: games is [(bowl id, game
    number, table, kiosk award log)]. A kiosk: one line an award (the end of
    the day's list for the counter); a table: each seat's prizes."""
    rows = []
    total = {}
    names = {}
    order = []
    for bowl, game_no, table, log in games:
        names.update(table.class_zh)
        order += [c for c in table.classes if c not in order]
        if table.kiosk:
            for a in log:
                ref = "%d-%d" % (game_no, a["award"]) if game_no else str(a["award"])
                rows.append((bowl or "-", ref, str(a["customer"]), "%s %s" % (a["class_zh"], a["class"]),
                             a.get("code", "-")))
                total[a["class"]] = total.get(a["class"], 0) + 1
        else:
            for seat in range(1, table.seats + 1):
                won = ", ".join("%s %s ×%d" % (table.class_zh[c], c, table.awards[seat][c])
                                for c in table.classes if table.awards[seat][c])
                rows.append((bowl or "-", str(game_no or "-"), "%d号 seat %d" % (seat, seat), won or "-", ""))
                for c in table.classes:
                    total[c] = total.get(c, 0) + table.awards[seat][c]
    kiosk = all(g[2].kiosk for g in games)
    head = ("碗号 bowl", "编号 No." if kiosk else "局 game", "顾客 customer" if kiosk else "座位 seat",
            "奖项 class" if kiosk else "奖品 prizes", "领奖码 code" if kiosk else "")
    w = [max(_width(r[i]) for r in rows + [head]) for i in range(4)]
    out = []
    for r in [head] + rows:
        out.append("  ".join(_pad(r[i], w[i]) for i in range(4)) + ("  " + r[4] if r[4] else ""))
    n = sum(total.values())
    out.append("共 %d 个奖 %d award%s%s" % (n, n, "" if n == 1 else "s", (": " if n else "") + ", ".join(
        "%s %s %d" % (names[c], c, total[c]) for c in order if total.get(c))))
    return out


def _width(s):
    # terminal columns: a Chinese character takes two
    return sum(2 if ord(ch) > 0x2e7f else 1 for ch in s)


def _pad(s, w):
    return s + " " * (w - _width(s))
