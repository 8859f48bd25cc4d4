"""addbowl ID (--secret-hex HEX | --secret TEXT): tell the desk a kiosk bowl and
its claim-code secret (the bowl's admin menu 领奖密钥 shows it in hex). Run it
again with a new secret after the bowl made a new one. The secret is kept in
the desk's database and never shown on a page."""
import binascii

from django.core.management.base import BaseCommand

from bobing import claim

from host_sim.desk import inputs
from host_sim.desk.models import Bowl


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, p):
        p.add_argument("bowl", metavar="ID", help="the bowl id (admin menu 碗号)")
        s = p.add_mutually_exclusive_group(required=True)
        s.add_argument("--secret-hex", metavar="HEX", help="the secret as hex, as the bowl shows it")
        s.add_argument("--secret", metavar="TEXT", help="the secret as text")

    def handle(self, *args, bowl, secret_hex, secret, **kw):
        try:
            bowl = inputs.bowl_id(bowl)  # what a bowl can have; 1 is 0001
        except inputs.Bad as e:
            raise inputs.refuse("%s; 未作任何更改 nothing changed" % e)
        if secret_hex is not None:
            try:
                key = binascii.unhexlify(secret_hex.strip().replace(" ", ""))
            except (binascii.Error, ValueError) as e:
                raise inputs.refuse("--secret-hex: %s（用十六进制数字写 write the bytes as hex digits, e.g. 3f9a...)"
                                   % e)
        else:
            key = secret.encode()
        try:
            key = claim.check_secret(key)
        except ValueError as e:
            raise inputs.refuse("%s（碗的密钥是16字节：32个十六进制数字 a bowl's is 16 bytes: 32 hex digits)" % e)
        had = inputs.find_bowl(bowl)  # the same number under an older desk's form (1) stays that bowl
        if had is not None:
            had.secret = key
            had.save(update_fields=["secret"])
            self.stdout.write("新密钥 new secret for bowl %s" % had.bowl_id)
        else:
            Bowl.objects.create(bowl_id=bowl, secret=key)
            self.stdout.write("已添加 added bowl %s" % bowl)
