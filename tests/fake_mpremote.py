#!/usr/bin/env python3
# A stand-in for mpremote in `make deploy` tests: the bowl is a folder (its flash filesystem,
# FAKE_BOWL_FS) and a 32-bit unix MicroPython (FAKE_BOWL_MP: the frozen build for a bowl that runs
# the frozen image, the stock build for one that does not). `run FILE` and `exec CODE` run on that
# MicroPython in the folder, as mpremote runs them in the bowl's root; `cp`, `mip install` and
# `reset` act on the folder. Every command is appended to FAKE_LOG.
import os
import shutil
import subprocess
import sys


def device(code):
    p = subprocess.run([os.environ["FAKE_BOWL_MP"], "-c", code], cwd=os.environ["FAKE_BOWL_FS"],
                       capture_output=True, text=True, timeout=120)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    return p.returncode


def main(argv):
    fs = os.environ["FAKE_BOWL_FS"]
    if argv[:1] != ["connect"] or len(argv) < 3:
        print("fake mpremote: connect PORT first", file=sys.stderr)
        return 2
    cmds, cur = [], []
    for a in argv[2:]:
        if a == "+":
            cmds.append(cur)
            cur = []
        else:
            cur.append(a)
    cmds.append(cur)
    for c in cmds:
        with open(os.environ["FAKE_LOG"], "a") as f:
            f.write(" ".join(c) + "\n")
        if c[0] == "run":
            with open(c[1]) as f:
                rc = device(f.read())
        elif c[0] == "exec":
            rc = device(c[1])
        elif c[:2] == ["mip", "install"]:
            os.makedirs(os.path.join(fs, "lib"), exist_ok=True)
            with open(os.path.join(fs, "lib", c[2] + ".mpy"), "wb") as f:
                f.write(b"M")
            rc = 0
        elif c[0] == "cp":
            srcs = [a for a in c[1:-1] if a != "-r"]
            for s in srcs:
                dst = os.path.join(fs, os.path.basename(s.rstrip("/")))
                if os.path.isdir(s):
                    shutil.copytree(s, dst, dirs_exist_ok=True)
                else:
                    shutil.copyfile(s, dst)
            rc = 0
        elif c[0] == "reset":
            rc = 0
        else:
            print("fake mpremote: unknown command %r" % c, file=sys.stderr)
            rc = 2
        if rc:
            return rc
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
