"""Checks of verifiable fairness (firmware/PROTOCOL.md "Verifiable fairness"):
every roll of a fair event kiosk recomputed from the revealed secret, the
desk's value and the roll's position, with the firmware's own derivation
(bobing.dice.Derived, bobing.fair's log and message formats): the host keeps no
second copy of the rule. Used by `python -m host_sim verify-fair` and by the
desk's public page.

A roll is verified only when its commitment was recorded before it, the
reveal hashes to the commitment, and the dice equal the derivation. Anything
else is counted as unverified with its reason; nothing is dropped.

Fair format 2 (the bowl's now): a game's customers' secrets are a chain whose
anchor ("A" lines, the desk's "chains") precedes them; customer k's rolls are
positions 0, 1, ... of one sequence (a spill uses none); a customer whose log
holds a format-1 commitment ("C" lines) is checked as format 1."""
import hashlib
import os

from bobing import dice, fair, game, journal, rules
from host_sim.analysis import journal_text

_RULES = rules.Rules()  # the default preset (combined awards on): the most a roll can pay

# reasons (the report groups them)
NO_COMMIT = "no commitment before the roll"
NO_DESK = "no desk value for its commitment"
UNSEEDED = "played without the desk's value (none came in time: the bowl's own dice)"
UNREVEALED = "commitment never revealed"
MISMATCH_REVEAL = "reveal does not match the commitment"
MISMATCH_DICE = "dice do not match the reveal"
AFTER_RETRY = "roll under a customer's second commitment (a retry or a re-draw?)"
HIDDEN = "a commitment missing from the journal (a hidden retry?)"
LATE = "commitment recorded after an award of this customer"
WRONG_CUSTOMER = "roll of another customer than its commitment's"
NOT_AT_DESK = "commitment not recorded by the desk"
AWARDS = "awards not explained by the revealed rolls"


class Report:
    def __init__(self):
        self.verified = 0
        self.unverified = {}  # reason -> rolls
        self.lines = []  # what was seen, one line each
        self.spills = []  # (what, the dice the spilled shake would have given) of verified turns
        self.trusted = []  # the turns checked without a seed of the customer's own

    def spill(self, what, dice_text):
        v = _RULES.evaluate([int(x) for x in dice_text])
        self.spills.append((what, dice_text, rules.RANK_IDS[rules.rank_of(v)]))

    def spill_lines(self):
        """The spilled shakes and what they would have rolled: a bowl that voids good rolls
        as spills shows here (their ranks should look like any rolls')."""
        return ["%s: it would have rolled %s (%s)" % s for s in self.spills]

    def trust_line(self):
        """What a verdict says of the turns without a customer seed: their dice follow from
        the bowl's secret and the desk's value alone, so an operator running both could
        have chosen them (the chain and the checks stop only a bowl or a desk alone)."""
        if not self.trusted:
            return None
        return ("%s: %d turn(s) without a customer seed (%s)" % (TRUSTED, len(self.trusted),
                                                                ", ".join(self.trusted[:5]) +
                                                                (", ..." if len(self.trusted) > 5 else "")))

    def bad(self, reason, n=1, line=None):
        self.unverified[reason] = self.unverified.get(reason, 0) + n
        if line:
            self.lines.append(line)

    @property
    def unverified_n(self):
        return sum(self.unverified.values())

    def summary(self, own=False):
        """own: the bowl's folder alone, no desk export: it only shows that the bowl agrees
        with itself (a bowl can write any journal and log it likes), never "verified"."""
        if own:
            s = "fair: consistency only (no desk export): %d rolls agree with the bowl's own log, %d do not" % (
                self.verified, self.unverified_n)
        else:
            s = "fair: %d rolls verified, %d unverified" % (self.verified, self.unverified_n)
        if self.unverified:
            s += " (%s)" % "; ".join("%s: %d" % (r, n) for r, n in sorted(self.unverified.items()))
        return s

    @property
    def ok(self):
        return not self.unverified and self.verified > 0


def derive(secret, desk, g, k, i, user=None):
    """Roll i of customer k in game g under (secret, desk value[, customer value: format 2]):
    six faces, as the bowl draws them."""
    return "".join(str(f) for f in dice.Derived(secret, desk, g, k, user).roll(i, bytearray(6)))


_NO_USER = bytes(dice.USER_BYTES)
TRUSTED = "信任碗和兑奖台 bowl and desk trusted"
NO_CHAIN = "no chain anchor before the customer's turn"
CHAIN = "revealed secret is not the chain's (another anchor or position)"
NOT_PLAYED = "reveal does not hold the shakes played"
OUTAGE = "played without the desk's value although the desk had sent it (a faked outage?)"
SPILL_OFF = "a spill in a game whose spill detection is off"
NO_COMMIT_AWARD = "award of a customer with no commitment (a fair bowl's game)"
UNPAID = "award of the journal the desk does not hold, or the desk's the journal does not pay"
SEED_NOT_USED = "the customer's seed the desk passed on is not the one his dice used"
NO_RULES = "no rules or stock at the desk to replay the awards"
NOT_COMMITTED = "the rules or stock the commit named are not the journal's"
AWARD_RULES = "awards not the ones the game's rules and stock give his rolls"
STOCK_HIDDEN = "stock at a customer's start below what the customer before him left"


def replay_awards(pf, left, shakes):
    """The classes the game's rules (pf) and stock (left) pay for these shakes, in order,
    by the bowl's own award logic (bobing.game.turn_awards) -> (list, None) or (None, why)."""
    try:
        return [c for won in game.turn_awards(pf, left, shakes) for c in won], None
    except ValueError as e:
        return None, str(e)


def _user(t):
    """A desk turn's customer value the dice used (the reveal's), zeros for none."""
    u = t.get("u_seed")
    return bytes.fromhex(u) if u else _NO_USER


def _sent(t):
    u = t.get("u_sent") if t else None
    return bytes.fromhex(u) if u else None


def _turn2(report, who, g, k, anchor, secret, d, user, shakes, unseeded, count_bad, sent=None, pay=None):
    """One format-2 turn's shakes (six digits each, "-" a spill) into report. anchor,
    secret, d: bytes or None; user: the customer's value the dice used (zeros: none);
    sent: the one the desk passed on from his phone, or None. count_bad: how many rolls
    an unverified turn counts. pay: (the game's rules, the stock at his start, the
    classes the desk holds for him in order) to replay his awards (the export alone),
    or None (the journal's own replay checks them: check_game)."""
    rolls = [x for x in shakes if x != "-"]
    n = max(1, len(rolls)) if count_bad is None else count_bad
    a, p = dice.chain_place(k)
    if anchor is None:
        report.bad(NO_CHAIN, n, "%s: no anchor of chain %d before the turn" % (who, a))
        return False
    if secret is None:
        report.bad(UNREVEALED, n, "%s: never revealed" % who)
        return False
    if not dice.chain_holds(secret, p, anchor):
        report.bad(CHAIN, n, "%s: the revealed secret does not lead to chain %d's anchor %s in %d links"
                   % (who, a, anchor.hex()[:16], p))
        return False
    if unseeded:
        if d is None:
            report.bad(UNSEEDED, n, "%s: played without the desk's value" % who)
        else:  # the desk had sent one: the dice that should have been rolled are known
            want = [derive(secret, d, g, k, i, user) for i in range(len(rolls))]
            report.bad(OUTAGE, n, "%s: played without the desk's value, which the desk had sent; with it the "
                       "turn would have rolled %s" % (who, " ".join(want) or "nothing"))
        return False
    if d is None:
        report.bad(NO_DESK, n, "%s: no desk value" % who)
        return False
    if sent is not None and sent != user:
        report.bad(SEED_NOT_USED, n, "%s: the desk passed on his seed %s, the dice used %s" % (
            who, sent.hex(), "none" if user == _NO_USER else user.hex()))
        return False
    if user == _NO_USER:
        report.trusted.append(who)
    i = ok = 0
    for x in shakes:
        want = derive(secret, d, g, k, i, user)
        if x == "-":  # uses up no position: it would have rolled what his next shake rolls
            report.spill("%s: a shake spilled before roll %d" % (who, i + 1), want)
            continue
        i += 1
        if want != x:
            report.bad(MISMATCH_DICE, 1, "%s: roll %d is %s, %s from the reveal" % (who, i, x, want))
            continue
        ok += 1
    report.verified += ok
    if pay is not None and ok == len(rolls):  # (a turn whose dice fail is unverified already)
        n = ok
        pf, left, held = pay
        if not pf or left is None:
            report.verified -= n  # (his dice are the derivation's, but what they paid cannot be shown)
            report.bad(NO_RULES, n, "%s: the desk holds no rules or stock for his turn: his awards %s cannot be "
                       "replayed" % (who, " ".join(held) or "(none)"))
            return False
        want, why = replay_awards(pf, left, shakes)
        if want != held:
            report.verified -= n
            report.bad(AWARD_RULES, n, "%s: the rules %r with the stock %s pay %s, the desk holds %s" % (
                who, pf, left, " ".join(want) if want is not None else "nothing (%s)" % why,
                " ".join(held) or "no award"))
            return False
    return True


class _Starts:
    """journal.scan's `keep`: each customer's stock at his start, as the bowl's table had it."""

    def __init__(self, s):
        self.s = s
        self.at = {}

    def append(self, _ev):
        t = self.s.table
        if self.s.last is not None and self.s.last.kind == game.EV_CUSTOMER:
            self.at[t.customer] = [t.pool[c] for c in t.classes]


def _f2_game(root, g, rows, events, report, desk, bowl, spills=True, played=None):
    """The format-2 customers of one game of a bowl's folder (spills: the game's header
    lets the detector call a spill; played: (the journal's rules as a commit names them,
    {customer: his stock at his start}) to hold the desk's record of his commit to).
    -> their numbers."""
    anchors, values, unseeded, secrets = {}, {}, set(), {}
    for r in rows:
        if r[0] == "A":
            anchors.setdefault(r[1], r[3])
        elif r[0] == "V":
            values.setdefault(r[1], (r[2], r[3] or _NO_USER))
        elif r[0] == "P" and r[1] in values and values[r[1]][1] == _NO_USER:
            values[r[1]] = (values[r[1]][0], r[2])  # the customer's seed, before his first shake
        elif r[0] == "W":
            unseeded.add(r[1])
        elif r[0] == "S":
            secrets.setdefault(r[1], r[2])
    f1 = {r[2] for r in rows if r[0] == "C"}
    shakes = {}
    customer = 0
    for kind, arg in events:
        if kind == game.EV_CUSTOMER:
            customer += 1
        elif kind == game.EV_ROLL or kind == game.EV_SPILL:
            shakes.setdefault(customer, []).append(_dice_text(arg) if kind == game.EV_ROLL else "-")
    mine = set(values) | unseeded | set(secrets) | {k for k in shakes if k not in f1 and anchors}
    at_desk, chains, pfs = {}, {}, {}
    if desk is not None:
        for t in desk.get("turns", []):
            if t["bowl"] == bowl and t["g"] == g:
                at_desk[t["k"]] = t
        for c in desk.get("chains", []):
            if c["bowl"] == bowl and c["g"] == g:
                chains[c["a"]] = bytes.fromhex(c["c"])
                pfs[c["a"]] = c.get("pf")
    for k in sorted(mine):
        who = "game %d customer %d" % (g, k)
        a, _p = dice.chain_place(k)
        anchor = anchors.get(a)
        sh = shakes.get(k, [])
        d, user = values.get(k, (None, _NO_USER))
        t = at_desk.get(k)
        if desk is not None:
            if t is None or a not in chains:
                report.bad(NOT_AT_DESK, max(1, len(sh)), "%s: the desk holds no %s" % (
                    who, "value for this customer" if t is None else "anchor of chain %d" % a))
                continue
            if chains[a] != anchor:
                report.bad(CHAIN, max(1, len(sh)), "%s: the journal's anchor of chain %d is not the desk's" % (who, a))
                continue
            if played is not None and (pfs.get(a) != played[0] or t.get("l") != played[1].get(k)):
                report.bad(NOT_COMMITTED, max(1, len(sh)), "%s: his commit named the rules %r and the stock %s, the "
                           "journal plays %r from %s" % (who, pfs.get(a), t.get("l"), played[0], played[1].get(k)))
                continue
            if d is None or t.get("d") is None:
                pass
            elif t["d"] != d.hex() or _user(t) != user:
                report.bad(MISMATCH_REVEAL, max(1, len(sh)), "%s: the journal's desk value is not the desk's" % who)
                continue
            if t.get("s") and (t.get("r") or []) != sh:
                report.bad(NOT_PLAYED, max(1, len(sh)), "%s: the reveal lists %s, the journal's shakes are %s" % (
                    who, " ".join(t.get("r") or []) or "none", " ".join(sh) or "none"))
                continue
            if d is None and t.get("d"):
                d = bytes.fromhex(t["d"])  # (a turn played without it: the dice it should have rolled)
        if not spills and "-" in sh:
            report.bad(SPILL_OFF, sh.count("-"), "%s: %d spilled shake(s), though the game's spill_detect is off"
                       % (who, sh.count("-")))
        _turn2(report, who, g, k, anchor, secrets.get(k), d, user, sh, k in unseeded, max(1, len(
            [x for x in sh if x != "-"])), _sent(t))
    return mine


def spills_called(pf):
    """Do the game's rules (a commit's pf) let the bowl call a spill? (no preset turns
    spill detection on: a spill in a game without it is a bowl voiding a roll)"""
    try:
        return game.profile_of(pf).options["spill_detect"] != "off"
    except ValueError:
        return True  # (the award replay names rules it cannot read)


def _hidden_stock(pf, before, paid, left):
    """A customer's stock against the one before him: a class can only come down by what
    the customer before was paid (grants only raise it) -> (what he started with, what was
    left) of the first class below that, or None."""
    try:
        classes = [c[0] for c in game.profile_of(pf).prizes["classes"]]
    except ValueError:
        return None  # (the replay names rules it cannot read)
    if len(before) != len(classes) or len(left) != len(classes):
        return None
    for i, cls in enumerate(classes):
        was = before[i] - paid.count(cls)
        if left[i] < was:
            return "%s=%d" % (cls, left[i]), "%s=%d" % (cls, was)
    return None


def _dice_text(d):
    return "".join(str(f) for f in d)


def _commitments(rows):
    """Fair-log rows -> {q: {"k", "ev", "c", "d", "s", "u"}} (the first of each kind counts)."""
    out = {}
    for r in rows:
        if r[0] == "C":
            out.setdefault(r[1], {"k": r[2], "ev": r[3], "c": r[4], "d": None, "s": None, "u": False})
        elif r[0] == "U":
            if r[1] in out:
                out[r[1]]["u"] = True
        elif r[1] in out:
            key = "d" if r[0] == "D" else "s"
            if out[r[1]][key] is None:
                out[r[1]][key] = r[2]
    return out


def check_game(root, g, report, desk=None, bowl=None):
    """One game of a bowl's folder (its journal and fair log) into report. desk: the
    desk's export (dict) to hold the journal against, bowl: the bowl's id there."""
    path = os.path.join(root, "g%08d%s" % (g, journal.SUFFIX))
    events = []
    s = journal.scan(path, g, keep=events)
    if s.problem is not None:
        report.lines.append("game %d: %s (checked up to record %d)" % (g, journal_text.problem(s.problem), s.count))
    rows, problem = fair.read_log(fair.log_path(root, g))
    if problem:
        report.lines.append("game %d: fair log: %s" % (g, problem))
    spills = s.config is None or s.config.make_profile().options.get("spill_detect", "off") != "off"
    played = None
    if desk is not None and s.config is not None:
        st = journal.Scan()
        starts = _Starts(st)
        journal.scan(path, g, keep=starts, into=st)
        played = (fair.rules_text(s.config.profile, s.config.overrides), starts.at)
    two = _f2_game(root, g, rows, events, report, desk, bowl, spills, played)
    cs = _commitments(rows)
    at_desk = {}
    if desk is not None:
        for c in desk.get("commitments", []):
            if c["bowl"] == bowl and c["g"] == g:
                at_desk[c["q"]] = c
        for q, c in sorted(at_desk.items()):
            if q not in cs:
                report.bad(HIDDEN, 1, "game %d: commitment %d (customer %d) is at the desk, not in the journal"
                           % (g, q, c["k"]))
    qs = sorted(cs)
    skipped = set()  # commitments after a gap in the numbers: one before them is hidden
    for n, q in enumerate(qs):
        if q != n + 1 and (n == 0 or qs[n - 1] != q - 1):
            skipped.add(q)
            report.lines.append("game %d: commitment numbers skip to %d: one before it is hidden" % (g, q))
    # verdict per commitment
    state = {}
    for q in qs:
        c = cs[q]
        why = None
        if c["s"] is None:
            why = UNREVEALED
        elif dice.commitment(c["s"]) != c["c"]:
            why = MISMATCH_REVEAL
            report.lines.append("game %d: commitment %d: the revealed secret hashes to %s, not %s" % (
                g, q, dice.commitment(c["s"]).hex()[:16], c["c"].hex()[:16]))
        elif c["u"]:
            why = UNSEEDED
        elif c["d"] is None:
            why = NO_DESK
        d = at_desk.get(q)
        if desk is not None and why is None:
            if d is None:
                why = NOT_AT_DESK
            elif d["c"] != c["c"].hex() or (d.get("d") or "") != c["d"].hex():
                why = MISMATCH_REVEAL
                report.lines.append("game %d: commitment %d: the journal's commitment or desk value is not "
                                    "the desk's" % (g, q))
        state[q] = why
    # the rolls, in journal order
    customer = 0
    under = {}  # q -> rolls seen under it
    retried = set()  # customers with a commitment never revealed
    first_after = set()
    order = sorted(qs, key=lambda q: cs[q]["ev"])
    for idx, (kind, arg) in enumerate(events):
        if kind == game.EV_CUSTOMER:
            customer += 1
            continue
        if kind != game.EV_ROLL and kind != game.EV_SPILL or customer in two:
            continue
        q = None
        for cq in order:
            if cs[cq]["ev"] <= idx:
                q = cq
        if kind == game.EV_SPILL:  # a spill uses up its shake's position: what it would have rolled is public
            if not spills:
                report.bad(SPILL_OFF, 1, "game %d event %d: customer %d's shake spilled, though the game's "
                           "spill_detect is off" % (g, idx + 1, customer))
            if q is not None and cs[q]["k"] == customer:
                i = under.get(q, 0)
                under[q] = i + 1
                if state[q] is None:
                    report.spill("game %d event %d: customer %d's shake %d spilled" % (g, idx + 1, customer, i + 1),
                                 derive(cs[q]["s"], cs[q]["d"], g, customer, i))
            continue
        text = _dice_text(arg)
        if q is None:
            report.bad(NO_COMMIT, 1, "game %d event %d: roll %s of customer %d before any commitment"
                       % (g, idx + 1, text, customer))
            continue
        c = cs[q]
        i = under.get(q, 0)
        under[q] = i + 1
        if c["k"] != customer:
            report.bad(WRONG_CUSTOMER, 1, "game %d event %d: roll %s of customer %d under commitment %d of "
                       "customer %d" % (g, idx + 1, text, customer, q, c["k"]))
            continue
        # the retry rule: every roll under a commitment that follows another of the same
        # customer (revealed or not, with rolls or none) could have been chosen between desk values
        prev = [p for p in order if p < q and cs[p]["k"] == customer]
        if prev:
            report.bad(AFTER_RETRY, 1, "game %d event %d: roll %s of customer %d under commitment %d, after his "
                       "commitment %d" % (g, idx + 1, text, customer, q, prev[-1]))
            continue
        if q in skipped and q not in first_after:
            first_after.add(q)
            report.bad(HIDDEN, 1, "game %d event %d: roll %s of customer %d: the commitment before %d is "
                       "missing from the journal" % (g, idx + 1, text, customer, q))
            continue
        why = state[q]
        if why is not None:
            report.bad(why, 1)
            if why == UNREVEALED:
                retried.add(customer)
            continue
        want = derive(c["s"], c["d"], g, c["k"], i)
        if want != text:
            report.bad(MISMATCH_DICE, 1, "game %d event %d: roll %d of customer %d is %s in the journal, "
                       "%s from the reveal" % (g, idx + 1, i + 1, customer, text, want))
            continue
        report.verified += 1
    if desk is not None:  # the awards the journal pays are the awards the desk received
        from bobing import outbox
        _s, _t, won = outbox.replay(path, g)
        mine = {(n, cls, k) for n, cls, k in won}
        theirs = {(a["n"], a["c"], a["k"]) for a in desk.get("awards", []) if a["bowl"] == bowl and a["g"] == g}
        for n, cls, k in sorted(theirs - mine):
            report.bad(UNPAID if k in two else AWARDS, 1, "game %d: award %d (%s, customer %d) at the desk is not "
                       "the journal's" % (g, n, cls, k))
        revealed = {t["k"] for t in desk.get("turns", []) if t["bowl"] == bowl and t["g"] == g and t.get("s")}
        turns = {c["k"] for c in at_desk.values()} | two
        for n, cls, k in sorted(mine - theirs):
            if k in two and k in revealed:  # his turn is over at the desk: every award of it was sent before
                report.bad(UNPAID, 1, "game %d: award %d (%s, customer %d) of the journal is not at the desk" % (
                    g, n, cls, k))
            elif k in turns:  # (the export lists the awards of customers with a commitment)
                report.lines.append("game %d: award %d (%s, customer %d) not at the desk (yet)" % (g, n, cls, k))
    for q in qs:
        if state[q] == UNREVEALED and not under.get(q):
            report.lines.append("game %d: commitment %d of customer %d never revealed, no roll under it" % (
                g, q, cs[q]["k"]))
    return report


# Each reason in Chinese, for the pages a customer reads (Chinese first, English beside).
REASON_ZH = {
    NO_COMMIT: "摇骰之前没有承诺",
    NO_DESK: "承诺没有兑奖台随机数",
    UNSEEDED: "没有兑奖台随机数就摇了（没按时到：碗自己的骰子）",
    UNREVEALED: "承诺从未公开",
    MISMATCH_REVEAL: "公开的秘密与承诺不符",
    MISMATCH_DICE: "骰子与公开的秘密不符",
    AFTER_RETRY: "同一顾客第二次承诺下的摇骰（重来？）",
    HIDDEN: "日志里少了一个承诺（藏起来的重来？）",
    LATE: "承诺记录在这位顾客的奖之后",
    WRONG_CUSTOMER: "摇骰属于另一位顾客的承诺",
    NOT_AT_DESK: "兑奖台没有记录这个承诺",
    AWARDS: "奖品不能由公开的摇骰说明",
    NO_CHAIN: "顾客摇之前没有链锚点",
    CHAIN: "公开的秘密不在链上（别的锚点或位置）",
    NOT_PLAYED: "公开的摇骰不是实际摇的",
    OUTAGE: "兑奖台已发出随机数却说没收到（假装断网？）",
    SPILL_OFF: "这一局不检测出界，却有出界",
    NO_COMMIT_AWARD: "公平碗这一局里没有承诺的顾客得了奖",
    UNPAID: "碗日志的奖与兑奖台的奖不一致",
    SEED_NOT_USED: "兑奖台转交的顾客种子不是骰子所用的",
    NO_RULES: "兑奖台没有规则和库存，奖品无法重算",
    AWARD_RULES: "奖品不是这一局的规则和库存给这些摇骰的",
    STOCK_HIDDEN: "顾客开始时的库存少于上一位顾客留下的",
    NOT_COMMITTED: "承诺里写的规则或库存与碗的日志不符",
}


def reasons_text(unverified, lang=None):
    """A Report's reasons for a page: "中文 English: n" each (Chinese first, English beside),
    or in one language ("zh", "en") for a page that says each line in both."""
    return "; ".join("%s: %d" % ((REASON_ZH[r] if lang == "zh" else r if lang == "en" else
                                  REASON_ZH[r] + " " + r), n) for r, n in sorted(unverified.items()))


LOG_TAG = "bobing-log-v1|"
LOG_BROKEN = "the desk's log is broken (an entry changed or deleted)"
LOG_MISSING = "not in the desk's log as the export shows it"
RECEIPT = "a saved receipt is not in this export's log"
REASON_ZH.update({LOG_BROKEN: "兑奖台的日志断了（有一条被改或被删）",
                  LOG_MISSING: "兑奖台日志里没有公开数据所示的这一条", RECEIPT: "保存的收据不在这份公开数据的日志里"})


def log_body(d):
    """A log entry's body: canonical JSON (sorted keys, no spaces)."""
    import json
    return json.dumps(d, sort_keys=True, separators=(",", ":"))


def log_head(prev, body):
    """The head after an entry: SHA-256("bobing-log-v1|" + previous head + "|" + body), hex;
    the first entry's previous head is 64 zeros."""
    return hashlib.sha256((LOG_TAG + prev + "|" + body).encode()).hexdigest()


def check_log(desk, report, receipts=()):
    """The desk's hash-chained log (export "log") into report: every head follows from the
    one before and its body, the entries are numbered without a gap, each format-2 turn
    and chain of the export is what the log recorded, and each saved receipt
    ({"n", "head"}) is still there."""
    log = desk.get("log")
    if log is None:  # (an older desk's export, or one cut out of a page: no history to hold it to)
        for rc in receipts:
            report.bad(RECEIPT, 1, "receipt of log entry %s: this export holds no log" % rc.get("n"))
        return report
    prev, heads, want = "0" * 64, {}, 1
    for e in sorted(log, key=lambda e: e["n"]):
        if e["n"] != want:
            report.bad(LOG_BROKEN, 1, "desk log: entries %d..%d are missing (deleted)" % (want, e["n"] - 1))
        want = e["n"] + 1
        h = log_head(prev, e["body"])
        if h != e["head"]:
            report.bad(LOG_BROKEN, 1, "desk log: entry %d's head does not follow from the one before and its body "
                       "(it or an entry before it was changed)" % e["n"])
        heads[e["n"]] = e["head"]
        prev = e["head"]
    import json
    seen = {}
    for e in log:
        try:
            b = json.loads(e["body"])
        except ValueError:
            report.bad(LOG_BROKEN, 1, "desk log: entry %d's body is not JSON" % e["n"])
            continue
        if not isinstance(b, dict):
            report.bad(LOG_BROKEN, 1, "desk log: entry %d's body is not a JSON object" % e["n"])
            continue
        seen.setdefault((e["kind"], b.get("bowl"), b.get("g"), b.get("k", b.get("a"))), b)
    for c in desk.get("chains", []):
        b = seen.get(("chain", c["bowl"], c["g"], c["a"]))
        if b is None or b.get("c") != c["c"] or b.get("pf") != c.get("pf"):
            report.bad(LOG_MISSING, 1, "bowl %s game %d: chain %d's anchor %s" % (c["bowl"], c["g"], c["a"], (
                "is not in the log" if b is None else "differs from the log's")))
    for t in desk.get("turns", []):
        key = (t["bowl"], t["g"], t["k"])
        v = seen.get(("value",) + key)
        if v is None or v.get("d") != t.get("d") or v.get("l") != t.get("l"):
            report.bad(LOG_MISSING, 1, "bowl %s game %d customer %d: the desk's value %s" % (key + (
                "is not in the log" if v is None else "differs from the log's",)))
        r = seen.get(("reveal",) + key)
        if t.get("s") and (r is None or r.get("s") != t["s"] or r.get("r") != t.get("r")):
            report.bad(LOG_MISSING, 1, "bowl %s game %d customer %d: the reveal %s" % (key + (
                "is not in the log" if r is None else "differs from the log's",)))
        u = seen.get(("seed",) + key)
        if t.get("u_sent") and (u is None or u.get("u") != t["u_sent"]):
            report.bad(LOG_MISSING, 1, "bowl %s game %d customer %d: his seed is not the log's" % key)
    for rc in receipts:
        if heads.get(rc.get("n")) != rc.get("head"):
            report.bad(RECEIPT, 1, "receipt of log entry %s (head %s...): %s" % (
                rc.get("n"), str(rc.get("head"))[:16], "gone from the log" if rc.get("n") not in heads else
                "the log holds another head there (it was rewritten)"))
    return report


def fair_games(root):
    """Ids of the games in a bowl's folder that have a fair log."""
    out = []
    for name in sorted(os.listdir(root)):
        if name.endswith(fair.LOG) and journal.id_of(name):
            out.append(journal.id_of(name))
    return out


def when(iso):
    """A time of the desk's export (ISO 8601) -> datetime; ValueError if it is not one."""
    from datetime import datetime
    return datetime.fromisoformat(iso)


def check_export(desk, report, bowl=None, game_no=None):
    """The desk's public export (dict: "commitments", "awards") into report: each
    revealed turn's rolls recomputed, its reveal against its commitment, its
    commitment's time against the customer's awards."""
    by_turn = {}
    for c in desk.get("commitments", []):
        if (bowl is None or c["bowl"] == bowl) and (game_no is None or c["g"] == game_no):
            by_turn.setdefault((c["bowl"], c["g"], c["k"]), []).append(c)
    awards = {}
    for a in desk.get("awards", []):
        awards.setdefault((a["bowl"], a["g"], a["k"]), []).append(a)
    chains = {}
    for c in desk.get("chains", []):
        chains.setdefault((c["bowl"], c["g"], c["a"]), c)
    before = None  # the turn before in the same game: (bowl, g, k, its stock, the classes it was paid)
    for t in sorted(desk.get("turns", []), key=lambda t: (t["bowl"], t["g"], t["k"])):
        b, g, k = t["bowl"], t["g"], t["k"]
        if (bowl is not None and b != bowl) or (game_no is not None and g != game_no):
            continue
        c = chains.get((b, g, dice.chain_place(k)[0]))
        who = "bowl %s game %d customer %d" % (b, g, k)
        shakes = t.get("r") or []
        held = [a["c"] for a in sorted(awards.get((b, g, k), []), key=lambda a: a["n"])]
        stock = t.get("l")
        paid = held  # what took his stock: what the rules pay his rolls (else what the desk holds)
        if stock is not None and c and c.get("pf"):
            paid = replay_awards(c["pf"], stock, shakes)[0] or held
        last, before = before, (b, g, k, stock, paid)
        if c is not None and when(c["seen"]) > when(t["seen"]):
            report.bad(NO_CHAIN, max(1, len(shakes)), "%s: chain anchor recorded after the turn's value" % who)
            continue
        if last and last[:3] == (b, g, k - 1) and stock is not None and last[3] is not None and c and c.get("pf"):
            low = _hidden_stock(c["pf"], last[3], last[4], stock)
            if low:
                report.bad(STOCK_HIDDEN, max(1, len([x for x in shakes if x != "-"])), "%s: he started with %s, "
                           "though customer %d left %s" % (who, low[0], k - 1, low[1]))
                continue
        if "-" in shakes and c and c.get("pf") and not spills_called(c["pf"]):
            report.bad(SPILL_OFF, shakes.count("-"), "%s: %d spilled shake(s), though the rules %r detect none" % (
                who, shakes.count("-"), c["pf"]))
        _turn2(report, who, g, k, bytes.fromhex(c["c"]) if c else None,
               bytes.fromhex(t["s"]) if t.get("s") else None, bytes.fromhex(t["d"]) if t.get("d") else None,
               _user(t), shakes, bool(t.get("unseeded")), None, _sent(t),
               pay=(c.get("pf") if c else None, stock, held))
    fair_games = {(c["bowl"], c["g"]) for c in desk.get("chains", [])}
    have = {(t["bowl"], t["g"], t["k"]) for t in desk.get("turns", [])}
    for a in desk.get("awards", []):
        key = (a["bowl"], a["g"], a["k"])
        if (bowl is None or a["bowl"] == bowl) and (game_no is None or a["g"] == game_no) and \
                key[:2] in fair_games and key not in have:
            report.bad(NO_COMMIT_AWARD, 1, "bowl %s game %d: award %d (%s) of customer %d, who has no commitment"
                       % (a["bowl"], a["g"], a["n"], a["c"], a["k"]))
    for key in sorted(by_turn):
        b, g, k = key
        cs = sorted(by_turn[key], key=lambda c: c["q"])
        first = min(when(c["seen"]) for c in cs)
        early = [a for a in awards.get(key, []) if when(a["seen"]) < first]
        for c in cs:
            who = "bowl %s game %d customer %d commitment %d" % (b, g, k, c["q"])
            r = c.get("r") or []
            if not c.get("s"):
                report.bad(UNREVEALED, max(1, len(r)), "%s: never revealed" % who)
                continue
            s = bytes.fromhex(c["s"])
            if hashlib.sha256(dice.COMMIT_TAG + s).hexdigest() != c["c"]:
                report.bad(MISMATCH_REVEAL, max(1, len(r)), "%s: the revealed secret does not hash to the commitment"
                           % who)
                continue
            if c.get("u"):
                if c.get("d"):  # the desk had sent its value: the dice the turn should have rolled
                    d = bytes.fromhex(c["d"])
                    report.bad(OUTAGE, max(1, len(r)), "%s: played without the desk's value, which the desk had "
                               "sent; with it the turn would have rolled %s" % (who, " ".join(
                                   derive(s, d, g, k, i) for i in range(len(r))) or "nothing"))
                else:
                    report.bad(UNSEEDED, max(1, len(r)), "%s: the desk's value did not come in time" % who)
                continue
            if not c.get("d"):
                report.bad(NO_DESK, max(1, len(r)), "%s: no desk value" % who)
                continue
            if early:
                report.bad(LATE, max(1, len(r)), "%s: recorded at %s, after award %d-%d seen at %s" % (
                    who, c["seen"], early[0]["g"], early[0]["n"], early[0]["seen"]))
                continue
            d = bytes.fromhex(c["d"])
            report.trusted.append(who)  # (format 1 has no customer seed)
            for i, text in enumerate(r):
                if text == "-":
                    report.spill("%s: shake %d spilled" % (who, i + 1), derive(s, d, g, k, i))
                    continue
                if c is not cs[0]:  # a second commitment: the bowl could choose between desk values
                    report.bad(AFTER_RETRY, 1, "%s: roll %d under his commitment %d, after commitment %d" % (
                        who, i + 1, c["q"], cs[0]["q"]))
                    continue
                want = derive(s, d, g, k, i)
                if want != text:
                    report.bad(MISMATCH_DICE, 1, "%s: roll %d is %s, %s from the reveal" % (who, i + 1, text, want))
                    continue
                report.verified += 1
    # The awards are not counted against the rolls here: what a roll pays depends on the
    # game's rules and on the stock left by every turn before it (a 插金花 sweeps the 对堂s
    # left), which only the bowl's journal holds: check_game replays it award by award.
    return report
