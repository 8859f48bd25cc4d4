# Ranking a roll of six dice (RULES.md §1-3, and the variants of §9). Pure
# logic: no hardware, runs unchanged on MicroPython and CPython.
#
# The hot path is `Rules.evaluate(dice)`: one pass over the dice into a
# preallocated count buffer, returning ONE small int that packs
#     order key << 8 | bonus rank << 4 | rank
# so that classifying a roll on the bowl allocates nothing (tested under
# micropython.heap_lock()). A higher order key is a better roll under the
# profile, across all ranks; equal keys are equally good (then the earlier
# roll stands, which is the game's business, not ours).
from micropython import const

from bobing import profiles

# Rank codes: the index into RANK_IDS. Tiers 0-5 are their own code; every
# 状元 sub-rank is >= SIHONG and belongs to tier 6 (zhuangyuan).
NONE = const(0)
YIXIU = const(1)  # 一秀: exactly one 4
ERJU = const(2)  # 二举: exactly two 4s
SIJIN = const(3)  # 四进: four of one face other than 4
SANHONG = const(4)  # 三红: exactly three 4s
DUITANG = const(5)  # 对堂: 123456 (and other patterns by option)
SIHONG = const(6)  # 四红 状元: four 4s
WUZI = const(7)  # 五子登科: five of one face other than 4
WUHONG = const(8)  # 五红: five 4s
HEILIUBO = const(9)  # 黑六勃: six of one face other than 4
BIANDIJIN = const(10)  # 遍地锦: six 1s
LIUBOHONG = const(11)  # 六勃红: six 4s
CHAJINHUA = const(12)  # 状元插金花: four 4s and two 1s

RANK_IDS = ("none", "yixiu", "erju", "sijin", "sanhong", "duitang", "sihong",
            "wuzi", "wuhong", "heiliubo", "biandijin", "liubohong", "chajinhua")
# Rank names in code order, constant tuples: the frozen image keeps them in flash, so
# rank_names("zh"/"pinyin"/"en") allocates nothing (split from "|"-separated texts when asked,
# each language cost a few hundred bytes of the bowl's heap).
_RANK_ZH = (
    "无", "一秀", "二举", "四进", "三红", "对堂", "四红", "五子登科", "五红", "黑六勃", "遍地锦", "六勃红",
    "状元插金花",
)
_RANK_PINYIN = (
    "Wu", "Yi Xiu", "Er Ju", "Si Jin", "San Hong", "Dui Tang", "Si Hong", "Wu Zi", "Wu Hong", "Hei Liu Bo",
    "Bian Di Jin", "Liu Bo Hong", "Cha Jin Hua",
)
_RANK_EN = (
    "Nothing", "One red", "Two reds", "Four of a kind", "Three reds", "Straight", "Four reds",
    "Five of a kind", "Five reds", "Six of a kind", "Six ones", "Six reds", "Golden flower",
)

ZHUANGYUAN = const(6)  # tier of every rank code >= SIHONG
TIER_IDS = ("none", "yixiu", "erju", "sijin", "sanhong", "duitang", "zhuangyuan")
TIER_ZH = ("无", "一秀", "二举", "四进", "三红", "对堂", "状元")

# Position of each 状元 sub-rank (SIHONG..CHAJINHUA) in the total order, by
# option zhuangyuan_order (RULES.md §2). Positions 0-5 are the tiers below.
_ZY_ORDERS = {
    #                sihong wuzi wuhong heiliubo biandijin liubohong chajinhua
    "chajinhua_top": (6, 7, 8, 9, 10, 11, 12),
    "liuhong_top": (6, 7, 8, 9, 10, 12, 11),
    "liubo_top": (6, 7, 8, 10, 11, 12, 9),
}

_counts = bytearray(7)  # scratch: how many dice show each face (index 1..6)


def rank_code(rank):
    """'chajinhua' -> CHAJINHUA; ValueError for an unknown id."""
    for i in range(len(RANK_IDS)):
        if RANK_IDS[i] == rank:
            return i
    raise ValueError("unknown rank %r; ranks are: %s" % (rank, ", ".join(RANK_IDS)))


def tier(code):
    """Prize tier (0..6) of a rank code: every 状元 sub-rank is tier 6."""
    return ZHUANGYUAN if code >= SIHONG else code


def is_zhuangyuan(code):
    return code >= SIHONG


# Unpacking what `evaluate` returns (all allocation-free).
def rank_of(v):
    return v & 15


def bonus_of(v):
    return (v >> 4) & 15


def key_of(v):
    return v >> 8


def key_parts(key):
    """An order key as the list [position, tiebreak1, tiebreak2] (lexicographic)."""
    return [key >> 8, (key >> 4) & 15, key & 15]


def check_dice(dice):
    """Raise ValueError unless `dice` is six faces 1..6 (list, tuple, bytes...)."""
    try:
        n = len(dice)
    except TypeError:
        raise ValueError("a roll is six dice (faces 1..6), got %r" % (dice,))
    if n != 6:
        raise ValueError("a roll is six dice (faces 1..6), got %d: %r" % (n, list(dice)))
    for d in dice:
        if not (isinstance(d, int) and 1 <= d <= 6) or isinstance(d, bool):
            raise ValueError("a die shows a face 1..6, got %r in %r" % (d, list(dice)))


def parse_roll(text):
    """'444411', '4 4 4 4 1 1' or '4,4,4,4,1,1' -> [4, 4, 4, 4, 1, 1]; ValueError otherwise."""
    s = text.strip()
    if not s:
        raise ValueError("empty line: a roll is six faces 1..6, e.g. 444411 or 4 4 4 4 1 1")
    if "," in s or " " in s or "\t" in s:
        parts = [p for p in s.replace(",", " ").split() if p]
    else:
        parts = list(s)
    dice = []
    for p in parts:
        if not p.isdigit():
            raise ValueError("%r is not a face: a roll is six faces 1..6, e.g. 444411" % p)
        dice.append(int(p))
    check_dice(dice)
    return dice


class Rules:
    """Ranks rolls under one profile's options (a profiles.Profile or its name)."""

    def __init__(self, profile=None):
        if profile is None or isinstance(profile, str):
            profile = profiles.Profile(profile or profiles.DEFAULT_PRESET)
        self.profile = profile
        o = profile.options
        self._pos = bytes(_ZY_ORDERS[o["zhuangyuan_order"]])
        self._sihong_sum = o["sihong_key"] == "sum"
        w = o["wuzi_key"]
        self._wuzi_face_first = w == "face_then_kicker"
        self._wuzi_kicker_first = w == "kicker_then_face"
        self._heiliubo_face = o["heiliubo_key"] == "face"
        # zhuangyuan_tiebreak off: one key per sub-rank, so the earlier roll stands (game.py)
        self._zy_ties = o["zhuangyuan_tiebreak"] == "on"
        self._biandijin_own = o["biandijin"] == "own_rank"
        self._straight = profiles.has(o, "duitang_patterns", "straight")
        self._three_pairs = profiles.has(o, "duitang_patterns", "three_pairs")
        self._two_triples = profiles.has(o, "duitang_patterns", "two_triples")
        self._combined = o["combined"] != "off"
        self._wuzi_yixiu = o["combined"] == "on"  # sijin_only: only 四进 keeps its bonus

    def evaluate(self, dice):
        """Pack (order key, bonus rank, rank) of a valid roll into one small int.

        No validation here (that would allocate on the error path only, but
        also costs time): callers with untrusted input use `score`.
        """
        c = _counts
        for f in range(7):
            c[f] = 0
        for d in dice:
            c[d] += 1
        n4 = c[4]
        # The largest group among the non-4 faces, and the pair/triple census.
        big = 0
        bigf = 0
        pairs = 1 if n4 == 2 else 0
        triples = 0
        for f in range(1, 7):
            if f == 4:
                continue
            n = c[f]
            if n >= big:  # >= so ties go to the higher face (only matters for 3+3)
                big = n
                bigf = f
            if n == 2:
                pairs += 1
            elif n == 3:
                triples += 1

        rank = NONE
        bonus = NONE
        k1 = 0
        k2 = 0
        if n4 == 4:
            if c[1] == 2:
                rank = CHAJINHUA
            else:
                rank = SIHONG
                if self._sihong_sum:  # 带12最大, 带3最小
                    for f in range(1, 7):
                        if f != 4:
                            k1 += f * c[f]
                else:  # the higher of the other two, then the lower
                    for f in range(1, 7):
                        if f != 4 and c[f]:
                            if not k2:
                                k2 = f
                            k1 = f
        elif n4 == 6:
            rank = LIUBOHONG
        elif n4 == 5:
            rank = WUHONG
            for f in range(1, 7):
                if f != 4 and c[f]:
                    k1 = f
        elif big == 6:
            if bigf == 1 and self._biandijin_own:
                rank = BIANDIJIN
            else:
                rank = HEILIUBO
                if self._heiliubo_face:
                    k1 = bigf
        elif big == 5:
            rank = WUZI
            kicker = 0
            for f in range(1, 7):
                if f != bigf and c[f]:
                    kicker = f
            if self._wuzi_face_first:
                k1 = bigf
                k2 = kicker
            elif self._wuzi_kicker_first:
                k1 = kicker
                k2 = bigf
            else:
                k1 = kicker
            if kicker == 4 and self._wuzi_yixiu:
                bonus = YIXIU
        elif big == 4:
            rank = SIJIN
            if n4 == 2:
                bonus = ERJU
            elif n4 == 1:
                bonus = YIXIU
        elif ((self._straight and n4 == 1 and big == 1)
              or (self._three_pairs and pairs == 3)
              or (self._two_triples and triples == 2)):
            rank = DUITANG  # never also a 一秀 (RULES.md §3); 444 never counts as a triple here
        elif n4 == 3:
            rank = SANHONG
        elif n4 == 2:
            rank = ERJU
        elif n4 == 1:
            rank = YIXIU
        if not self._combined:
            bonus = NONE
        pos = rank
        if rank >= SIHONG:
            pos = self._pos[rank - SIHONG]
            if not self._zy_ties:
                k1 = 0
                k2 = 0
        return (((pos << 8) | (k1 << 4) | k2) << 8) | (bonus << 4) | rank

    def score(self, dice):
        """Validate, then evaluate: the entry point for anything a person typed."""
        check_dice(dice)
        return self.evaluate(dice)

    def describe(self, dice):
        """A JSON-ready dict: dice, rank id, bonus ids, order as a list."""
        v = self.score(dice)
        b = bonus_of(v)
        return {
            "dice": list(dice),
            "rank": RANK_IDS[rank_of(v)],
            "bonus": [RANK_IDS[b]] if b else [],
            "order": key_parts(key_of(v)),
        }


def rank_names(which):
    """The names of every rank code, in code order: which = "zh", "pinyin" or
    "en". Constant tuples (in flash on the frozen bowl): nothing is allocated."""
    if which == "zh":
        t = _RANK_ZH
    elif which == "pinyin":
        t = _RANK_PINYIN
    elif which == "en":
        t = _RANK_EN
    else:
        raise ValueError("rank names %r: zh, pinyin or en" % (which,))
    return t

