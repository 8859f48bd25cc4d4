"""Write firmware/package.json (for mip) listing every firmware file.

    python host_sim/tools/make_package_json.py

Install from a checkout: `mpremote mip install --target / firmware/package.json`
(relative URLs resolve next to package.json); from a published repository:
`mpremote mip install --target / github:OWNER/REPO/firmware/package.json`.
tests/test_deploy.py fails when the file is stale.
"""
import json
import os
import subprocess
import sys

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "firmware")
PATH = os.path.join(FIRMWARE, "package.json")
SKIP = {"manifest.py"}  # build-time only (the bowl's own and its board's)
VERSION = "0.1.0"


def files():
    """Firmware .py files under version control (work in progress that is not
    committed yet is not part of a release), or on disk outside a git checkout."""
    try:
        out = subprocess.run(["git", "ls-files", "--", "."], cwd=FIRMWARE, capture_output=True,
                             text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        out = []
        for dirpath, _dirs, names in os.walk(FIRMWARE):
            out += [os.path.relpath(os.path.join(dirpath, n), FIRMWARE) for n in names]
    out = [f.replace(os.sep, "/") for f in out]
    # boards/: a board folder's files are built into its firmware (its frozen _boot.py), not copied
    return sorted(f for f in out if f.endswith(".py") and os.path.basename(f) not in SKIP
                  and not f.startswith("boards/"))


def render():
    urls = ",\n".join("    %s" % json.dumps([f, f]) for f in files())
    return '{\n  "urls": [\n%s\n  ],\n  "deps": [["ssd1306", "latest"]],\n  "version": "%s"\n}\n' % (urls, VERSION)


if __name__ == "__main__":
    with open(PATH, "w", encoding="utf-8") as fh:
        fh.write(render())
    sys.stdout.write("wrote %s (%d files)\n" % (PATH, len(files())))
