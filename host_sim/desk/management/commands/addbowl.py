"""addbowl ID (--secret-hex HEX | --secret TEXT): tell the desk a kiosk bowl and
its claim-code secret (the bowl's admin menu 领奖密钥 shows it in hex). Run it
again with a new secret after the bowl made a new one. The secret is kept in
the desk's database and never shown on a page."""
import binascii

from django.core.management.base import BaseCommand, CommandError

from bobing import claim

from host_sim.desk.models import Bowl


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, p):
        p.add_argument("bowl", metavar="ID", help="the bowl id (admin menu 碗号)")
        s = p.add_mutually_exclusive_group(required=True)
        s.add_argument("--secret-hex", metavar="HEX", help="the secret as hex, as the bowl shows it")
        s.add_argument("--secret", metavar="TEXT", help="the secret as text")

    def handle(self, *args, bowl, secret_hex, secret, **kw):
        bowl = bowl.strip()
        if not bowl or len(bowl) > 32 or "|" in bowl or "\n" in bowl:
            raise CommandError("碗号 bowl id %r: 1-32个字符，不含'|' 1..32 characters, no '|'" % bowl)
        if secret_hex is not None:
            try:
                key = binascii.unhexlify(secret_hex.strip().replace(" ", ""))
            except (binascii.Error, ValueError) as e:
                raise CommandError("--secret-hex: %s（用十六进制数字写 write the bytes as hex digits, e.g. 3f9a...)"
                                   % e)
        else:
            key = secret.encode()
        try:
            key = claim.check_secret(key)
        except ValueError as e:
            raise CommandError("%s（碗的密钥是16字节：32个十六进制数字 a bowl's is 16 bytes: 32 hex digits)" % e)
        b, new = Bowl.objects.update_or_create(bowl_id=bowl, defaults={"secret": key})
        self.stdout.write("%s bowl %s" % ("已添加 added" if new else "新密钥 new secret for", bowl))
