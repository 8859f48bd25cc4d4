"""THE way an award reaches the desk's database: `ingest()`. A journal file
(uploaded on the import page or given to `python -m host_sim.desk import`)
goes through `ingest_journal()`, which reads it with the firmware's own
journal.scan and game.Table (the very code the bowl replays at boot) and hands
the awards to `ingest()`. The event network's listener (bus.py)
calls `ingest()` the same way with the awards a bowl publishes.

`ingest()` is idempotent on (bowl, game number, award number): an award the
desk already has changes nothing, so the same journal imported twice, an
older copy of it, or an award that arrives by file and by network is counted
once. Everything one call records is one transaction: refused, nothing is
written (except the line in the import log that says why)."""
import hashlib
import logging
import os
import stat
import tempfile

from django.db import transaction
from django.db.models import Count, F, Min
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from bobing import claim, journal, outbox, seal
from host_sim.cli.replay_journal import game_id_of
from host_sim.analysis import journal_text

from . import allot, inputs
from .models import Award, Bowl, Event, Game, Import, Redemption, render_parts

log = logging.getLogger("desk")


class Refused(ValueError):
    """Input the desk will not record. msgid: the English (marked gettext_noop for the catalogue)
    with %(name)s for args; str() is the English, for the log; shown() in the page's
    language. parts ([[msgid, args]]) is what the import log keeps, to translate when shown."""

    def __init__(self, msgid, **args):
        self.parts = [[msgid, args]]
        super().__init__(render_parts(self.parts, str))

    def shown(self):
        return render_parts(self.parts, gettext)


def _kind(problem):
    zh, en = journal_text.kind(problem)
    return {"zh": zh, "en": en}


class OverStock(Refused):
    """An award beyond what the desk granted the bowl, or beyond the event's total."""


OVER_GRANT = gettext_noop("bowl %(bowl)s: %(n)d more %(cls)s would make %(sum)d, beyond its grant of "
                          "%(grant)d (event %(event)s): refused")
OVER_TOTAL = gettext_noop("bowl %(bowl)s: %(n)d more %(cls)s would make %(sum)d for the event's bowls, "
                          "beyond the event's total of %(total)d (event %(event)s): refused")


class GameState:
    """Where a bowl's game stands: stock and left as [[class, n], ...] (highest
    class first), customers served, events, ended; by_key: of the customers, those the
    attendant's key let in, key_minutes the game's minute of each (journal format 4)."""

    def __init__(self, profile, stock, left, customers, events, ended, options=None, by_key=0, key_minutes=()):
        self.profile = profile
        self.options = dict(options or {})
        self.stock = stock
        self.left = left
        self.customers = customers
        self.events = events
        self.ended = ended
        self.by_key = by_key
        self.key_minutes = list(key_minutes)


class Result:
    def __init__(self, bowl_id, game_no, new, known, parts):
        self.bowl_id = bowl_id
        self.game_no = game_no
        self.new = new
        self.known = known
        self.parts = parts

    @property
    def message(self):
        """The English, for the log and the command line."""
        return render_parts(self.parts, str)

    def shown(self):
        return render_parts(self.parts, gettext)


def ingest(bowl_id, game_no, awards, state=None, source="journal", name="", sha256="", user=None, note=None,
           event=None, notes=(), journal_format=None):
    """Record awards of one game of one bowl. awards: (award_no, cls, customer)
    triples. state: a GameState, or None. note: [msgid, args] added to the message (a
    damaged journal's problem; notes: more of them). -> Result. Refused (logged, nothing recorded) for an
    unknown bowl, or an award whose class contradicts what the desk has (a
    different game under the same number?). An award's code is made here with
    the bowl's secret as the desk has it now: import a game before telling the
    desk the bowl's next secret. event: the event whose shared stock bounds the
    awards of a bowl it granted stock to (OverStock beyond its grant or the total).
    journal_format: a journal file's format (None: not a file): a sealed one marks the bowl as
    sealing, an unsealed one of a bowl so marked is refused (downgrade(), under the write lock)."""
    now = timezone.now()
    entry = Import(at=now, source=source, name=name[:200], sha256=sha256, bowl_id=str(bowl_id)[:32],
                   game_no=game_no if isinstance(game_no, int) and game_no > 0 else 0,
                   by=user if user is not None and user.is_authenticated else None)
    try:
        with transaction.atomic():
            r = _ingest(bowl_id, game_no, awards, state, source, now, event, journal_format)
            for n in ([note] if note else []) + list(notes):
                r.parts.append(n)
            entry.new_awards, entry.known_awards, entry.message, entry.ok = r.new, r.known, r.message, True
            entry.parts = r.parts
            entry.customers = state.customers if state is not None else 0
            entry.save()
    except Refused as e:
        entry.message, entry.parts = str(e), e.parts
        entry.save()
        if isinstance(e, OverStock):
            Bowl.objects.filter(pk=getattr(inputs.find_bowl(bowl_id), "pk", None)).update(
                refused_over=F("refused_over") + 1, refused_note=str(e)[:200])
        log.warning("import refused: %s: %s", name or source, e)
        raise
    (log.warning if note or notes else log.info)("import %s: %s", name or source, r.message)
    return r


def _within_stock(event, bowl, new):
    """OverStock if the awards new (Award rows) take the bowl beyond its cumulative grant
    of a class, or the event's bowls beyond the event's total. Counted as the bowls page
    counts: the awards of the event's bowls seen since the event started."""
    ev = Event.objects.filter(name=event).first()
    if ev is None or not new:
        return
    cur = allot.current(ev)
    if bowl.bowl_id not in cur:
        return  # a kiosk on its own stock: not the event's to bound
    grant = cur[bowl.bowl_id][1]
    totals = {c: t for c, (t, _step) in allot.steps(ev).items()}
    adding = {}
    for a in new:
        adding[a.cls] = adding.get(a.cls, 0) + 1
    since = Award.objects.filter(seen__gte=ev.started, cls__in=list(adding))
    mine = dict(since.filter(bowl=bowl).values_list("cls").annotate(n=Count("id")))
    every = dict(since.filter(bowl__bowl_id__in=list(cur)).values_list("cls").annotate(n=Count("id")))
    for c, n in adding.items():
        if mine.get(c, 0) + n > grant.get(c, 0):
            raise OverStock(OVER_GRANT, bowl=bowl.bowl_id, n=n, cls=c,
                            sum=mine.get(c, 0) + n, grant=grant.get(c, 0), event=event)
        if every.get(c, 0) + n > totals.get(c, 0):
            raise OverStock(OVER_TOTAL,
                            bowl=bowl.bowl_id, n=n, cls=c, sum=every.get(c, 0) + n, total=totals.get(c, 0),
                            event=event)


def _ingest(bowl_id, game_no, awards, state, source, now, event=None, journal_format=None):
    if not isinstance(game_no, int) or not 1 <= game_no <= journal.MAX_GAME_ID:
        raise Refused(gettext_noop("game number %(game)s: must be 1..%(max)d"),
                      game=repr(game_no), max=journal.MAX_GAME_ID)
    bowl = inputs.find_bowl(bowl_id)  # the bowl's 0001 is the desk's 1 (addbowl of an older desk)
    if bowl is None:
        raise Refused(gettext_noop("bowl %(bowl)s is not known to the desk: add it with its secret first "
                                   "(%(command)s)"), bowl=repr(bowl_id),
                      command={"code": "python -m host_sim.desk addbowl %s --secret-hex HEX" % (bowl_id or "ID")})
    if journal_format is not None:
        if journal_format < journal.SEALED:
            downgrade(bowl, game_no)
        elif not bowl.sealed_game:
            bowl.sealed_game, bowl.sealed_at = game_no, now
            bowl.save(update_fields=["sealed_game", "sealed_at"])
    secret = bytes(bowl.secret)
    known = {a.award_no: a.cls for a in Award.objects.filter(bowl=bowl, game_no=game_no)}
    redeemed = {r.award_no: r.cls for r in Redemption.objects.filter(bowl=bowl, game_no=game_no)}
    new = []
    n_known = 0
    for award_no, cls, customer in awards:
        had = known.get(award_no) or redeemed.get(award_no)
        if had is not None and had != cls:
            raise Refused(gettext_noop("bowl %(bowl)s game %(game)d award %(award)d is %(had)s here but %(cls)s "
                                       "in this import: a different game under the same number? "
                                       "Nothing was imported"),
                          bowl=bowl_id, game=game_no, award=award_no, had=had, cls=cls)
        if award_no in known:
            n_known += 1
            continue
        if allot.unknown_classes([cls]):
            raise Refused(gettext_noop("award %(award)s: prize class %(cls)s is not one of the firmware's classes; "
                             "nothing was imported"), award=repr(award_no), cls=repr(str(cls)[:40]))
        try:
            code = claim.code(secret, bowl_id, game_no, award_no, cls)  # as the bowl signs it
        except ValueError as e:
            raise Refused(gettext_noop("award %(award)s of class %(cls)s%(why)s"), award=repr(award_no), cls=repr(cls),
                          why={"en": ": " + str(e)})
        known[award_no] = cls
        new.append(Award(bowl=bowl, game_no=game_no, award_no=award_no, cls=cls, customer=customer,
                         code=code, source=source, seen=now))
    if event is not None:
        _within_stock(event, bowl, new)
    Award.objects.bulk_create(new)
    if state is not None:
        g = Game.objects.filter(bowl=bowl, game_no=game_no).first()
        if g is None:
            g = Game(bowl=bowl, game_no=game_no)
        if g.pk is None or state.events >= g.events:  # an older copy never rolls the state back
            g.profile, g.options, g.stock, g.left = state.profile, state.options, state.stock, state.left
            g.customers, g.events, g.ended, g.updated = state.customers, state.events, state.ended, now
            g.by_key, g.key_minutes = state.by_key, state.key_minutes
            g.save()
    msg = (gettext_noop("bowl %(bowl)s game %(game)d: %(new)d new award, %(known)d already known") if len(new) == 1 else
           gettext_noop("bowl %(bowl)s game %(game)d: %(new)d new awards, %(known)d already known"))
    return Result(bowl_id, game_no, len(new), n_known,
                  [[msg, {"bowl": bowl_id, "game": game_no, "new": len(new), "known": n_known}]])


def _plain(text, path, name):
    """The firmware's words for a page: the file's own name, never the desk's temporary path."""
    return text.replace(path, os.path.basename(name or "journal"))


def read_journal(path, name=None):
    """A journal file -> (config, [(award_no, cls, customer), ...], GameState, problem
    [msgid, args] or None). The firmware reads it (journal.scan: checksums, settings, every
    event through game.Table); the awards are numbered by the same Table as on the
    bowl. A damaged tail leaves the good prefix (problem says what was wrong);
    a file with no good header is Refused."""
    s, t, awards = outbox.replay(path, game_id_of(name or path))
    if s.config is None:
        if s.problem is None:
            raise Refused(gettext_noop("not a journal"))
        raise Refused(gettext_noop("the journal cannot be read (%(kind)s)%(detail)s"), kind=_kind(s.problem),
                      detail={"en": ": " + _plain(s.problem.text, path, name)})
    cfg = s.config
    if not t.kiosk:
        raise Refused(gettext_noop("game %(game)d is a table game (profile %(profile)s): "
                                   "only kiosk games have claim codes"),
                      game=cfg.game_id, profile=cfg.profile)
    if not cfg.bowl_id:
        raise Refused(gettext_noop("game %(game)d names no bowl: "
                                   "set the bowl id on the bowl (管理 > 碗号) before a new game"),
                      game=cfg.game_id)
    if cfg.plays and not Event.objects.filter(name=cfg.stock[0]).exists():
        raise Refused(gettext_noop("game %(game)d is a game of event %(event)s, which this desk does not hold "
                         "(its events: %(events)s)"), game=cfg.game_id, event=repr(cfg.stock[0][:32]),
                      events=", ".join(Event.objects.order_by("name").values_list("name", flat=True)) or "-")
    stock = [[c, t.initial[c]] for c in t.classes]
    left = [[c, t.pool[c]] for c in t.classes]
    state = GameState(cfg.profile, stock, left, t.customer, s.count, t.ended, cfg.overrides, s.keyed, s.key_minutes)
    problem = None
    if s.problem is not None:
        problem = [gettext_noop("(the journal is damaged (%(kind)s)%(detail)s; "
                                "the %(count)d events before it were read)"),
                   {"kind": _kind(s.problem), "detail": {"en": ": " + _plain(s.problem.text, path, name)},
                    "count": s.count}]
    return cfg, awards, state, problem


def supervisor(user):
    """Who may accept a journal the desk cannot authenticate: staff or superuser."""
    return user is not None and user.is_authenticated and (user.is_staff or user.is_superuser)


DOWNGRADE = gettext_noop(
    "bowl %(bowl)s has sent the desk sealed journals since its game %(since)d, so this journal of game %(game)d "
    "in the older format, without the bowl's seal, is a downgrade (forged, or made to look like an older "
    "firmware's): refused, also on a supervisor's tick. Import the bowl's sealed journal of that game instead "
    "(copy it off the bowl again: %(command)s); a bowl put back on older firmware needs its firmware updated "
    "first")
DOWNGRADE_OLDER = gettext_noop(
    "bowl %(bowl)s has sent the desk sealed journals since its game %(since)d: a journal of it without the "
    "bowl's seal (this one, of game %(game)d) can no longer be told from a forged one and is refused, also on a "
    "supervisor's tick. If the bowl has this game's journal sealed, import that; else its customers' codes "
    "still hold at the counter: enter what the claim screen shows in the full form, and the bowl's secret "
    "checks them")


DOWNGRADE_NET = gettext_noop(
    "bowl %(bowl)s has sent the desk fair-dice messages over the network since its game %(since)d, which only "
    "firmware that seals its journals sends: a journal of it without the bowl's seal (this one, of game "
    "%(game)d) is a downgrade or forged, and is refused, also on a supervisor's tick. Import the bowl's sealed "
    "journal (%(command)s), or check its customers' codes at the counter in the full form")


def downgrade(bowl, game_no):
    """Refused if the desk knows the bowl's firmware seals: it accepted a sealed journal of
    it, or heard the bowl's fair dice over the network (bobing/fair.py came after seal.py:
    a firmware that commits to its dice seals its journals). A journal of it without seals
    was then not written by it (or not by a firmware the desk should trust)."""
    if bowl is None:
        return
    from .models import Commitment
    fair_since = Commitment.objects.filter(bowl=bowl).aggregate(g=Min("game_no"))["g"]
    if fair_since is not None and (not bowl.sealed_game or fair_since < bowl.sealed_game):
        raise Refused(DOWNGRADE_NET, bowl=bowl.bowl_id, since=fair_since, game=game_no,
                      command={"code": "mpremote cp :/data/g%08d.bbj ." % game_no})
    if bowl.sealed_game:
        if game_no < bowl.sealed_game:  # perhaps an older firmware's game, imported late
            raise Refused(DOWNGRADE_OLDER, bowl=bowl.bowl_id, since=bowl.sealed_game, game=game_no)
        raise Refused(DOWNGRADE, bowl=bowl.bowl_id, since=bowl.sealed_game, game=game_no,
                      command={"code": "mpremote cp :/data/g%08d.bbj ." % game_no})


def _authentic(path, base, unsealed_ok, user):
    """Before anything of the file is believed: a sealed journal's seals checked with
    the secret of the bowl its header names (bobing/seal.py), and the file cut to the
    part they authenticate; an old, unsealed one only when a supervisor accepts it.
    -> the notes to add to the import's message; Refused otherwise."""
    try:
        fmt, gid, bowl_id = seal.peek(path)
    except ValueError:
        return []  # no header to trust or not: the firmware's reading refuses it and says why
    if fmt > journal.FORMAT:
        return []  # a newer firmware's: refused as such by the reading
    if fmt < journal.SEALED:
        downgrade(inputs.find_bowl(bowl_id), gid)  # no tick lets it through
        if not unsealed_ok:
            read_journal(path, base)  # only to refuse with the firmware's reason first (a table game...)
            raise Refused(gettext_noop("this journal is in an old format (%(format)d) without the bowl's seal, so "
                                       "the desk cannot tell it from a forged one; only a supervisor can accept it "
                                       "(tick \"%(accept)s\")"), format=fmt, accept=[ACCEPT_LABEL])
        who = user.get_username() if user is not None and user.is_authenticated else "command line"
        return [[gettext_noop("(not authenticated: an old-format journal without the bowl's seal, accepted by "
                              "supervisor %(who)s)"), {"who": who}]]
    bowl = inputs.find_bowl(bowl_id)
    if bowl is None:
        raise Refused(gettext_noop("bowl %(bowl)s is not known to the desk: add it with its secret first "
                                   "(%(command)s)"), bowl=repr(bowl_id),
                      command={"code": "python -m host_sim.desk addbowl %s --secret-hex HEX" % (bowl_id or "ID")})
    try:
        checked = seal.verify(path, bytes(bowl.secret))
    except ValueError as e:
        raise Refused(gettext_noop("the journal's seal does not match bowl %(bowl)s's secret: it was not written "
                                   "by that bowl, or was changed after%(why)s"), bowl=bowl_id,
                      why={"en": " (%s)" % _plain(str(e), path, base)})
    os.truncate(path, checked.end)  # what follows the last good seal is not read at all
    if checked.bad is not None:
        return [[gettext_noop("(the journal fails its seal after its first %(n)d records: damaged, or changed "
                              "after it was written; only what the seals before it authenticate was read%(why)s)"),
                 {"n": checked.sealed, "why": {"en": ": " + checked.bad}}]]
    if checked.tail:
        return [[gettext_noop("(%(n)d records after the journal's last seal are not authenticated yet and were "
                              "left out: copy the journal again after the customer's turn)"), {"n": checked.tail}]]
    return []


ACCEPT_LABEL = gettext_noop("Accept a journal without the bowl's seal (older firmware; supervisors only)")


def ingest_journal(data, name, source="upload", user=None, unsealed_ok=False):
    """A journal's bytes (as uploaded, or read from a file) -> Result. Refused
    for anything that is not a readable kiosk journal of a known bowl, sealed with
    its secret (bobing/seal.py). An old journal without seals only with
    unsealed_ok: a supervisor's explicit acceptance (the caller checks who)."""
    sha = hashlib.sha256(data).hexdigest()
    base = os.path.basename(name or "journal")
    fd, path = tempfile.mkstemp(prefix="desk-", suffix=".bbj")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        try:
            notes = _authentic(path, base, unsealed_ok, user)
            cfg, awards, state, problem = read_journal(path, base)
            fmt = cfg.version
        except Refused as e:
            Import.objects.create(at=timezone.now(), source=source, name=base[:200], sha256=sha,
                                  message=str(e), parts=e.parts,
                                  by=user if user is not None and user.is_authenticated else None)
            log.warning("import refused: %s: %s", base, e)
            raise
    finally:
        os.remove(path)
    # an event game's awards are bounded by the bowl's grant and the event's total as the network's
    # are: a journal sealed with a secret taken off the bowl's flash could claim any number
    return ingest(cfg.bowl_id, cfg.game_id, awards, state, source, base, sha, user, problem, notes=notes,
                  journal_format=fmt, event=cfg.stock[0] if cfg.plays else None)


def ingest_file(path, user=None, source="command", unsealed_ok=False):
    """The command line's way in: a journal file on disk."""
    from django.conf import settings
    try:
        # O_NONBLOCK: a FIFO named here must not hang the command; then only a plain file
        # is read (a folder, /dev/zero, a FIFO are refused), and never more than the limit
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise OSError(0, "not a plain file (a folder, a device or a pipe)")
            with os.fdopen(os.dup(fd), "rb") as f:
                data = f.read(settings.MAX_JOURNAL_BYTES + 1)
        finally:
            os.close(fd)
    except OSError as e:
        raise Refused(gettext_noop("%(path)s cannot be read%(why)s"),
                      path=path, why={"en": ": " + str(e.strerror or e)})
    if len(data) > settings.MAX_JOURNAL_BYTES:
        raise Refused(gettext_noop("%(path)s is %(size)d bytes; a journal is at most %(max)d (is it a journal?)"),
                      path=path, size=max(len(data), st.st_size), max=settings.MAX_JOURNAL_BYTES)
    return ingest_journal(data, path, source, user, unsealed_ok)


