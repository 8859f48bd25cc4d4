"""What the desk keeps. An award is identified by (bowl, game number, award
number) everywhere: on the bowl's claim screen ("17-3"), in its journal, in a
claim code's signed message, and here (unique constraints, so a repeated import
or two counters at once cannot make a second row)."""
from django.conf import settings
from django.db import models
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext


class Bowl(models.Model):
    """A kiosk bowl the desk knows. `secret` is its claim-code key (the bowl's
    admin menu 领奖密钥): used to make and check codes, never shown on a page."""
    bowl_id = models.CharField(max_length=32, unique=True)
    secret = models.BinaryField()
    added = models.DateTimeField(auto_now_add=True)
    # awards over the network refused as beyond the bowl's grant or the event's total (the bowls
    # page flags it: a bowl paying what it was never granted is broken or its secrets leaked)
    refused_over = models.PositiveIntegerField(default=0)
    refused_note = models.CharField(max_length=200, blank=True)
    # the first sealed journal the desk accepted from the bowl (its game; 0: none yet): from then
    # on a journal of it without seals is a downgrade, refused even on a supervisor's tick
    sealed_game = models.PositiveIntegerField(default=0)
    sealed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return self.bowl_id


class Game(models.Model):
    """One game (journal) of a bowl, as of the latest import: the stock it
    started with and what is left in the bowl, per class (lists of [class, n],
    highest class first)."""
    bowl = models.ForeignKey(Bowl, on_delete=models.PROTECT)
    game_no = models.PositiveIntegerField()
    profile = models.CharField(max_length=40)
    options = models.JSONField(default=dict)  # the game's option overrides (journal header)
    stock = models.JSONField()
    left = models.JSONField()
    customers = models.PositiveIntegerField(default=0)
    # of them, those the attendant's key let in (journal format 4), and the game's minute of each
    # (the bowl's awake minutes since the game began: it has no clock of the day)
    by_key = models.PositiveIntegerField(default=0)
    key_minutes = models.JSONField(default=list)
    events = models.PositiveIntegerField(default=0)
    ended = models.BooleanField(default=False)
    updated = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["bowl", "game_no"], name="one_game")]


class KeyCustomer(models.Model):
    """A customer a bowl's key let in, as the bowl sent it over MQTT (firmware/PROTOCOL.md
    "Customers let in by the key"): live, before any journal is imported. Once by identity
    (bowl, game, customer): a replayed message adds nothing. The Bowls page counts per game the
    larger of these and its imported journal's (Game.by_key): the same customers, never added."""
    bowl = models.ForeignKey(Bowl, on_delete=models.PROTECT)
    game_no = models.PositiveIntegerField()
    customer = models.PositiveIntegerField()
    minute = models.PositiveIntegerField(default=0)  # the game's minute (the bowl's awake minutes)
    seen = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["bowl", "game_no", "customer"], name="one_key_customer")]


class Award(models.Model):
    """A prize a bowl paid. `seen` is when the desk first learned of it (the
    journal keeps no clock: the bowl knows the order, not the time)."""
    bowl = models.ForeignKey(Bowl, on_delete=models.PROTECT)
    game_no = models.PositiveIntegerField()
    award_no = models.PositiveIntegerField()
    cls = models.CharField(max_length=20)
    customer = models.PositiveIntegerField(default=0)
    code = models.CharField(max_length=8, db_index=True)
    source = models.CharField(max_length=20)
    seen = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["bowl", "game_no", "award_no"], name="one_award")]


class Redemption(models.Model):
    """A prize handed over. At most one per award (the unique constraint is
    what makes a code redeemable exactly once, whatever the counters do)."""
    bowl = models.ForeignKey(Bowl, on_delete=models.PROTECT)
    game_no = models.PositiveIntegerField()
    award_no = models.PositiveIntegerField()
    cls = models.CharField(max_length=20)
    at = models.DateTimeField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    counter = models.CharField(max_length=32, blank=True, default="")  # where it was handed over (the login's)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["bowl", "game_no", "award_no"], name="one_redemption")]
        indexes = [models.Index(fields=["at"])]


def render_parts(parts, tr, html=False):
    """[[msgid, args], ...] -> text, each msgid through tr (gettext, or str for the English).
    An argument given as [msgid] is a word of the catalogue, translated too; one given as
    {"en": text} (the firmware's own English detail) is shown on English pages only; one
    given as {"zh": text, "en": text} is said in the page's language (words the host's tools
    say too, kept in one table there); one given as {"code": text} is a command, in <code> when
    html (escaped HTML then)."""
    english = tr is str or (get_language() or "en").startswith("en")
    esc = conditional_escape if html else str

    def arg(v):
        if isinstance(v, list):
            return esc(tr(v[0]))
        if isinstance(v, dict):
            if "code" in v:
                return format_html("<code>{}</code>", v["code"]) if html else v["code"]
            if "zh" in v:
                return esc(v["en"] if english else v["zh"])
            return esc(v.get("en", "")) if english else ""
        return esc(v) if isinstance(v, str) else v
    out = []
    for msgid, args in parts:
        if args:
            out.append(esc(tr(msgid)) % {k: arg(v) for k, v in args.items()})
        else:
            out.append(esc(tr(msgid)))
    return " ".join(out)


class Import(models.Model):
    """The log of every ingestion attempt, accepted or refused."""
    at = models.DateTimeField()
    source = models.CharField(max_length=20)
    name = models.CharField(max_length=200)
    sha256 = models.CharField(max_length=64, blank=True)
    bowl_id = models.CharField(max_length=32, blank=True)
    game_no = models.PositiveIntegerField(default=0)
    customers = models.PositiveIntegerField(default=0)  # the game's customers at this import (the rate)
    new_awards = models.PositiveIntegerField(default=0)
    known_awards = models.PositiveIntegerField(default=0)
    message = models.TextField(blank=True)
    ok = models.BooleanField(default=False)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    repeats = models.PositiveIntegerField(default=1)  # the same refusal, this many times (mqttlog.py)
    # message as [[msgid, args], ...] (ingest.Text): translated when shown, in the reader's language
    parts = models.JSONField(default=list, blank=True)

    def shown(self):
        """The message in the language of the page (message itself: the English, for the log)."""
        return mark_safe(render_parts(self.parts, gettext, html=True)) if self.parts else self.message


class CheckLimit(models.Model):
    """Failed code checks of one attendant, kept in the database so that a new
    session or a restart does not reset the wait."""
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    failures = models.PositiveIntegerField(default=0)
    wait_until = models.DateTimeField(null=True, blank=True)
    last_failed = models.DateTimeField(null=True, blank=True)  # a quiet spell after it forgives the count
    # the last code the desk found no award for (counter.find): counted as a failure, and taken
    # back when that code then checks out in full (its journal had not been imported yet)
    pending_code = models.CharField(max_length=8, blank=True)
    pending_wait = models.DateTimeField(null=True, blank=True)  # the wait that miss set (None: none)


class BowlStatus(models.Model):
    """A bowl's latest status from the event network (firmware/PROTOCOL.md), as
    it arrives (the broker retains it). online False: the bowl said goodbye or
    the broker published its will; the rest stays as last reported."""
    bowl = models.OneToOneField(Bowl, on_delete=models.CASCADE, related_name="net_status")
    online = models.BooleanField(default=False)
    game_no = models.PositiveIntegerField(default=0)
    fw = models.CharField(max_length=32, blank=True)
    left = models.JSONField(default=list)  # [[class, n], ...] as the bowl counts it
    faults = models.JSONField(default=list)  # part names
    seen = models.DateTimeField()  # when the desk received it (the bowl has no trusted clock)
    bat = models.PositiveIntegerField(default=0)  # battery mV as the bowl reports it (0: unknown)
    # outbox.status_order of the last status taken: an older one is a replay and refused
    status_order = models.BigIntegerField(default=0)
    tls = models.BooleanField(null=True)  # the bowl talks TLS to the broker (False: its net.txt says tls=off)


class Champion(models.Model):
    """A table's 状元 as its bowl last reported it (firmware/PROTOCOL.md, topic champion:
    the latest game of the bowl). final_no: its number in the 状元王中王, once the
    desk drew the order (champion 1..n on the final's bowl)."""
    bowl = models.OneToOneField(Bowl, on_delete=models.CASCADE, related_name="champion")
    game_no = models.PositiveIntegerField()
    seat = models.PositiveIntegerField(default=0)  # 0: no 状元
    dice = models.JSONField(null=True)
    rank = models.CharField(max_length=20, blank=True)
    ended = models.BooleanField(default=False)
    final_no = models.PositiveIntegerField(null=True)
    seen = models.DateTimeField()


class Final(models.Model):
    """A 状元王中王 played on a bowl (topics final and finalroll), by its identity.
    rolls: {"i": [champion, round, dice or None for a spill, rank]}, each event once."""
    bowl = models.ForeignKey(Bowl, on_delete=models.CASCADE)
    fid = models.PositiveIntegerField()
    players = models.PositiveIntegerField(default=0)  # 0 until its state arrived
    round = models.PositiveIntegerField(default=1)
    turn = models.PositiveIntegerField(default=0)
    events = models.PositiveIntegerField(default=0)
    winner = models.PositiveIntegerField(default=0)
    dice = models.JSONField(null=True)
    rank = models.CharField(max_length=20, blank=True)
    rolls = models.JSONField(default=dict)
    seen = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["bowl", "fid"], name="one_final")]



class FinalBowl(models.Model):
    """The bowl the MC named as the 状元王中王's when drawing the order: only its final and
    finalroll messages are taken (one row)."""
    bowl = models.ForeignKey(Bowl, on_delete=models.CASCADE)
    named = models.DateTimeField()


class Event(models.Model):
    """A mall event whose bowls share one prize stock (firmware/PROTOCOL.md,
    "Shared stock"). `started`: when the desk first set its stock; the page
    counts the event's awards from then on."""
    name = models.CharField(max_length=32, unique=True)
    started = models.DateTimeField()

    def __str__(self):
        return self.name


class EventClass(models.Model):
    """The event's total of one prize class, and the step a bowl's grant of it
    is raised by (0: the default, ceil(total / (2 * bowls)))."""
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="classes")
    cls = models.CharField(max_length=20)
    total = models.PositiveIntegerField()
    step = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "cls"], name="one_total")]


class Allot(models.Model):
    """One grant to a bowl: its CUMULATIVE grant per class ([[class, n], ...],
    highest class first) under sequence number `seq` (1, 2, ...). A new grant is
    a new row, so the bowl's current grant is its highest seq, and every older
    one stays (a stale ask is judged against the grant it had)."""
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="allots")
    bowl = models.ForeignKey(Bowl, on_delete=models.PROTECT)
    seq = models.PositiveIntegerField()
    grant = models.JSONField()
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "bowl", "seq"], name="one_grant")]


class ShakeGrant(models.Model):
    """Shakes granted at the counter (firmware/PROTOCOL.md "Shakes from the
    counter"): `gid` numbers a bowl's grants 1, 2, ... (the bowl takes only a
    newer one); `state`: new (not yet published), sent (retained in the broker),
    got (on the bowl's flash), used (its customer shook), no (the bowl refused:
    `why`). The listener publishes a bowl's grants one at a time, oldest first."""
    STATES = ("new", "sent", "got", "used", "no")
    event = models.CharField(max_length=32)
    bowl = models.ForeignKey(Bowl, on_delete=models.PROTECT)
    gid = models.PositiveIntegerField()
    n = models.PositiveSmallIntegerField()
    ref = models.CharField(max_length=24, blank=True)
    by = models.CharField(max_length=150)
    at = models.DateTimeField()
    state = models.CharField(max_length=4, default="new")
    why = models.CharField(max_length=200, blank=True)
    acked = models.DateTimeField(null=True)
    # the receipt as compared (shakegrants.receipt_key): one grant per receipt and event, the
    # database's constraint deciding between counters; a second only on a supervisor's tick
    receipt = models.CharField(max_length=24, blank=True)
    again_by = models.CharField(max_length=150, blank=True)  # the supervisor who allowed a second grant

    class Meta:
        constraints = [models.UniqueConstraint(fields=["bowl", "gid"], name="one_shake_grant"),
                       models.UniqueConstraint(fields=["event", "receipt"], name="one_grant_per_receipt",
                                               condition=~models.Q(receipt="") & models.Q(again_by=""))]


class AttendantLanguage(models.Model):
    """The language an attendant chose with the switch while logged in: their pages are in it
    on any device, from the login on (middleware.attendant_language); without one, the
    browser's cookie or Accept-Language decides."""
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="desk_language")
    language = models.CharField(max_length=10)


class Commitment(models.Model):
    """A fair event kiosk's commitment for a customer's shakes (firmware/PROTOCOL.md
    "Verifiable fairness"), public: `commit` the bowl's SHA-256 of its secret,
    recorded at `seen`; `desk` the desk's random value (hex), sent after; `secret`
    and `rolls` its reveal, `revealed` when; `verdict` the check at the reveal.
    Identity (bowl, game, q): every commitment is kept, a retried one too."""
    bowl = models.ForeignKey(Bowl, on_delete=models.PROTECT)
    game_no = models.PositiveIntegerField()
    q = models.PositiveIntegerField()
    customer = models.PositiveIntegerField()
    commit = models.CharField(max_length=64)
    seen = models.DateTimeField()
    desk = models.CharField(max_length=32)
    secret = models.CharField(max_length=64, blank=True)
    rolls = models.JSONField(default=list)
    revealed = models.DateTimeField(null=True)
    verdict = models.CharField(max_length=200, blank=True)
    # the reveal said no desk value came in time: the rolls are the bowl's own dice (unverified)
    unseeded = models.BooleanField(default=False)
    # fair format 2 (the bowls' now): one row per customer (q is the customer), `commit`
    # his chain's anchor (FairChain), `desk` his one value whenever he is asked for
    fmt = models.PositiveSmallIntegerField(default=1)
    # format 2: the customer's own 16 bytes (hex) from his phone, passed on to the bowl
    # (useed_sent once published), and the one his dice used (the reveal's "p")
    useed = models.CharField(max_length=32, blank=True)
    useed_sent = models.BooleanField(default=False)
    upicked = models.CharField(max_length=32, blank=True)
    log_n = models.PositiveIntegerField(null=True)  # the reveal's entry in FairLog: the customer's receipt
    left = models.JSONField(null=True)  # format 2: the stock at his start, per class (his commit's "l")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["bowl", "game_no", "q"], name="one_commitment")]


class FairChain(models.Model):
    """Fair format 2: the anchor a bowl committed to for customers (a-1)*n+1 .. a*n of a
    game (bobing/fair.py), recorded at `seen` with the chain's first customer; the
    first stands, another anchor for the same chain is refused."""
    bowl = models.ForeignKey(Bowl, on_delete=models.PROTECT)
    game_no = models.PositiveIntegerField()
    a = models.PositiveIntegerField()
    n = models.PositiveIntegerField()
    anchor = models.CharField(max_length=64)
    seen = models.DateTimeField()
    rules = models.CharField(max_length=120, blank=True)  # the game's rules its first commit named (first stands)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["bowl", "game_no", "a"], name="one_chain")]


class FairLog(models.Model):
    """The desk's append-only, hash-chained log of what fairness rests on (fair format 2):
    each chain anchor recorded, each desk value sent, each customer seed taken, each reveal,
    in order; `head` = SHA-256("bobing-log-v1|" + the previous head + "|" + body), so a row
    deleted or changed later breaks every head after it, and a receipt holding an old head
    shows whether a later export still holds the same history (host_sim/desk/fair.py)."""
    kind = models.CharField(max_length=8)
    body = models.TextField()
    head = models.CharField(max_length=64)
    at = models.DateTimeField()


class PaceRule(models.Model):
    """The promoter's release schedule of one class of an event (host_sim/desk/pacing.py): at
    most `n` of it handed out by the bowls in each `per` (an hour or a day of the desk's clock).
    Only the stock granted to bowls is paced: the dice and the rules never see it."""
    PERIODS = ("hour", "day")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="pace")
    cls = models.CharField(max_length=20)
    n = models.PositiveIntegerField()
    per = models.CharField(max_length=4)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "cls"], name="one_pace")]


class Handover(models.Model):
    """A change of shift at the counter (host_sim/desk/shift.py): the attendant going off
    (`off_by`, logged in) counted the shelf, the one coming on (`on_by`, by his password) saw it."""
    event = models.ForeignKey(Event, on_delete=models.PROTECT)
    at = models.DateTimeField()
    off_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    on_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")


class HandoverCount(models.Model):
    """One class of a hand-over: what the desk says the shelf holds (granted to the bowls minus
    handed over) and what was counted; a difference stays open until a supervisor closes it."""
    handover = models.ForeignKey(Handover, on_delete=models.CASCADE, related_name="counts")
    cls = models.CharField(max_length=20)
    expected = models.IntegerField()
    counted = models.PositiveIntegerField()
    closed_by = models.CharField(max_length=150, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    close_note = models.CharField(max_length=200, blank=True)

    @property
    def diff(self):
        return self.counted - self.expected
