"""attendant NAME: add an attendant, or set a new password for one. The password
is asked twice (or read from stdin with --password-stdin) and checked by
Django's validators; it is stored as an Argon2id hash.

A supervisor's settings for an attendant (--language, --supervisor,
--no-supervisor): given for an attendant the desk has, they change only what
they name (the password stays unless --password-stdin is given too); for a new
one, the password is asked as well.
  --language zh|en       their pages in Chinese or English on any browser, from
                         the login on (as the switch on the pages would keep it);
                         --language browser: their browser decides again
  --supervisor           may accept a journal without seals (the Import page's tick)"""
import getpass
import sys

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand
from django.db import transaction

from host_sim.desk import inputs

# what --language takes -> the desk's language code (settings.LANGUAGES); None: the browser's
LANGUAGE = {"zh": "zh-hans", "zh-hans": "zh-hans", "zh_hans": "zh-hans", "zh-cn": "zh-hans", "en": "en",
            "browser": None}


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, p):
        p.add_argument("name", help="the attendant's login name")
        p.add_argument("--password-stdin", action="store_true", help="read the password from stdin (one line)")
        p.add_argument("--language", metavar="zh|en|browser",
                       help="the attendant's pages in Chinese (zh) or English (en); browser: as the browser says")
        staff = p.add_mutually_exclusive_group()
        staff.add_argument("--supervisor", action="store_true", default=None,
                           help="may accept journals without seals (older firmware)")
        staff.add_argument("--no-supervisor", dest="supervisor", action="store_false",
                           help="an attendant only")

    def handle(self, *args, name, password_stdin, language=None, supervisor=None, **kw):
        name = name.strip()
        if not name or len(name) > 150:
            raise inputs.refuse("名字 name %r: 1-150个字符 1..150 characters" % name)
        if language is not None:
            key = language.strip().lower()
            if key not in LANGUAGE:
                raise inputs.refuse("--language %r: 可用 one of zh (%s), en (English), browser（随浏览器 as the "
                                   "browser says）；未作任何更改 nothing changed"
                                   % (language, dict(settings.LANGUAGES)["zh-hans"]))
            language = key
        User = get_user_model()
        user = User.objects.filter(username=name).first() or User(username=name)
        new = user.pk is None
        settings_only = not new and not password_stdin and (language is not None or supervisor is not None)
        pw = None
        if not settings_only:
            if password_stdin:
                pw = sys.stdin.readline(1024).rstrip("\n")
            else:
                if not sys.stdin.isatty():  # getpass would read the pipe, or end in EOFError
                    raise inputs.refuse("没有终端可询问密码 no terminal to ask the password on: give it on stdin "
                                        "with --password-stdin; 未作任何更改 nothing changed")
                pw = getpass.getpass("password for %s: " % name)
                if getpass.getpass("again: ") != pw:
                    raise inputs.refuse("两次密码不同，未作任何更改 the two passwords differ; nothing changed")
            try:
                password_validation.validate_password(pw, user)
            except ValidationError as e:
                raise inputs.refuse("密码不被接受 password refused: %s" % " ".join(e.messages))
        from host_sim.desk.models import AttendantLanguage
        done = []
        with transaction.atomic():
            if pw is not None:
                user.set_password(pw)
                done.append("added attendant" if new else "new password for")
            if supervisor is not None:
                user.is_staff = supervisor
                done.append("supervisor" if supervisor else "not a supervisor")
            user.save()
            if language is not None:
                code = LANGUAGE[language]
                if code is None:
                    AttendantLanguage.objects.filter(user=user).delete()
                else:
                    AttendantLanguage.objects.update_or_create(user=user, defaults={"language": code})
                done.append("language %s" % (dict(settings.LANGUAGES)[code] if code else "as the browser says"))
        self.stdout.write("%s: %s" % (name, ", ".join(done)) if settings_only or len(done) > 1
                          else "%s %s" % (done[0], name))
