# 状元王中王 (RULES.md §7): the final between table champions. Pure logic, like
# bobing/game.py, whose Outcome and event kinds it uses; kept apart so that a
# table game never loads it (bobing/final_play.py imports it for a final).
from bobing import game, profiles, rules


class Final:
    """状元王中王 (RULES.md §7): table champions 1..n, in the drawn order, each
    roll once a round; the best 状元 of a round wins. A round with no 状元 is
    rolled again by everyone; an exact tie for the best is rolled again by the
    tied champions only. A spill voids the roll and the same champion rolls
    again. Events: game.EV_ROLL (dice) and game.EV_SPILL."""

    def __init__(self, profile=None, players=2):
        if profile is None or isinstance(profile, str):
            profile = profiles.Profile(profile or profiles.DEFAULT_PRESET)
        if not game.is_whole(players) or not 2 <= players <= 64:
            raise ValueError("players=%r: a final has 2..64 champions" % (players,))
        self.profile = profile
        self.rules = rules.Rules(profile)
        self.players = players
        self.contenders = list(range(1, players + 1))  # who rolls this round, in order
        self._i = 0
        self.turn = 1
        self.round = 1
        self.events = 0
        self.ended = False
        self.reason = None
        self.winner = 0
        self.winner_dice = None
        self.winner_rank = 0
        self._best = 0  # best 状元 key this round
        self._tied = []  # champions with that key
        self._dice = [None] * (players + 1)  # this round's 状元 rolls

    def apply(self, kind, arg=None):
        if self.ended:
            raise ValueError("the final is over: champion %d won" % self.winner)
        if kind == game.EV_ROLL:
            rules.check_dice(arg)
            out = self._roll(tuple(arg))
        elif kind == game.EV_SPILL:
            out = game.Outcome(game.EV_SPILL, self.turn)  # void: the same champion rolls again
            out.round = self.round
        else:
            raise ValueError("a final takes rolls and spills only, not event kind %r" % (kind,))
        self.events += 1
        return out

    def roll(self, dice):
        return self.apply(game.EV_ROLL, dice)

    def _roll(self, dice):
        seat = self.turn
        v = self.rules.evaluate(dice)
        out = game.Outcome(game.EV_ROLL, seat)
        out.dice = dice
        out.rank = rules.rank_of(v)
        out.round = self.round
        out.holder_before = self._tied[0] if len(self._tied) == 1 else 0
        if rules.is_zhuangyuan(out.rank):
            k = rules.key_of(v)
            if k > self._best:
                self._best = k
                self._tied = [seat]
            elif k == self._best:
                self._tied.append(seat)
            self._dice[seat] = dice
        self._i += 1
        if self._i >= len(self.contenders):
            if len(self._tied) == 1:
                w = self._tied[0]
                self.winner = w
                self.winner_dice = self._dice[w]
                self.winner_rank = rules.rank_of(self.rules.evaluate(self.winner_dice))
                self.ended = True
                self.reason = "champion"
                self.turn = 0
                out.ended = True
                out.reason = "champion"
            else:
                if self._tied:
                    self.contenders = self._tied  # exact tie: the tied roll again
                self._tied = []
                self._best = 0
                self.round += 1
                self._i = 0
        if not self.ended:
            self.turn = self.contenders[self._i]
        out.holder_after = self.winner
        return out
