# The Bo Bing table as a state machine (RULES.md §4-7): events in, outcomes out.
# Pure logic: no hardware, no clock (time up arrives as an event), runs
# unchanged on MicroPython and CPython. The contract other modules code
# against (events, Outcome, the invariants) is in firmware/README.md; in short:
#
#     t = Table(profile, seats)          # profile: profiles.Profile or preset name
#     out = t.apply(EV_ROLL, dice)       # -> Outcome; ValueError for a bad event
#
# Prize classes come from the profile's prize spec (profiles.prize_spec): a rank
# pays the class that lists it. Tiers 1-5 are first come, first served; an
# exhausted class pays by option when_exhausted. The provisional 状元 class
# (standard spec) is handed to the holder only when the game ends; the holder
# is recomputed from every seat's latest 状元 roll, earlier roll first on ties.
# Specs without a provisional class pay the 状元 first come too, and then no
# seat is "holder" (t.holder stays 0): the awards say who has the 状元 prize.
#
# Kiosk mode (option mode=kiosk): one customer at a time (EV_CUSTOMER starts
# his kiosk_shakes shakes), every class paid at once from stock, each prize
# with a claim code (bobing/claim.py); the game ends when the stock runs out.
# An EVENT kiosk (Table(..., event=True); firmware/PROTOCOL.md "Shared stock")
# gets its stock only from the prize desk's grants: the pool starts at what the
# bowl's previous event game left, EV_GRANT raises one class to the desk's
# cumulative grant (the pool grows by the difference, never shrinks), EV_STOCK
# records the grant's sequence number s once all its classes are in. Stock out
# does not end an event game: no customer starts until a grant comes.
# Final: the 状元王中王 between table champions (RULES.md §7) is bobing/final.py's
# Final.
from micropython import const

from bobing import profiles, rules

EV_START_SEAT = const(1)  # arg: first seat 1..N
EV_START_TOTAL = const(2)  # arg: seat 1's two-dice total 2..12 (RULES.md §5)
EV_ROLL = const(3)  # arg: six dice for the seat whose turn it is
EV_SPILL = const(4)  # arg: None
EV_TIMEUP = const(5)  # arg: None
EV_CUSTOMER = const(6)  # arg: None (the profile's shakes) or n shakes the prize desk granted (kiosk)
EV_STOCK = const(7)  # arg: s, the desk's grant number now applied in full (event kiosk)
EV_GRANT = const(8)  # arg: (class index, cumulative grant of that class) (event kiosk)
EVENT_IDS = ("", "start_seat", "start_total", "roll", "spill", "timeup", "customer", "stock", "grant")
MAX_SEQ = const(0xFFFFFF)  # grant numbers 1..MAX_SEQ (a 24-bit journal record)
MAX_GRANT = const(999999)  # cumulative prizes of one class granted to one bowl

MAX_SEATS = const(12)
_NOCLASS = const(255)
# option when_exhausted, as codes
_W_NOTHING = const(0)
_W_CHASE = const(1)
_W_LOWER = const(2)
_W_DOWNUP = const(3)
_WHEN = ("nothing", "chase", "lower_tier", "down_then_up")

# Why a game ended (t.reason / out.reason)
REASONS = ("prizes_out", "liubohong", "heiliubo_grab", "time_up", "stock_out", "champion")


class Outcome:
    """What one event did. `won` lists (class, from_seat): 0 = from the pool,
    >0 = chased from that seat. `skipped`: seats that sat out (spill penalty)
    before the next turn. `zhuangyuan_to`: the seat handed the provisional 状元
    prize as the game ended (0 = none)."""

    # Defaults live on the class: an instance stores only what its event set
    # (on MicroPython every instance attribute costs heap; see tests/mp/test_game_heap.py).
    dice = None
    rank = 0
    bonus = 0
    holder_before = 0
    holder_after = 0
    ended = False
    reason = None
    zhuangyuan_to = 0
    customer = 0  # kiosk: the customer's number (1, 2, ...)
    round = 0  # round (kiosk: customer) the event belongs to

    def __init__(self, kind, seat):
        self.kind = kind
        self.seat = seat
        self.won = []
        self.skipped = []
        self.claims = []

    def __repr__(self):
        return "Outcome(%s seat=%d dice=%r rank=%s won=%r holder %d->%d skipped=%r ended=%r %s)" % (
            EVENT_IDS[self.kind], self.seat, self.dice, rules.RANK_IDS[self.rank], self.won,
            self.holder_before, self.holder_after, self.skipped, self.ended, self.reason)


def _index(seq, item):
    for i in range(len(seq)):
        if seq[i] == item:
            return i
    return -1


def is_whole(x):
    """A whole number (an int, not a bool: True is not 1 seat)."""
    return isinstance(x, int) and not isinstance(x, bool)


def dice_code(dice):
    """Six dice as one 24-bit number: die i in bits 3i..3i+2 (a journal record's
    roll, a snapshot's standing 状元)."""
    v = 0
    s = 0
    for d in dice:
        v |= d << s
        s += 3
    return v


def dice_of(v):
    """dice_code's number back to the dice; ValueError if a die is not 1..6."""
    dice = []
    for _ in range(6):
        d = v & 7
        if not 1 <= d <= 6:
            raise ValueError("a die reads %d" % d)
        dice.append(d)
        v >>= 3
    return tuple(dice)


def _put_var(b, v):
    while v > 127:
        b.append((v & 127) | 128)
        v >>= 7
    b.append(v)


class _Reader:
    def __init__(self, b, at, end):
        self.b = b
        self.at = at
        self.end = end

    def num(self, top):
        """The next number, which must be 0..top."""
        v = 0
        s = 0
        while True:
            if self.at >= self.end or s > 28:
                raise ValueError("the state is cut short")
            x = self.b[self.at]
            self.at += 1
            v |= (x & 127) << s
            s += 7
            if x < 128:
                break
        if v > top:
            raise ValueError("a value %d where at most %d fits" % (v, top))
        return v


def snapshot_events(b, at, end, top):
    """The events a snapshot in b[at:end] says it is after (its first number,
    0..top); ValueError when there is no such number."""
    return _Reader(b, at, end).num(top)


def _reason_code(r):
    return 0 if r is None else REASONS.index(r) + 1


def _reason_of(code):
    return None if code == 0 else REASONS[code - 1]


class Table:
    """One table (or one kiosk) from its start to the last prize handed out.

    Table(profile, seats, counts=None, bowl_id="", secret=None, game_no=0, event=False,
          grant_s=0, granted=None)
      counts: {class: n} overriding the spec's counts (a kiosk's stock).
      event: an event kiosk: the pool is counts (a class not listed: 0), grant_s
        and granted ({class: n}) the desk's grant applied before this game.
      bowl_id, secret, game_no: for kiosk claim codes (bobing/claim.py); game_no
        is the journal's game number, so (bowl, game, award) is unique for the
        bowl's life. Without a secret no codes are made.
    """

    def __init__(self, profile=None, seats=10, counts=None, bowl_id="", secret=None, game_no=0, event=False,
                 grant_s=0, granted=None):
        if profile is None or isinstance(profile, str):
            profile = profiles.Profile(profile or profiles.DEFAULT_PRESET)
        self.profile = profile
        o = profile.options
        self.rules = rules.Rules(profile)
        if not is_whole(seats) or not 1 <= seats <= MAX_SEATS:
            raise ValueError("seats=%r: a table has 1..%d seats" % (seats, MAX_SEATS))
        self.kiosk = o["mode"] == "kiosk"
        # A kiosk serves one customer at a time: everything is paid to "seat" 1.
        self.seats = 1 if self.kiosk else seats

        spec = profile.prizes
        profiles.check_prizes(spec, rules.RANK_IDS)
        spec_classes = spec["classes"]
        self.classes = tuple([c[0] for c in spec_classes])
        self.class_zh = {}
        self.initial = {}
        self._rank_cls = bytearray([_NOCLASS] * len(rules.RANK_IDS))
        for i in range(len(spec_classes)):
            cid, zh, n, ranks = spec_classes[i]
            self.class_zh[cid] = zh
            self.initial[cid] = n
            for r in ranks.split():
                self._rank_cls[rules.rank_code(r)] = i
        if counts:
            for cid in counts:
                n = counts[cid]
                if cid not in self.initial:
                    raise ValueError("prize class %r is not in this profile; classes are: %s"
                                     % (cid, ", ".join(self.classes)))
                if not is_whole(n) or n < 0:
                    raise ValueError("prize count %s=%r: must be a whole number >= 0" % (cid, n))
                self.initial[cid] = n
        self.event = event
        if event:
            self._event_stock(counts, grant_s, granted)
        # Classes by index (highest first); the provisional 状元 class and the
        # class a 插金花 sweeps. A kiosk pays everything at once.
        self._prov = -1 if self.kiosk or spec["provisional"] is None else _index(self.classes, spec["provisional"])
        self._sweep = -1 if spec["sweep"] is None else _index(self.classes, spec["sweep"])
        self.pool = {}
        self.grabbed = {}
        for c in self.classes:
            self.pool[c] = self.initial[c]
            self.grabbed[c] = 0
        self.awards = {}
        for s in range(1, self.seats + 1):
            a = {}
            for c in self.classes:
                a[c] = 0
            self.awards[s] = a
        n1 = self.seats + 1
        self._locked = [0] * n1  # per seat: sweep-class prizes won by a sweep (never chased)

        self._when = _index(_WHEN, o["when_exhausted"])
        self._chase = bytearray(len(rules.TIER_IDS))  # by tier: chased when exhausted?
        for t in o["chase_tiers"].split("+"):
            self._chase[_index(rules.TIER_IDS, t)] = 1
        self._take_all = o["liuhong_effect"] == "take_all"
        self._grab = o["heiliubo_effect"] == "grab"
        self.direction = 1 if o["direction"] == "clockwise" else -1
        self._skip_next = o["spill_penalty"] == "skip_next"
        self.time_limit = o["time_limit"]  # minutes; the caller sends EV_TIMEUP when it runs out
        self.kiosk_shakes = o["kiosk_shakes"]

        # Each seat's standing 状元: its LATEST 状元 roll (order key, event
        # number for earlier-wins ties, dice, rank). Key 0 = none.
        self._zkey = [0] * n1
        self._zseq = [0] * n1
        self._zdice = [None] * n1
        self._zrank = bytearray(n1)
        self.holder = 0
        self.holder_dice = None
        self.holder_rank = 0

        self.started = False
        self.ended = False
        self.reason = None
        self.events = 0
        self.turn = 0
        self.round = 0
        self.first = 0
        self.final_round = 0  # the round after which the game ends (0 = not decided yet)
        self.prizes_out = False  # every first-come class is empty
        self._pos = 0  # seats that have had their turn (played or sat out) in this round
        self._skip = bytearray(n1)  # seats that sit out their next turn
        self._pending = None  # the reason the game will end when final_round is played out

        # kiosk
        self.customer = 0
        self.shakes_left = 0
        self.award_no = 0  # awards so far in this game: the next code's number - 1
        self.bowl_id = bowl_id
        self.game_no = game_no
        self._secret = secret
        if secret is not None and self.kiosk:
            from bobing import claim  # checked now, not at the first award (mid-roll)
            self._secret = claim.check_secret(secret)
            claim.message(bowl_id, game_no, 1, self.classes[0])

    def _event_stock(self, counts, grant_s, granted):
        if not self.kiosk:
            raise ValueError("an event game is a kiosk (mode=kiosk): its stock comes from the prize desk")
        if not is_whole(grant_s) or not 0 <= grant_s <= MAX_SEQ:
            raise ValueError("grant number %r: a whole number 0..%d" % (grant_s, MAX_SEQ))
        self.grant_s = grant_s
        self.granted = {}
        for c in self.classes:
            self.initial[c] = counts.get(c, 0) if counts else 0
            self.granted[c] = 0
        for c in granted or ():
            n = granted[c]
            if c not in self.granted:
                raise ValueError("granted prize class %r is not in this profile; classes are: %s"
                                 % (c, ", ".join(self.classes)))
            if not is_whole(n) or not 0 <= n <= MAX_GRANT:
                raise ValueError("granted %s=%r: a whole number 0..%d" % (c, n, MAX_GRANT))
            self.granted[c] = n
        for c in self.classes:
            if self.initial[c] > self.granted[c]:
                raise ValueError("%s: %d in stock but only %d ever granted" % (c, self.initial[c], self.granted[c]))

    def stock_events(self, s, grant):
        """An allot from the desk (s, ((class, cumulative), ...)) -> the events to
        journal and apply, in order: an EV_GRANT for each class it raises, then
        EV_STOCK s. [] for a repeated or older allot (s <= the applied one).
        ValueError, nothing changed, for a grant this game cannot take."""
        if not self.event:
            raise ValueError("a grant of stock is for an event game (a kiosk provisioned with an event)")
        if not is_whole(s) or not 1 <= s <= MAX_SEQ:
            raise ValueError("grant number %r: a whole number 1..%d" % (s, MAX_SEQ))
        if s <= self.grant_s:
            return []
        evs = []
        for c, n in grant:
            ci = _index(self.classes, c)
            if ci < 0:
                raise ValueError("grant %d: prize class %r is not in this game; classes are: %s"
                                 % (s, c, ", ".join(self.classes)))
            if not is_whole(n) or not 0 <= n <= MAX_GRANT:
                raise ValueError("grant %d: %s=%r: a whole number 0..%d" % (s, c, n, MAX_GRANT))
            if n > self.granted[c]:  # cumulative: never lowers
                evs.append((EV_GRANT, (ci, n)))
        evs.append((EV_STOCK, s))
        return evs

    def left(self):
        """Stock left per class, highest class first: [(class, n), ...]."""
        return [(c, self.pool[c]) for c in self.classes]

    def _need_event(self, what):
        if not self.event:
            raise ValueError("%s is for an event game (a kiosk provisioned with an event)" % what)
        out = Outcome(EV_STOCK, 0)
        out.customer = out.round = self.customer
        return out

    def _grant(self, arg):
        out = self._need_event("EV_GRANT")
        if not isinstance(arg, tuple) or len(arg) != 2:
            raise ValueError("EV_GRANT takes (class index, cumulative), got %r" % (arg,))
        ci, n = arg
        if not is_whole(ci) or not 0 <= ci < len(self.classes):
            raise ValueError("EV_GRANT class index %r: 0..%d" % (ci, len(self.classes) - 1))
        c = self.classes[ci]
        if not is_whole(n) or not self.granted[c] < n <= MAX_GRANT:
            raise ValueError("EV_GRANT %s=%r: above the %d already granted, at most %d"
                             % (c, n, self.granted[c], MAX_GRANT))
        self.pool[c] += n - self.granted[c]
        self.granted[c] = n
        out.kind = EV_GRANT
        return out

    def _stock(self, s):
        out = self._need_event("EV_STOCK")
        if not is_whole(s) or not self.grant_s < s <= MAX_SEQ:
            raise ValueError("EV_STOCK grant number %r: above the %d applied, at most %d" % (s, self.grant_s, MAX_SEQ))
        self.grant_s = s
        return out

    # ---- events -------------------------------------------------------------
    def apply(self, kind, arg=None):
        """Apply one event; return its Outcome. A bad event raises ValueError
        and changes nothing."""
        if self.ended:
            raise ValueError("the game is over (%s): no more events" % self.reason)
        if kind == EV_ROLL:
            out = self._kiosk_roll(arg) if self.kiosk else self._roll(arg)
        elif kind == EV_SPILL:
            out = self._kiosk_spill() if self.kiosk else self._spill()
        elif kind == EV_START_SEAT:
            out = self._start_seat(arg)
        elif kind == EV_START_TOTAL:
            out = self._start_total(arg)
        elif kind == EV_TIMEUP:
            out = self._timeup()
        elif kind == EV_CUSTOMER:
            out = self._customer(arg)
        elif kind == EV_GRANT:
            out = self._grant(arg)
        elif kind == EV_STOCK:
            out = self._stock(arg)
        else:
            raise ValueError("unknown event kind %r: kinds are 1..8 (start_seat, start_total, roll, "
                             "spill, timeup, customer, stock, grant)" % (kind,))
        self.events += 1
        return out

    def start_seat(self, seat):
        return self.apply(EV_START_SEAT, seat)

    def start_total(self, total):
        return self.apply(EV_START_TOTAL, total)

    def roll(self, dice):
        return self.apply(EV_ROLL, dice)

    def spill(self):
        return self.apply(EV_SPILL, None)

    def time_up(self):
        return self.apply(EV_TIMEUP, None)

    def next_customer(self, n=None):
        return self.apply(EV_CUSTOMER, n)

    # ---- queries ------------------------------------------------------------
    def class_of(self, rank):
        """The class id a rank code pays, or None."""
        i = self._rank_cls[rank]
        return None if i == _NOCLASS else self.classes[i]

    def standing(self, seat):
        """(dice, rank code) of the seat's standing 状元, or None."""
        if not self._zkey[seat]:
            return None
        return self._zdice[seat], self._zrank[seat]

    def chaseable(self, seat, cls):
        """How many of seat's `cls` prizes a chase may take (not the swept ones)."""
        n = self.awards[seat][cls]
        if self._sweep >= 0 and cls == self.classes[self._sweep]:
            n -= self._locked[seat]
        return n

    @property
    def provisional(self):
        """Class id of the provisional 状元 prize, or None."""
        return None if self._prov < 0 else self.classes[self._prov]

    # ---- table: start and turns -----------------------------------------------
    def _not_kiosk(self, what):
        if self.kiosk:
            raise ValueError("%s is for a table; a kiosk (mode=kiosk) starts each customer with EV_CUSTOMER" % what)

    def _need_turn(self):
        if not self.started:
            raise ValueError("the game has not started: give the first seat (EV_START_SEAT) or "
                             "seat 1's two-dice total (EV_START_TOTAL) first")

    def _start_seat(self, seat):
        self._not_kiosk("a start")
        if self.started:
            raise ValueError("the game has already started (seat %d rolled first)" % self.first)
        if not is_whole(seat) or not 1 <= seat <= self.seats:
            raise ValueError("first seat %r: must be a seat 1..%d" % (seat, self.seats))
        return self._begin(EV_START_SEAT, seat)

    def _start_total(self, total):
        self._not_kiosk("a start")
        if self.started:
            raise ValueError("the game has already started (seat %d rolled first)" % self.first)
        if not is_whole(total) or not 2 <= total <= 12:
            raise ValueError("two-dice total %r: must be 2..12" % (total,))
        # Seat 1 counts `total` seats in the direction of play, himself first.
        return self._begin(EV_START_TOTAL, (total - 1) * self.direction % self.seats + 1)

    def _begin(self, kind, first):
        self.started = True
        self.first = first
        self.turn = first
        self.round = 1
        self._pos = 0
        out = Outcome(kind, first)
        out.round = 1
        self._check_prizes_out()
        return out

    def _step(self, seat, d):
        return (seat - 1 + d) % self.seats + 1

    def _advance(self, out):
        """The seat whose turn it was is done: move on, seating out penalised
        seats, ending the game when its final round has been played out."""
        self._pos += 1
        seat = self.turn
        while True:
            if self._pos >= self.seats:
                if self.final_round == self.round:
                    self._finish(out, self._pending)
                    return
                self.round += 1
                self._pos = 0
            seat = self._step(seat, self.direction)
            if self._skip[seat]:
                self._skip[seat] = 0
                out.skipped.append(seat)
                self._pos += 1
                continue
            self.turn = seat
            return

    def _check_prizes_out(self):
        """RULES.md §6: once the last first-come prize is taken, the current
        round is the last if a 状元 stands (or none is provisional); otherwise
        the round in which someone rolls a 状元 is."""
        if not self.prizes_out:
            for i in range(len(self.classes)):
                if i != self._prov and self.pool[self.classes[i]]:
                    return
            self.prizes_out = True
        if self.final_round == 0 and (self._prov < 0 or self.holder):
            self.final_round = self.round
            self._pending = "prizes_out"

    def _finish(self, out, reason):
        self.ended = True
        self.reason = reason
        self.turn = 0
        self.shakes_left = 0
        if self._prov >= 0 and self.holder:
            c = self.classes[self._prov]
            if self.pool[c] > 0:
                self.pool[c] -= 1
                self.awards[self.holder][c] += 1
                out.zhuangyuan_to = self.holder
        out.ended = True
        out.reason = reason

    # ---- table: events --------------------------------------------------------
    def _roll(self, dice):
        self._need_turn()
        rules.check_dice(dice)
        seat = self.turn
        out = self._pay(seat, tuple(dice))
        if not self.ended:
            self._check_prizes_out()
            self._advance(out)
        out.holder_after = self.holder
        return out

    def _spill(self):
        self._need_turn()
        seat = self.turn
        out = Outcome(EV_SPILL, seat)
        out.round = self.round
        out.holder_before = self.holder
        if self._skip_next:
            self._skip[seat] = 1
        self._advance(out)
        out.holder_after = self.holder
        return out

    def _timeup(self):
        if not self.kiosk:
            self._need_turn()
        if self.time_limit == 0:
            raise ValueError("time up, but this profile has no time limit (time_limit=0): "
                             "set time_limit=MINUTES to play against the clock")
        out = Outcome(EV_TIMEUP, self.turn)
        out.round = self.round
        out.holder_before = out.holder_after = self.holder
        if self.kiosk:
            # the customer at the bowl finishes his shakes
            if self.shakes_left:
                self._pending = "time_up"
            else:
                self._finish(out, "time_up")
        elif self.final_round == 0:
            if self._pos == 0:
                # a round has just been played out: nothing left to finish
                self._finish(out, "time_up")
            else:
                self.final_round = self.round
                self._pending = "time_up"
        out.holder_after = self.holder
        return out

    # ---- paying a roll (table and kiosk) ---------------------------------------
    def _pay(self, seat, dice):
        v = self.rules.evaluate(dice)
        rank = v & 15  # rules.rank_of(v) and bonus_of(v) written out: two calls less a roll (and a replayed one)
        bonus = (v >> 4) & 15
        out = Outcome(EV_ROLL, seat)
        out.dice = dice
        out.rank = rank
        out.bonus = bonus
        out.round = self.round
        out.customer = self.customer
        out.holder_before = self.holder
        if self._prov >= 0 and rules.is_zhuangyuan(rank):
            self._stand(seat, dice, rank, rules.key_of(v))
        if rank == rules.LIUBOHONG and self._take_all:
            # 六勃红 take_all: the game ends at once; he takes the 状元 and every prize left
            if self._prov >= 0:
                self._set_holder(seat)
            for i in range(len(self.classes)):
                while self.pool[self.classes[i]] > 0:
                    self._take(seat, i, 0, out)
            self._finish(out, "liubohong")
            return out
        if (rank == rules.HEILIUBO or rank == rules.BIANDIJIN) and self._grab:
            # 黑六勃 grab: lights off, the table grabs every prize left, no holder
            for c in self.classes:
                self.grabbed[c] += self.pool[c]
                self.pool[c] = 0
            self._set_holder(0)
            self._finish(out, "heiliubo_grab")
            return out
        ci = self._rank_cls[rank]
        if ci != _NOCLASS and ci != self._prov:
            self._award(seat, ci, rank, out)
        if self._sweep >= 0 and (rank == rules.CHAJINHUA or rank == rules.LIUBOHONG):
            # 插金花 (and 六勃红 zhuangyuan_and_duitang) takes every 对堂 left, for good
            c = self.classes[self._sweep]
            while self.pool[c] > 0:
                self._take(seat, self._sweep, 0, out)
                self._locked[seat] += 1
        if bonus:
            bi = self._rank_cls[bonus]
            if bi != _NOCLASS and bi != self._prov:
                self._award(seat, bi, bonus, out)
        return out

    def _award(self, seat, ci, rank, out):
        """One prize of class index ci for a `rank` (RULES.md §4 when_exhausted)."""
        if self.pool[self.classes[ci]] > 0:
            self._take(seat, ci, 0, out)
            return
        w = self._when
        if w == _W_CHASE:
            if self._chase[rules.tier(rank)]:
                src = self._chase_from(seat, ci)
                if src:
                    self._take(seat, ci, src, out)
        elif w == _W_LOWER or w == _W_DOWNUP:
            n = len(self.classes)
            for j in range(ci + 1, n):  # the highest lower class with stock
                if j != self._prov and self.pool[self.classes[j]] > 0:
                    self._take(seat, j, 0, out)
                    return
            if w == _W_DOWNUP:
                for j in range(ci - 1, -1, -1):  # else the nearest higher one
                    if j != self._prov and self.pool[self.classes[j]] > 0:
                        self._take(seat, j, 0, out)
                        return

    def _chase_from(self, seat, ci):
        """The nearest seat holding a chaseable prize of class ci, searching the
        other seats against the direction of play from the one just before."""
        c = self.classes[ci]
        s = seat
        for _ in range(self.seats - 1):
            s = self._step(s, -self.direction)
            if self.chaseable(s, c) > 0:
                return s
        return 0

    def _take(self, seat, ci, src, out):
        c = self.classes[ci]
        if src:
            self.awards[src][c] -= 1
        else:
            self.pool[c] -= 1
        self.awards[seat][c] += 1
        out.won.append((c, src))
        if self.kiosk:
            self.award_no += 1
            if self._secret is not None:
                from bobing import claim  # kiosk codes: a table game never loads it
                out.claims.append(claim.code(self._secret, self.bowl_id, self.game_no, self.award_no, c))

    # ---- the 状元 standing --------------------------------------------------------
    def _stand(self, seat, dice, rank, key):
        # a seat's LATEST 状元 is its standing, even if smaller (rule 4.2 of the sheets)
        self._zkey[seat] = key
        self._zseq[seat] = self.events
        self._zdice[seat] = dice
        self._zrank[seat] = rank
        best = 0
        for s in range(1, self.seats + 1):
            k = self._zkey[s]
            if k and (best == 0 or k > self._zkey[best]
                      or (k == self._zkey[best] and self._zseq[s] < self._zseq[best])):
                best = s
        self._set_holder(best)

    def _set_holder(self, seat):
        self.holder = seat
        if seat:
            self.holder_dice = self._zdice[seat]
            self.holder_rank = self._zrank[seat]
        else:
            self.holder_dice = None
            self.holder_rank = 0

    # ---- snapshot ---------------------------------------------------------------
    # The table's state after its events as bytes (the journal's checkpoints,
    # bobing/journal.py): unsigned LEB128 numbers: events turn round first
    # final_round pos customer shakes_left award_no flags(started, ended,
    # prizes_out) reason pending holder; an event game then its grant number and
    # per class its grant; per prize class: pool grabbed; per seat: locked skip
    # zseq zdice (dice_code, 0 = none) and its awards per class. Order keys and
    # ranks are recomputed from the dice. The bytes are a file format: change
    # them only with the journal's checkpoint format.
    def snapshot(self):
        """The table's state after its events, as bytes (see above)."""
        b = bytearray()
        for v in (self.events, self.turn, self.round, self.first, self.final_round, self._pos, self.customer,
                  self.shakes_left, self.award_no,
                  int(self.started) | int(self.ended) << 1 | int(self.prizes_out) << 2,
                  _reason_code(self.reason), _reason_code(self._pending), self.holder):
            _put_var(b, v)
        if self.event:  # the grants applied in this game: an event game's own layout
            _put_var(b, self.grant_s)
            for c in self.classes:
                _put_var(b, self.granted[c])
        for c in self.classes:
            _put_var(b, self.pool[c])
            _put_var(b, self.grabbed[c])
        for seat in range(1, self.seats + 1):
            d = self._zdice[seat]
            for v in (self._locked[seat], self._skip[seat], self._zseq[seat], 0 if d is None else dice_code(d)):
                _put_var(b, v)
            a = self.awards[seat]
            for c in self.classes:
                _put_var(b, a[c])
        return b

    def restore(self, b, at, end, events):
        """Set this fresh table to the snapshot in b[at:end] after `events` events;
        ValueError (the table then half set: drop it) if the state cannot be this
        game's (prizes not conserved, a seat out of range, ...)."""
        r = _Reader(b, at, end)
        n = self.seats
        big = 1 << 30
        if r.num(big) != events:
            raise ValueError("the state is not after %d events" % events)
        self.events = events
        self.turn = r.num(n)
        self.round = r.num(big)
        self.first = r.num(n)
        self.final_round = r.num(self.round)
        self._pos = r.num(n)
        self.customer = r.num(big)
        self.shakes_left = r.num(self.kiosk_shakes if self.kiosk else 0)
        self.award_no = r.num(big)
        f = r.num(7)
        self.started = bool(f & 1)
        self.ended = bool(f & 2)
        self.prizes_out = bool(f & 4)
        self.reason = _reason_of(r.num(len(REASONS)))
        self._pending = _reason_of(r.num(len(REASONS)))
        holder = r.num(n)
        had = {}  # per class: prizes this game has had (its start and what grants raised)
        for c in self.classes:
            had[c] = self.initial[c]
        if self.event:
            self.grant_s = r.num(MAX_SEQ)
            for c in self.classes:
                g = r.num(MAX_GRANT)
                if g < self.granted[c]:
                    raise ValueError("the %s grant went down" % c)
                had[c] += g - self.granted[c]
                self.granted[c] = g
        left = {}
        for c in self.classes:
            self.pool[c] = r.num(had[c])
            self.grabbed[c] = r.num(had[c])
            left[c] = had[c] - self.pool[c] - self.grabbed[c]
        for seat in range(1, n + 1):
            self._locked[seat] = r.num(big)
            self._skip[seat] = r.num(1)
            self._zseq[seat] = r.num(events)
            code = r.num((1 << 24) - 1)
            if code:
                d = dice_of(code)
                v = self.rules.evaluate(d)
                self._zdice[seat] = d
                self._zkey[seat] = rules.key_of(v)
                self._zrank[seat] = rules.rank_of(v)
            a = self.awards[seat]
            for c in self.classes:
                a[c] = r.num(big)
                left[c] -= a[c]
            if self._sweep >= 0 and self._locked[seat] > a[self.classes[self._sweep]]:
                raise ValueError("seat %d has more swept prizes than prizes" % seat)
        for c in self.classes:
            if left[c]:
                raise ValueError("the %s prizes do not add up to the %d there were" % (c, had[c]))
        if r.at != end:
            raise ValueError("%d bytes too many" % (end - r.at))
        if holder and not self._zdice[holder]:
            raise ValueError("the 状元 holder has no 状元 roll")
        self._set_holder(holder)

    # ---- kiosk ------------------------------------------------------------------
    def _customer(self, n=None):
        if n is not None and (not is_whole(n) or not 1 <= n <= 255):
            raise ValueError("a customer's shakes: None (the profile's) or a whole number 1..255, got %r" % (n,))
        if not self.kiosk:
            raise ValueError("EV_CUSTOMER is for a kiosk (mode=kiosk); a table starts with "
                             "EV_START_SEAT or EV_START_TOTAL")
        if self.shakes_left:
            raise ValueError("customer %d still has %d shake(s) left" % (self.customer, self.shakes_left))
        if self.event and not self.stocked():
            raise ValueError("no stock: the next customer waits for a grant from the prize desk")
        self.started = True
        self.customer += 1
        self.round = self.customer
        self.shakes_left = n or self.kiosk_shakes
        self.turn = 1
        out = Outcome(EV_CUSTOMER, 1)
        out.customer = out.round = self.customer
        self._kiosk_done(out)
        return out

    def _need_shake(self):
        if not self.shakes_left:
            raise ValueError("no customer is shaking: EV_CUSTOMER starts the next customer's %d shakes"
                             % self.kiosk_shakes)

    def _kiosk_roll(self, dice):
        if not self.shakes_left:
            self._need_shake()  # (raises: the call only then)
        rules.check_dice(dice)
        out = self._pay(1, tuple(dice))
        if not self.ended:
            self.shakes_left -= 1
            self._kiosk_done(out)
        return out

    def _kiosk_spill(self):
        self._need_shake()
        out = Outcome(EV_SPILL, 1)
        out.customer = out.round = self.customer
        self.shakes_left -= 1  # the void shake
        if self._skip_next and self.shakes_left:
            self.shakes_left -= 1  # ... and he sits out the next one
            out.skipped.append(1)
        self._kiosk_done(out)
        return out

    def stocked(self):
        """Is any prize left in the pool?"""
        for c in self.classes:
            if self.pool[c]:
                return True
        return False

    def _kiosk_done(self, out):
        if not self.event and not self.stocked():
            self._finish(out, "stock_out")
            return
        if not self.shakes_left:
            self.turn = 0
            if self._pending:
                self._finish(out, self._pending)



def profile_of(pf):
    """A commit's rules text ("PRESET OPTION=VALUE ...", bobing/fair.py's rules_text) ->
    its profiles.Profile; ValueError naming an unknown preset or option."""
    parts = pf.split(" ")
    o = {}
    for x in parts[1:]:
        name, value = profiles.parse_setting(x)
        o[name] = value
    return profiles.Profile(parts[0], o)


def turn_awards(pf, left, shakes):
    """One kiosk customer's turn replayed with this module's award logic (the bowl's own):
    pf: the game's rules as its commit names them ("PRESET OPTION=VALUE ..."), left: the
    stock at his start (one count per prize class, the profile's order), shakes: his
    shakes in order, six digits each or "-" (a spill) -> [[class won, ...] per shake].
    ValueError saying why the turn cannot be played so. For the checks of verifiable
    fairness (host_sim/analysis/fair_check.py, the customer's phone); the bowl never calls it."""
    p = profile_of(pf)
    classes = [c[0] for c in p.prizes["classes"]]
    if len(left) != len(classes):
        raise ValueError("stock of %d classes, the rules %r have %d (%s)" % (len(left), pf, len(classes),
                                                                         ", ".join(classes)))
    counts = {}
    for i in range(len(classes)):
        counts[classes[i]] = left[i]
    t = Table(p, counts=counts, event=True, granted=counts)
    t.next_customer(255)  # (however many he had: the shakes the reveal lists are played)
    out = []
    for n in range(len(shakes)):
        x = shakes[n]
        if t.ended:
            raise ValueError("shake %d after the game ended" % (n + 1))
        w = t.spill() if x == "-" else t.roll(tuple([int(ch) for ch in x]))
        out.append([c for c, _src in w.won])
    return out
