# An independent, deliberately naive reading of RULES.md §1-3 and §9's variants,
# written from the text and not from firmware/bobing/rules.py, to check the
# firmware against.
# Slow and allocation-happy on purpose: clarity over speed.

ZY_ORDER = {  # RULES.md §2, lowest to highest
    "chajinhua_top": ["sihong", "wuzi", "wuhong", "heiliubo", "biandijin", "liubohong", "chajinhua"],
    "liuhong_top": ["sihong", "wuzi", "wuhong", "heiliubo", "biandijin", "chajinhua", "liubohong"],
    "liubo_top": ["sihong", "wuzi", "wuhong", "chajinhua", "heiliubo", "biandijin", "liubohong"],
}
BELOW = ["none", "yixiu", "erju", "sijin", "sanhong", "duitang"]


def oracle(dice, opts):
    """-> (rank, bonus list, order tuple)"""
    s = sorted(dice)
    groups = {f: s.count(f) for f in set(s)}
    fours = s.count(4)
    others = [d for d in s if d != 4]
    same_other = max([n for f, n in groups.items() if f != 4] or [0])
    face_of = lambda n: [f for f, k in groups.items() if k == n and f != 4]
    pats = opts["duitang_patterns"].split("+")
    tb = ()
    bonus = []
    if fours == 4 and others == [1, 1]:
        rank = "chajinhua"
    elif fours == 6:
        rank = "liubohong"
    elif s == [1] * 6 and opts["biandijin"] == "own_rank":
        rank = "biandijin"
    elif same_other == 6:
        # §9 "every six-of-a-kind equal": no tie-break by face
        rank, tb = "heiliubo", ((s[0],) if opts["heiliubo_key"] == "face" else ())
    elif fours == 5:
        rank, tb = "wuhong", (others[0],)
    elif same_other == 5:
        face = face_of(5)[0]
        kicker = [d for d in s if d != face][0]
        rank = "wuzi"
        tb = {"face_then_kicker": (face, kicker), "kicker": (kicker,),
              "kicker_then_face": (kicker, face)}[opts["wuzi_key"]]  # §9: 222226 > 666665
        if kicker == 4 and opts["combined"] == "on":  # §9: no 一秀 for it under sijin_only
            bonus = ["yixiu"]
    elif fours == 4:
        rank = "sihong"
        if opts["sihong_key"] == "sum":
            tb = (sum(others),)
        else:  # §9: highest die first, 444463 > 444455
            tb = (max(others), min(others))
    elif (("straight" in pats and s == [1, 2, 3, 4, 5, 6])
          or ("three_pairs" in pats and sorted(groups.values()) == [2, 2, 2])
          or ("two_triples" in pats and sorted(groups.values()) == [3, 3] and fours != 3)):
        rank = "duitang"
    elif fours == 3:
        rank = "sanhong"
    elif same_other == 4:
        rank = "sijin"
        if fours == 2:
            bonus = ["erju"]
        elif fours == 1:
            bonus = ["yixiu"]
    elif fours == 2:
        rank = "erju"
    elif fours == 1:
        rank = "yixiu"
    else:
        rank = "none"
    if opts["combined"] == "off":
        bonus = []
    order = BELOW + ZY_ORDER[opts["zhuangyuan_order"]]
    if rank in ZY_ORDER["chajinhua_top"] and opts["zhuangyuan_tiebreak"] == "off":
        tb = ()  # §9: same sub-rank = equal (the earlier roll stands)
    return rank, bonus, (order.index(rank),) + tb
