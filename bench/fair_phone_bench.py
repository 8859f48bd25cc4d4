# The customer's phone check (the receipt page /V/..., static/desk/verify.js): the bytes
# the phone loads (the page, verify.js, MicroPython's WebAssembly port, the bowl's four
# modules) and the time from the page's script start to its verdict (loading the port,
# fetching the modules, the check itself), first visit and again from the service worker's
# cache, in Debian's headless Chromium against the real desk server on loopback. Prints
# figures, asserts nothing (`make bench`).
import os
import sys
import tempfile
import urllib.request

sys.path.insert(0, "tests")
sys.path.insert(0, ".")
from host_sim import compat
compat.install()  # the MicroPython shim; firmware/ importable
import deskkit  # noqa: E402

SETUP = """
from django.utils import timezone
from bobing import dice, fair, game
from host_sim.desk import bus
from host_sim.desk.models import Award, Bowl
root = bytes(range(32))
r, pub = bus.handle("fairbench", "bobing/fairbench/0091/commit", fair.commit2_payload(3, 1, 1, dice.chain_at(root, 0),
                                                                                     "kiosk", [1, 2, 5, 10, 20, 40]))
d = fair.decode_seed("fairbench", pub[0][0], pub[0][1], "0091")[3]
s = dice.chain_at(root, 1)
der = dice.Derived(s, d, 3, 1, bytes(16))
rolls = ["".join(str(f) for f in der.roll(i, bytearray(6))) for i in range(3)]
for n, c in enumerate([c for w in game.turn_awards("kiosk", [1, 2, 5, 10, 20, 40], rolls) for c in w], 1):
    Award.objects.create(bowl=Bowl.objects.get(bowl_id="0091"), game_no=3, award_no=n, cls=c, customer=1,
                         code="X%d" % n, source="mqtt", seen=timezone.now())
print(bus.handle("fairbench", "bobing/fairbench/0091/reveal", fair.reveal2_payload(3, 1, s, rolls))[0])
"""


def main():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait
    tmp = tempfile.mkdtemp(prefix="fair_phone_")
    s = deskkit.Server(tmp)
    s.manage("addbowl", "0091", "--secret-hex", bytes(range(16)).hex())
    assert s.manage("shell", "-c", SETUP).stdout.split()[-1] == "reveal"
    s.start()
    o = webdriver.ChromeOptions()
    o.binary_location = deskkit.CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=412,915",
                 "--user-data-dir=" + os.path.join(tmp, "profile")):
        o.add_argument(flag)
    d = webdriver.Chrome(options=o, service=Service(executable_path=deskkit.DRIVER))
    try:
        url = s.url + "/V/0091/3-1"
        sizes = {}
        for path in ("/V/0091/3-1", "/static/desk/verify.js", "/static/desk/mpwasm/micropython.mjs",
                     "/static/desk/mpwasm/micropython.wasm", "/fair/fw/dice.py", "/fair/fw/profiles.py",
                     "/fair/fw/rules.py", "/fair/fw/game.py"):
            with urllib.request.urlopen(s.url + path) as r:
                sizes[path] = len(r.read())
        times = []
        for _ in range(3):
            d.get(url)
            WebDriverWait(d, 60).until(lambda d: d.find_element("id", "verdict").get_attribute("data-done"))
            v = d.find_element("id", "verdict")
            assert v.get_attribute("data-done") == "ok", v.text
            times.append(int(v.get_attribute("data-ms")))
        wasm = sizes["/static/desk/mpwasm/micropython.wasm"] + sizes["/static/desk/mpwasm/micropython.mjs"]
        fw = sum(n for p, n in sizes.items() if p.startswith("/fair/fw/"))
        print("phone check: %d bytes loaded (the page %d, verify.js %d, MicroPython WebAssembly %d, the bowl's "
              "modules %d); time to the verdict %d ms the first visit, then %s ms (headless Chromium, loopback)"
              % (sum(sizes.values()), sizes["/V/0091/3-1"], sizes["/static/desk/verify.js"], wasm, fw, times[0],
                 " and ".join(str(t) for t in times[1:])))
    finally:
        d.quit()
        s.stop()


main()
