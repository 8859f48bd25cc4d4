"""The bowl's voice clips (firmware/bobing/voice.py): every phrase of voice.clips()
spoken by Debian's espeak-ng Mandarin voice (cmn), resampled by sox to what the
bowl's I2S amplifier takes as it is: raw 16-bit signed little-endian mono at
voice.RATE, silence trimmed at both ends, then padded with silence to whole chunks
(voice.CHUNK bytes, at most 20 ms: every read the bowl makes is a full chunk, written
from its one buffer without a slice, so a clip plays allocating nothing); and the tunes of voice.tunes() (the 状元's
fanfare), bobing/sound.py's very notes rendered for the speaker (tune_pcm: a note a
tone with its first three harmonics and a short decay, the rests silent). One file a
clip, OUT/NAME.pcm; prints
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


LEVEL = 9000  # a tune's peak, of 32767: about as loud as espeak-ng's speech after sox


def tune_pcm(steps, rate):
    """A piezo tune's (hz, ms) steps (bobing/sound.py) as 16-bit mono PCM at rate."""
    import array
    import math
    out = array.array("h")
    for hz, ms in steps:
        n = rate * ms // 1000
        if not hz:
            out.extend([0] * n)
            continue
        for i in range(n):
            t = i / float(rate)
            env = min(1.0, i / (0.005 * rate)) * math.exp(-2.5 * t) * min(1.0, (n - i) / (0.004 * rate))
            v = sum(a * math.sin(2 * math.pi * hz * k * t) for k, a in ((1, 0.6), (2, 0.25), (3, 0.15))
                    if hz * k < rate // 2)
            out.append(int(LEVEL * env * v))
    if sys.byteorder != "little":
        out.byteswap()
    return out.tobytes()


def _pad(path, chunk):
    n = os.path.getsize(path)
    if n % chunk:
        with open(path, "ab") as f:
            f.write(bytes(chunk - n % chunk))


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
            _pad(path + ".tmp", voice.CHUNK)
            os.replace(path + ".tmp", path)
            made.append((name, os.path.getsize(path)))
    from bobing import sound
    for name, tune in voice.tunes():
        path = os.path.join(out, name + voice.SUFFIX)
        with open(path + ".tmp", "wb") as f:
            f.write(tune_pcm(sound.steps(getattr(sound, tune)), voice.RATE))
        _pad(path + ".tmp", voice.CHUNK)
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
