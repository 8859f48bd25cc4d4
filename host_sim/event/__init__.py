"""An event network on loopback, without hardware: simulated kiosk bowls running the real
firmware (kiosk_bowl.py on the 32-bit frozen MicroPython unix port, each its own process and flash
folder), a real mosquitto and the prize desk. Shared by `python -m host_sim event-demo`
(host_sim/cli/event_demo.py) and the tests' load and fault run (tests/harness/event_sim.py)."""
import binascii
import os
import socket
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOWL_SCRIPT = os.path.join(ROOT, "host_sim", "event", "kiosk_bowl.py")
# `make mp` builds it; the one place its path is spelled (tests/portable.py takes it from here)
MP32_FROZEN = os.path.join(ROOT, "build", "mp", "unix32-frozen", "micropython")
SSID, WIFI_KEY = "event-ap", "mooncake88"  # the simulated access point (host_sim/portable/fakes/wlan.py)
PIN = "2468"  # the kiosks' admin PIN (a kiosk with 1234 lets nobody in)


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now (the OS picks it)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def write_flash(root, bowl_id, secret, port, event, stock=None, fair=False, fair_wait=60, user="", password=""):
    """A kiosk's flash folder as provisioning leaves it: settings.txt, claim.key, net.txt. stock:
    {class: n}, the bowl's own (net.txt stock=bowl), else it plays on the event's shared stock.
    fair: verifiable dice, a customer waiting fair_wait s of the bowl's clock for the desk's value."""
    os.makedirs(root)
    with open(os.path.join(root, "settings.txt"), "w") as f:
        own = "" if stock is None else "stock=%s\n" % ",".join("%s=%d" % kv for kv in sorted(stock.items()))
        f.write("mode=kiosk\nkiosk_profile=kiosk\nbowl_id=%s\nidle_min=0\npin=%s\n%s" % (bowl_id, PIN, own))
    with open(os.path.join(root, "claim.key"), "w") as f:
        f.write(binascii.hexlify(secret).decode())
    login = "user=%s\nmqtt_password=%s\n" % (user, password) if user else ""
    with open(os.path.join(root, "net.txt"), "w") as f:
        f.write("ssid=%s\npassword=%s\ntls=off\nbroker=127.0.0.1\nport=%d\nevent=%s\n%s%s%s"
                % (SSID, WIFI_KEY, port, event, login, "" if stock is None else "stock=bowl\n",
                   "fair_wait=%d\n" % fair_wait if fair else "fair=off\n"))


def ctl(root, words):
    """What the bowl's customers do next (kiosk_bowl.py's ROOT.ctl): play, idle, exit, nowifi."""
    with open(root + ".ctl.tmp", "w") as f:
        f.write(words + "\n")
    os.replace(root + ".ctl.tmp", root + ".ctl")  # the bowl reads a whole file, old or new


def start_bowl(root, speed, gap_ms=0, mp=MP32_FROZEN, new_session=False):
    """The bowl's process (its output in ROOT.out). new_session: out of the terminal's process
    group, so that a Ctrl-C reaches only its starter, which stops it in order."""
    with open(root + ".out", "a") as out:
        return subprocess.Popen([mp, BOWL_SCRIPT, root, str(speed), str(gap_ms)], cwd=ROOT, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=new_session)


def passwords(stdout):
    """What `python -m host_sim broker` printed -> {user: password} (each new one, printed once)."""
    got = {}
    for line in stdout.splitlines():
        if line.startswith("desk: "):
            got["desk"] = line.split("MQTT_PASSWORD=")[1].split()[0]
        elif line.startswith("bowl "):
            got[line.split()[1].rstrip(":")] = line.split("MQTT_PASSWORD=")[1].split()[0]
    return got


def desk_env(desk_dir, **more):
    e = dict(os.environ, BOBING_DESK_DIR=desk_dir, **more)
    e.pop("DJANGO_SETTINGS_MODULE", None)
    return e
