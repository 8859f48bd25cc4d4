"""rank: settle a dispute at the table, or rank rolls for a program.

  rank 444463 444455     the rolls given, best first, by name (Chinese and
                         English), and in plain words which beats which (胜
                         beats, 平 tie) and why, under the rules (--profile,
                         --set). A roll is 444411, 4,4,4,4,1,1 or '4 4 4 4 1 1'.
  rank < rolls.txt       rolls read from stdin, one per line; one JSON object a
                         line: {"dice", "rank", "bonus", "order"}; `order`
                         compares lexicographically: a higher list is a better
                         roll. A bad line prints {"error": ...}; the exit status
                         is then 1.

Only the ranking options change how a roll ranks; a game option (how a table
plays: prizes, turns, ...) is refused here."""
import json
import sys

from bobing import profiles, rules
from host_sim.cli.options import (InputError, add_profile_arguments, binary_lines, decode_line,
                              profile_from)

# What each value of a ranking option means at the table (RULES.md §1-3, §9):
# {"option=value": (Chinese, English)}.
EXPLAIN = {
    "zhuangyuan_order=chajinhua_top": ("插金花 > 六勃红 > 遍地锦 > 黑六勃 > 五红 > 五子 > 四红",
                                       "the golden flower (444411) tops every zhuangyuan"),
    "zhuangyuan_order=liuhong_top": ("六勃红 > 插金花 > 遍地锦 > 黑六勃 > 五红 > 五子 > 四红",
                                     "six 4s top the golden flower"),
    "zhuangyuan_order=liubo_top": ("六勃红 > 遍地锦 > 黑六勃 > 插金花 > 五红 > 五子 > 四红",
                                   "every six of a kind tops the golden flower"),
    "sihong_key=sum": ("四红比另两粒之和：带12最大，带3最小",
                       "four 4s: the sum of the other two dice decides (12 best, 3 worst)"),
    "sihong_key=high_then_low": ("四红先比另两粒中大的一粒，再比小的（444463 胜 444455）",
                                 "four 4s: the higher other die first, then the lower (444463 beats 444455)"),
    "wuzi_key=face_then_kicker": ("五子先比五粒的点数（6>5>3>2>1），再比第六粒",
                                  "five of a kind: the face first (6>5>3>2>1), then the sixth die"),
    "wuzi_key=kicker": ("五子只比第六粒", "five of a kind: only the sixth die counts"),
    "wuzi_key=kicker_then_face": ("五子先比第六粒，再比五粒的点数（222226 胜 666665）",
                                  "five of a kind: the sixth die first, then the face (222226 beats 666665)"),
    "heiliubo_key=face": ("黑六勃按点数比：6>5>3>2(>1)", "six of a kind (not 4s) ranked by face 6>5>3>2(>1)"),
    "heiliubo_key=equal": ("黑六勃不论点数一样大，先博者胜",
                           "every six of a kind equal, whatever the face: the earlier roll stands"),
    "zhuangyuan_tiebreak=on": ("同级状元按上面各项比大小，相等则先博者胜",
                               "within a zhuangyuan sub-rank the keys above decide; equal: the earlier roll stands"),
    "zhuangyuan_tiebreak=off": ("同级状元不比点数，先博者胜",
                                "no tie-break within a sub-rank: the earlier roll stands"),
    "biandijin=own_rank": ("遍地锦（六个1）自成一级，大于黑六勃", "six 1s are their own rank, above six of a kind"),
    "biandijin=as_heiliubo": ("遍地锦算作点数为1的黑六勃", "six 1s are a six of a kind of face 1"),
    "duitang_patterns=straight": ("123456 为对堂", "123456 is a straight (dui tang)"),
    "duitang_patterns=three_pairs": ("三对（如 334455）为对堂", "three pairs (334455) are a dui tang"),
    "duitang_patterns=two_triples": ("两个三同（如 222555，有444者除外）为对堂",
                                     "two triples (222555; never with 444) are a dui tang"),
    "combined=on": (
        "兼得：五子带4加一秀；四进带两个4加二举，带一个4加一秀",
        "combined awards: five of a kind with a 4 adds one red; four of a kind with two 4s adds two reds, "
        "with one 4 one red"),
    "combined=off": ("只算最大的一项，不兼得", "only the highest rank counts"),
    "combined=sijin_only": ("只有四进兼得，五子带4不加一秀",
                            "only four of a kind keeps its bonus; five of a kind with a 4 adds nothing"),
}


def explain_lines():
    """{"option=value": (zh, en)} for every value of every ranking option."""
    return EXPLAIN


def rank_help():
    ex = explain_lines()
    lines = ["\nranking options, what each value means (the first is the default):"]
    for name in profiles.RANK_OPTIONS:
        allowed = profiles.option(name)[1]
        for v in (allowed[1] if allowed[0] == "+" else allowed):
            zh, en = ex[name + "=" + v]
            lines.append("  %s=%s\n      %s\n      %s" % (name, v, zh, en))
    return "\n".join(lines)


def add_arguments(p):
    p.description = __doc__
    add_profile_arguments(p)
    p.add_argument("rolls", nargs="*", metavar="ROLL",
                   help="rolls to compare, e.g. 444463 444455 (none: read rolls from stdin, print JSON)")
    p.epilog = (p.epilog or "") + "\n" + rank_help()


def name(code):
    """A rank's name in both languages: 四红 Si Hong (Four reds)."""
    return "%s %s (%s)" % (rules.rank_names("zh")[code], rules.rank_names("pinyin")[code], rules.rank_names("en")[code])


# the ranking option that orders two rolls of the same rank (the rest: the tie-break switch)
_SAME_RANK = {rules.SIHONG: "sihong_key", rules.WUZI: "wuzi_key", rules.HEILIUBO: "heiliubo_key"}


def _why(prof, a, b):
    """Why roll a beats b, in Chinese and English, with the rule that decides."""
    ra, rb = rules.rank_of(a[1]), rules.rank_of(b[1])
    ex = explain_lines()
    if ra != rb:
        zh, en = ("%s 大于 %s" % (rules.rank_names("zh")[ra], rules.rank_names("zh")[rb]),
                  "%s is above %s" % (rules.rank_names("en")[ra], rules.rank_names("en")[rb]))
        opt = "zhuangyuan_order" if rules.is_zhuangyuan(ra) and rules.is_zhuangyuan(rb) else None
    else:
        zh, en = "同为%s" % rules.rank_names("zh")[ra], "both are %s" % rules.rank_names("en")[ra]
        opt = _SAME_RANK.get(ra, "zhuangyuan_tiebreak")
    if opt:
        key = "%s=%s" % (opt, prof[opt])
        zh += "（%s：%s）" % (key, ex[key][0])
        en += " (%s: %s)" % (key, ex[key][1])
    return zh, en


def dispute(prof, texts):
    """The rolls best first by name, then who beats whom, in plain words."""
    r = rules.Rules(prof)
    rolls = []
    for t in texts:
        try:
            dice = rules.parse_roll(t)
        except ValueError as e:
            raise InputError("%r: %s" % (t, e))
        rolls.append(("".join(map(str, dice)), r.score(dice)))
    order = sorted(range(len(rolls)), key=lambda i: (-rules.key_of(rolls[i][1]), i))
    out = []
    w = max(len(t) for t, _v in rolls)
    for n, i in enumerate(order, 1):
        dice, v = rolls[i]
        b = rules.bonus_of(v)
        extra = "  + %s %s (%s)" % (rules.rank_names("zh")[b], rules.rank_names("pinyin")[b],
                                    rules.rank_names("en")[b]) if b else ""
        zy = "  状元 zhuangyuan" if rules.is_zhuangyuan(rules.rank_of(v)) else ""
        out.append("%d. %s  %s%s%s" % (n, dice.ljust(w), name(rules.rank_of(v)), extra, zy))
    for k in range(len(order) - 1):
        a, b = rolls[order[k]], rolls[order[k + 1]]
        if rules.key_of(a[1]) == rules.key_of(b[1]):
            rank = rules.rank_of(a[1])
            if rules.is_zhuangyuan(rank):
                out.append("%s 平 %s：一样大，先博者胜（状元归先掷出的人）" % (a[0], b[0]))
                out.append("%s ties with %s: equal; the earlier roll keeps the zhuangyuan" % (a[0], b[0]))
            else:
                out.append("%s 平 %s：同为%s，各得一份" % (a[0], b[0], rules.rank_names("zh")[rank]))
                out.append("%s ties with %s: both %s, each wins one" % (a[0], b[0], rules.rank_names("en")[rank]))
        else:
            zh, en = _why(prof, a, b)
            out.append("%s 胜 %s：%s" % (a[0], b[0], zh))
            out.append("%s beats %s: %s" % (a[0], b[0], en))
    return out


def run(args):
    game_opts = [k for k, _v in args.set if k not in profiles.RANK_OPTIONS]
    if game_opts:
        raise InputError("--set %s: 这是牌局选项，不影响点数大小 a game option: it does not change how a roll "
                         "ranks; rank takes the ranking options: %s" % (", ".join(game_opts),
                                                                       ", ".join(profiles.RANK_OPTIONS)))
    try:
        prof = profile_from(args)
        r = rules.Rules(prof)
    except ValueError as e:
        raise InputError(str(e))
    if args.rolls:
        print("\n".join(dispute(prof, args.rolls)))
        return 0
    bad = False
    for n, raw in enumerate(binary_lines(sys.stdin), 1):
        if not raw.strip():
            continue
        try:
            out = r.describe(rules.parse_roll(decode_line(raw)))
        except ValueError as e:
            out = {"error": "line %d: %s" % (n, e)}
            bad = True
        print(json.dumps(out, ensure_ascii=False), flush=True)
    return 1 if bad else 0
