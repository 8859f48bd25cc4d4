"""The bowl's voice clips (firmware/bobing/voice.py): every phrase of voice.clips()
spoken by Debian's espeak-ng Mandarin voice (cmn), resampled by sox to what the
bowl's I2S amplifier takes as it is: raw 16-bit signed little-endian mono at
voice.RATE, silence trimmed at both ends. One file a clip, OUT/NAME.pcm; prints
each clip's bytes and seconds and the total (the flash they take on the bowl).

    python host_sim/tools/make_voice.py [OUT]     (default build/voice; apt-get install espeak-ng sox)

The simulator (play --say-to) makes them into its flash folder the same way.
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "build", "voice")


class VoiceToolMissing(RuntimeError):
    pass


def make(out=OUT):
    """Write every clip into folder out -> [(name, bytes)]. VoiceToolMissing when
    espeak-ng or sox is not installed (saying what to install)."""
    sys.path[:0] = [p for p in (ROOT,) if p not in sys.path]
    from host_sim import compat
    compat.install()  # the MicroPython shim; firmware/ importable
    from bobing import voice
    missing = [t for t in ("espeak-ng", "sox") if shutil.which(t) is None]
    if missing:
        raise VoiceToolMissing("the voice clips need %s: apt-get install -y %s" % (" and ".join(missing),
                                                                                  " ".join(missing)))
    os.makedirs(out, exist_ok=True)
    made = []
    with tempfile.TemporaryDirectory(prefix="bobing-voice-") as tmp:
        wav = os.path.join(tmp, "say.wav")
        for name, text in voice.clips():
            subprocess.run(["espeak-ng", "-v", "cmn", "-s", "150", "-w", wav, text], check=True,
                           capture_output=True)
            path = os.path.join(out, name + voice.SUFFIX)
            subprocess.run(["sox", wav, "-t", "raw", "-r", str(voice.RATE), "-e", "signed", "-b", "16", "-c", "1",
                            "-L", path + ".tmp", "silence", "1", "0.02", "0.5%", "reverse", "silence", "1",
                            "0.02", "0.5%", "reverse"], check=True, capture_output=True)
            os.replace(path + ".tmp", path)
            made.append((name, os.path.getsize(path)))
    return made


def main(argv):
    out = argv[0] if argv else OUT
    try:
        made = make(out)
    except VoiceToolMissing as e:
        print("make_voice: %s" % e, file=sys.stderr)
        return 2
    from bobing import voice
    for name, n in made:
        print("%-12s %7d B %5.2f s" % (name, n, n / 2.0 / voice.RATE))
    total = sum(n for _, n in made)
    print("%d clips, %d B (%.0f KiB) of flash, %.1f s of speech, in %s" % (len(made), total, total / 1024.0,
                                                                          total / 2.0 / voice.RATE, out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
