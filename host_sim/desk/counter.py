"""The counter's rules: find the award a code belongs to, check it with the
bowl's secret (bobing.claim, the bowl's own code), slow down guessing, and hand
a prize over exactly once."""
import datetime
import hmac

from django.db import IntegrityError, transaction
from django.utils import timezone

from bobing import claim

from . import inputs
from .models import Award, CheckLimit, Redemption

FREE_FAILURES = 5  # wrong codes an attendant may type before the desk slows down
MAX_WAIT = 60  # seconds: then one guess a minute, 2^40 codes take two million years
FORGIVE = datetime.timedelta(minutes=30)  # a quiet half hour (no wrong code) starts the count afresh


class Claim:
    """One award a code was checked for: bowl, game_no, award_no, cls, code, and
    `award` (the Award row, None while its journal has not arrived) and
    `redemption` (the Redemption, None while it was not handed over)."""

    def __init__(self, bowl, game_no, award_no, cls, code, award=None):
        self.bowl = bowl
        self.game_no = game_no
        self.award_no = award_no
        self.cls = cls
        self.code = code
        self.award = award
        self.redemption = Redemption.objects.filter(bowl=bowl, game_no=game_no, award_no=award_no) \
            .select_related("by").first()

    @property
    def pretty(self):
        return claim.pretty(self.code)


def wait_left(user):
    """Seconds the attendant must wait before the next code check (0: none)."""
    lim = CheckLimit.objects.filter(user=user).first()
    if lim is None or lim.wait_until is None:
        return 0
    left = (lim.wait_until - timezone.now()).total_seconds()
    return max(0, int(left + 0.999))


def _wait(failures):
    """The wait after the failures-th wrong code: 2 s after the first one over the free ones, then 4, 8, ... 60."""
    over = failures - FREE_FAILURES
    return datetime.timedelta(seconds=min(MAX_WAIT, 2 ** over)) if over > 0 else None


class Slow(Exception):
    """Too many wrong codes: str() says how long to wait."""


def _guard(user, code=None, follow_up=False):
    """Take the attendant's next check, in one transaction (BEGIN IMMEDIATE: two
    counters queue here): Slow while a wait runs; else the check is counted as a
    failure until it succeeds, and, past the free ones, the wait starts now, so a
    check sent at the same moment from another page is refused, not let through.
    `code` is the check's code (None if it is not one). A code the desk found no
    award for stays pending (CheckLimit.pending_code): the full form's check of
    that code (follow_up) may run during the wait that miss set, and any other
    code ends it as a plain failure.
    -> (the wait set, the last failure before, whether it is the pending code)."""
    now = timezone.now()
    with transaction.atomic():
        lim, _ = CheckLimit.objects.get_or_create(user=user)
        pending = code is not None and code == lim.pending_code
        if lim.wait_until is not None and lim.wait_until > now and not (
                pending and follow_up and lim.wait_until == lim.pending_wait):
            w = int((lim.wait_until - now).total_seconds() + 0.999)
            raise Slow("Too many wrong codes from this attendant: wait %d s before the next check." % w)
        if not pending:
            lim.pending_code, lim.pending_wait = "", None
        before = lim.last_failed
        if before is None or now - before > FORGIVE:
            lim.failures = 0
        lim.failures += 1
        lim.last_failed = now
        w = _wait(lim.failures)
        lim.wait_until = now + w if w else None
        lim.save()
        return lim.wait_until, before, pending


def _failed(user, missed=None):
    """A wrong code: it was counted by _guard; its wait runs from now. `missed`:
    the code find() had no award for, now pending."""
    with transaction.atomic():
        lim = CheckLimit.objects.get(user=user)
        w = _wait(lim.failures)
        if w:
            lim.wait_until = timezone.now() + w
        if missed is not None:
            lim.pending_code, lim.pending_wait = missed, lim.wait_until
        lim.save(update_fields=["wait_until", "pending_code", "pending_wait"])


def _succeeded(user, reserved, pending_too=False):
    """A right code: not a failure after all. The count is not reset (checking a
    code that exists does not buy more guesses); only this check's own wait goes.
    pending_too: the code was the pending miss, now checked in full and right: a
    genuine code whose journal had not arrived, so that miss goes too (once)."""
    wait, before, _pending = reserved
    with transaction.atomic():
        lim = CheckLimit.objects.get(user=user)
        lim.failures = max(0, lim.failures - 1)
        if wait is not None and lim.wait_until == wait:
            lim.wait_until = None
        if lim.last_failed is not None and before is not None and lim.failures:
            lim.last_failed = before
        if pending_too and lim.pending_code:
            lim.failures = max(0, lim.failures - 1)
            if lim.wait_until is not None and lim.wait_until == lim.pending_wait:
                lim.wait_until = None
            if lim.failures == 0:
                lim.last_failed = None  # else its time stays: the quiet half hour counts from later
            lim.pending_code, lim.pending_wait = "", None
        lim.save(update_fields=["failures", "wait_until", "last_failed", "pending_code", "pending_wait"])


def _normal(text):
    try:
        return claim.normalize(text), None
    except ValueError as e:
        return None, e


def find(user, text):
    """A code as typed -> Claim of an imported award (its code was computed with
    the bowl's secret at the import), or None (counted as a failed check until
    the full form shows it genuine: its journal may not be here yet).
    ValueError for text that is not a code (counted too). Slow if the attendant
    must wait."""
    code, bad = _normal(text)
    reserved = _guard(user, code)
    if bad is not None:
        _failed(user)
        raise ValueError("%s." % bad)
    a = Award.objects.filter(code=code).select_related("bowl").first()
    if a is None:
        if reserved[2]:
            _succeeded(user, reserved)  # the pending code typed again: still the one miss
        else:
            _failed(user, missed=code)
        return None
    _succeeded(user, reserved)
    return Claim(a.bowl, a.game_no, a.award_no, a.cls, code, a)


def check(user, text, bowl_id, game_no, award_no, cls):
    """A code with the award it is for, as the bowl's screen shows them ->
    Claim if the bowl's secret says the code is right, else None (a failed
    check). Slow if the attendant must wait; ValueError for a malformed code
    or an unknown bowl (counted as failed checks). A right code that find() had
    just missed is no failure at all: its miss is taken back."""
    code, bad = _normal(text)
    reserved = _guard(user, code, follow_up=True)
    try:
        if bad is not None:
            raise bad
        bowl = inputs.find_bowl(bowl_id)  # 1 is 0001
        if bowl is None:
            raise ValueError("Bowl %r is not known to the desk." % bowl_id)
        award = Award.objects.filter(bowl=bowl, game_no=game_no, award_no=award_no).first()
        if award is not None:
            # imported: its code was made with the secret of its day (a bowl may have a new one since)
            ok = award.cls == cls and hmac.compare_digest(award.code, code)
        else:
            # the bowl signs its id as it stores it, and its screen shows that: the desk's form,
            # the one typed off the screen, or the factory width (an older desk kept `1` for the
            # bowl's 0001); three forms at most, so a guess is never worth more than three
            ok = any(claim.verify(bytes(bowl.secret), b, game_no, award_no, cls, code)
                     for b in dict.fromkeys([bowl.bowl_id, inputs.fold(bowl_id), inputs.canonical(bowl.bowl_id)]))
    except ValueError as e:
        _failed(user)
        raise ValueError(str(e))
    if not ok:
        _failed(user)
        return None
    _succeeded(user, reserved, pending_too=reserved[2])
    return Claim(bowl, game_no, award_no, cls, code, award)


def redeem(user, c, at_counter=""):
    """Hand the award of Claim c over (at the counter the attendant named at his login):
    -> (True, Redemption) the first time,
    (False, the earlier Redemption) ever after. The unique constraint decides,
    in one transaction, so two counters at the same moment get one True."""
    try:
        with transaction.atomic():
            r = Redemption.objects.create(bowl=c.bowl, game_no=c.game_no, award_no=c.award_no, cls=c.cls,
                                          at=timezone.now(), by=user, counter=at_counter)
        return True, r
    except IntegrityError:
        r = Redemption.objects.select_related("by").get(bowl=c.bowl, game_no=c.game_no, award_no=c.award_no)
        return False, r
