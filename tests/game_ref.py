# An independent reading of RULES.md §4-7 (how prizes are paid, whose turn it
# is, when the game ends), written from the text and NOT from
# firmware/bobing/game.py, to check the engine against. Plain and slow on
# purpose: prizes are lists of units per seat, the seating order is a list,
# the 状元 holder is recomputed from the list of every 状元 roll.
# Runs on CPython and on the MicroPython unix port (tests/test_game_mp.py).
from bobing import rules

ZY_RANKS = ("sihong", "wuzi", "wuhong", "heiliubo", "biandijin", "liubohong", "chajinhua")


def tier_id(rank):
    return "zhuangyuan" if rank in ZY_RANKS else rank


class Ref:
    def __init__(self, options, spec, seats, counts=None):
        self.o = options
        self.R = rules.Rules(_FakeProfile(options))
        self.kiosk = options["mode"] == "kiosk"
        self.n = 1 if self.kiosk else seats
        self.names = [c[0] for c in spec["classes"]]
        self.pays = {}
        self.pool = {}
        for c in spec["classes"]:
            self.pool[c[0]] = c[2]
            for r in c[3].split():
                self.pays[r] = c[0]
        if counts:
            for k in counts:
                self.pool[k] = counts[k]
        self.initial = dict(self.pool)
        self.prov = None if self.kiosk else spec["provisional"]
        self.sweep = spec["sweep"]
        self.held = {}  # seat -> list of [class, locked]
        for s in range(1, self.n + 1):
            self.held[s] = []
        self.grabbed = {}
        for c in self.names:
            self.grabbed[c] = 0
        self.zy_rolls = []  # every 状元 roll: (seat, key, seq, dice, rank)
        self.forced = None  # holder fixed by the end of the game (take_all / grab)
        self.d = 1 if options["direction"] == "clockwise" else -1
        self.started = False
        self.ended = False
        self.reason = None
        self.seq = 0
        self.order = []
        self.idx = 0
        self.round = 0
        self.sitout = []
        self.last_round = None
        self.pending = None
        self.out = False
        self.shakes = 0
        self.customers = 0

    # ---- views -------------------------------------------------------------
    def awards(self, seat):
        a = {}
        for c in self.names:
            a[c] = 0
        for unit in self.held[seat]:
            a[unit[0]] += 1
        return a

    def holder(self):
        if not self.prov:  # every class first come: nobody holds a provisional 状元
            return 0, None
        if self.forced is not None:
            return self.forced
        standing = {}
        for seat, key, seq, dice, rank in self.zy_rolls:
            standing[seat] = (key, seq, dice, rank)  # the latest one stands
        best = 0
        for seat in standing:
            if best == 0:
                best = seat
                continue
            k, q = standing[seat][0], standing[seat][1]
            bk, bq = standing[best][0], standing[best][1]
            if k > bk or (k == bk and q < bq):
                best = seat
        if not best:
            return 0, None
        return best, standing[best]

    def turn(self):
        if not self.started or self.ended:
            return 0
        if self.kiosk:
            return 1 if self.shakes else 0
        return self.order[self.idx]

    # ---- events ------------------------------------------------------------
    def start(self, first):
        self.started = True
        self.round = 1
        self.order = [(first - 1 + k * self.d) % self.n + 1 for k in range(self.n)]
        self.idx = 0
        self.check_out()
        return {"seat": first, "won": [], "skipped": [], "ended": False, "reason": None, "to": 0}

    def start_total(self, total):
        seat = 1
        for _ in range(total - 1):  # seat 1 counts himself as the first
            seat = (seat - 1 + self.d) % self.n + 1
        return self.start(seat)

    def roll(self, dice):
        self.seq += 1
        seat = self.turn()
        res = {"seat": seat, "won": [], "skipped": [], "ended": False, "reason": None, "to": 0}
        v = self.R.evaluate(dice)
        rank = rules.RANK_IDS[rules.rank_of(v)]
        bonus = rules.RANK_IDS[rules.bonus_of(v)]
        if rank in ZY_RANKS and self.prov:
            self.zy_rolls.append((seat, rules.key_of(v), self.seq, tuple(dice), rules.rank_of(v)))
        if rank == "liubohong" and self.o["liuhong_effect"] == "take_all":
            for c in self.names:
                while self.pool[c] > 0:
                    self.pool[c] -= 1
                    self.held[seat].append([c, False])
                    res["won"].append((c, 0))
            if self.prov:
                self.forced = (seat, (rules.key_of(v), self.seq, tuple(dice), rules.rank_of(v)))
            self.end(res, "liubohong")
            return res
        if rank in ("heiliubo", "biandijin") and self.o["heiliubo_effect"] == "grab":
            for c in self.names:
                self.grabbed[c] += self.pool[c]
                self.pool[c] = 0
            self.forced = (0, None)
            self.end(res, "heiliubo_grab")
            return res
        c = self.pays.get(rank)
        if c is not None and c != self.prov:
            self.give(seat, c, rank, res)
        if self.sweep and rank in ("chajinhua", "liubohong"):
            while self.pool[self.sweep] > 0:
                self.pool[self.sweep] -= 1
                self.held[seat].append([self.sweep, True])
                res["won"].append((self.sweep, 0))
        if bonus != "none":
            c = self.pays.get(bonus)
            if c is not None and c != self.prov:
                self.give(seat, c, bonus, res)
        if self.kiosk:
            self.shakes -= 1
            self.kiosk_after(res)
        else:
            self.check_out()
            self.next_turn(res)
        return res

    def give(self, seat, c, rank, res):
        if self.pool[c] > 0:
            self.pool[c] -= 1
            self.held[seat].append([c, False])
            res["won"].append((c, 0))
            return
        how = self.o["when_exhausted"]
        if how == "chase":
            if tier_id(rank) not in self.o["chase_tiers"].split("+"):
                return
            for k in range(1, self.n):
                other = (seat - 1 - k * self.d) % self.n + 1
                for unit in self.held[other]:
                    if unit[0] == c and not unit[1]:
                        self.held[other].remove(unit)
                        self.held[seat].append([c, False])
                        res["won"].append((c, other))
                        return
        elif how in ("lower_tier", "down_then_up"):
            i = self.names.index(c)
            lower = self.names[i + 1:]
            higher = self.names[:i]
            higher.reverse()
            tries = lower + higher if how == "down_then_up" else lower
            for j in tries:
                if j != self.prov and self.pool[j] > 0:
                    self.pool[j] -= 1
                    self.held[seat].append([j, False])
                    res["won"].append((j, 0))
                    return

    def spill(self):
        self.seq += 1
        seat = self.turn()
        res = {"seat": seat, "won": [], "skipped": [], "ended": False, "reason": None, "to": 0}
        if self.kiosk:
            self.shakes -= 1
            if self.o["spill_penalty"] == "skip_next" and self.shakes:
                self.shakes -= 1
                res["skipped"].append(1)
            self.kiosk_after(res)
            return res
        if self.o["spill_penalty"] == "skip_next":
            self.sitout.append(seat)
        self.next_turn(res)
        return res

    def timeup(self):
        self.seq += 1
        res = {"seat": self.turn(), "won": [], "skipped": [], "ended": False, "reason": None, "to": 0}
        if self.kiosk:
            if self.shakes:
                self.pending = "time_up"
            else:
                self.end(res, "time_up")
        elif self.last_round is None:
            if self.idx == 0:
                self.end(res, "time_up")
            else:
                self.last_round = self.round
                self.pending = "time_up"
        return res

    def customer(self):
        self.seq += 1
        self.started = True
        self.customers += 1
        self.shakes = self.o["kiosk_shakes"]
        res = {"seat": 1, "won": [], "skipped": [], "ended": False, "reason": None, "to": 0}
        self.kiosk_after(res)
        return res

    # ---- turns and the end ----------------------------------------------------
    def kiosk_after(self, res):
        if sum([self.pool[c] for c in self.names]) == 0:
            self.end(res, "stock_out")
        elif self.shakes == 0 and self.pending:
            self.end(res, self.pending)

    def check_out(self):
        firsts = [c for c in self.names if c != self.prov]
        if sum([self.pool[c] for c in firsts]) == 0:
            self.out = True
        if self.out and self.last_round is None and (self.prov is None or self.holder()[0]):
            self.last_round = self.round
            self.pending = "prizes_out"

    def next_turn(self, res):
        while True:
            self.idx += 1
            if self.idx == self.n:
                if self.last_round == self.round:
                    self.end(res, self.pending)
                    return
                self.round += 1
                self.idx = 0
            seat = self.order[self.idx]
            if seat in self.sitout:
                self.sitout.remove(seat)
                res["skipped"].append(seat)
                continue
            return

    def end(self, res, reason):
        self.ended = True
        self.reason = reason
        self.shakes = 0
        h = self.holder()[0]
        if self.prov and h and self.pool[self.prov] > 0:
            self.pool[self.prov] -= 1
            self.held[h].append([self.prov, False])
            res["to"] = h
        res["ended"] = True
        res["reason"] = reason


class _FakeProfile:
    """rules.Rules reads only .options."""

    def __init__(self, options):
        self.options = options
