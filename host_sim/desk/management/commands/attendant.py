"""attendant NAME: add an attendant, or set a new password for one. The password
is asked twice (or read from stdin with --password-stdin) and checked by
Django's validators; it is stored as an Argon2id hash."""
import getpass
import sys

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, p):
        p.add_argument("name", help="the attendant's login name")
        p.add_argument("--password-stdin", action="store_true", help="read the password from stdin (one line)")

    def handle(self, *args, name, password_stdin, **kw):
        name = name.strip()
        if not name or len(name) > 150:
            raise CommandError("name %r: 1..150 characters" % name)
        User = get_user_model()
        user = User.objects.filter(username=name).first() or User(username=name)
        if password_stdin:
            pw = sys.stdin.readline().rstrip("\n")
        else:
            pw = getpass.getpass("password for %s: " % name)
            if getpass.getpass("again: ") != pw:
                raise CommandError("the two passwords differ; nothing changed")
        try:
            password_validation.validate_password(pw, user)
        except ValidationError as e:
            raise CommandError("password refused: %s" % " ".join(e.messages))
        new = user.pk is None
        user.set_password(pw)
        user.save()
        self.stdout.write("%s attendant %s" % ("added" if new else "new password for", name))
