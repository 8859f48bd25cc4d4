"""Checks of verifiable fairness (firmware/PROTOCOL.md "Verifiable fairness"):
every roll of a fair event kiosk recomputed from the revealed secret, the
desk's value and the roll's position, with the firmware's own derivation
(bobing.dice.Derived, bobing.fair's log and message formats): the host keeps no
second copy of the rule. Used by `python -m host_sim verify-fair` and by the
desk's public page.

A roll is verified only when its commitment was recorded before it, the
reveal hashes to the commitment, and the dice equal the derivation. Anything
else is counted as unverified with its reason; nothing is dropped."""
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
AFTER_RETRY = "first roll after a commitment never revealed (a retry?)"
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

    def spill(self, what, dice_text):
        v = _RULES.evaluate([int(x) for x in dice_text])
        self.spills.append((what, dice_text, rules.RANK_IDS[rules.rank_of(v)]))

    def spill_lines(self):
        """The spilled shakes and what they would have rolled: a bowl that voids good rolls
        as spills shows here (their ranks should look like any rolls')."""
        return ["%s: it would have rolled %s (%s)" % s for s in self.spills]

    def bad(self, reason, n=1, line=None):
        self.unverified[reason] = self.unverified.get(reason, 0) + n
        if line:
            self.lines.append(line)

    @property
    def unverified_n(self):
        return sum(self.unverified.values())

    def summary(self):
        s = "fair: %d rolls verified, %d unverified" % (self.verified, self.unverified_n)
        if self.unverified:
            s += " (%s)" % "; ".join("%s: %d" % (r, n) for r, n in sorted(self.unverified.items()))
        return s

    @property
    def ok(self):
        return not self.unverified and self.verified > 0


def derive(secret, desk, g, k, i):
    """Roll i of customer k in game g under (secret, desk value): six faces, as the bowl draws them."""
    return "".join(str(f) for f in dice.Derived(secret, desk, g, k).roll(i, bytearray(6)))


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
        if kind != game.EV_ROLL and kind != game.EV_SPILL:
            continue
        q = None
        for cq in order:
            if cs[cq]["ev"] <= idx:
                q = cq
        if kind == game.EV_SPILL:  # a spill uses up its shake's position: what it would have rolled is public
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
        # the retry rule: the first roll under a commitment that follows an unrevealed one
        # of the same customer could have been chosen between two desk values
        prev = [p for p in order if p < q and cs[p]["k"] == customer and state[p] == UNREVEALED]
        if prev and q not in first_after:  # its first roll
            first_after.add(q)
            report.bad(AFTER_RETRY, 1, "game %d event %d: roll %s of customer %d: commitment %d was never "
                       "revealed before commitment %d" % (g, idx + 1, text, customer, prev[-1], q))
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
            report.bad(AWARDS, 1, "game %d: award %d (%s, customer %d) at the desk is not the journal's" % (
                g, n, cls, k))
        turns = {c["k"] for c in at_desk.values()}
        for n, cls, k in sorted(mine - theirs):
            if k in turns:  # (the export lists the awards of customers with a commitment)
                report.lines.append("game %d: award %d (%s, customer %d) not at the desk (yet)" % (g, n, cls, k))
    for q in qs:
        if state[q] == UNREVEALED and not under.get(q):
            report.lines.append("game %d: commitment %d of customer %d never revealed, no roll under it" % (
                g, q, cs[q]["k"]))
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
    for key in sorted(by_turn):
        b, g, k = key
        cs = sorted(by_turn[key], key=lambda c: c["q"])
        first = min(when(c["seen"]) for c in cs)
        early = [a for a in awards.get(key, []) if when(a["seen"]) < first]
        prize_rolls = 0
        unrevealed = False
        before = report.unverified_n
        for c in cs:
            who = "bowl %s game %d customer %d commitment %d" % (b, g, k, c["q"])
            r = c.get("r") or []
            if not c.get("s"):
                unrevealed = True
                report.bad(UNREVEALED, max(1, len(r)), "%s: never revealed" % who)
                continue
            s = bytes.fromhex(c["s"])
            if hashlib.sha256(dice.COMMIT_TAG + s).hexdigest() != c["c"]:
                report.bad(MISMATCH_REVEAL, max(1, len(r)), "%s: the revealed secret does not hash to the commitment"
                           % who)
                continue
            if c.get("u"):
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
            for i, text in enumerate(r):
                if text == "-":
                    report.spill("%s: shake %d spilled" % (who, i + 1), derive(s, d, g, k, i))
                    continue
                if unrevealed:  # its first roll
                    unrevealed = False
                    report.bad(AFTER_RETRY, 1, "%s: roll 1 follows a commitment never revealed" % who)
                    continue
                want = derive(s, d, g, k, i)
                if want != text:
                    report.bad(MISMATCH_DICE, 1, "%s: roll %d is %s, %s from the reveal" % (who, i + 1, text, want))
                    continue
                report.verified += 1
                v = _RULES.evaluate([int(x) for x in text])
                if rules.rank_of(v) != rules.NONE:
                    prize_rolls += 1 + (rules.bonus_of(v) != 0)  # a combined award pays twice
        n_awards = len(awards.get(key, []))
        if n_awards > prize_rolls and report.unverified_n == before:  # (only a turn otherwise verified)
            report.bad(AWARDS, n_awards - prize_rolls, "bowl %s game %d customer %d: %d awards, %d prize rolls"
                       % (b, g, k, n_awards, prize_rolls))
    return report
