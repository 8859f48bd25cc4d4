# Heap of one claim code's HMAC-SHA256: bobing/claim.py's own RFC 2104 code
# against micropython-lib's python-stdlib/hmac (the pinned copy in
# build/mp/micropython-lib), on the 32-bit unix port. claim.py keeps its own
# while the library's costs more (the figures and the verdict: claim.py's
# header). Prints figures, asserts only that both give the same MAC.
#   build/mp/unix32-frozen/micropython bench/hmac_heap.py   (and unix32-stock)
import gc
import sys

sys.path.append("firmware")
sys.path.append("build/mp/micropython-lib/python-stdlib/hmac")
import hashlib

from bobing import claim

SECRET = b"0123456789abcdef0123456789abcdef"
MSG = claim.message("0001", 3, 7, "yixiu")
N = 20


def own():
    return claim.hmac_sha256(SECRET, MSG)


def cost(f):
    """Bytes allocated per call (collector off, so nothing is freed between)."""
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    for _ in range(N):
        f()
    b = gc.mem_alloc()
    gc.enable()
    return (b - a) // N


gc.collect()
a0 = gc.mem_alloc()
import hmac  # noqa: E402  (measured: imported after the first figure)

gc.collect()
kept = gc.mem_alloc() - a0


def lib():
    return hmac.new(SECRET, MSG, hashlib.sha256).digest()


if own() != lib():
    raise SystemExit("the two HMACs differ")
print("claim.hmac_sha256: %d B allocated per HMAC" % cost(own))
print("micropython-lib hmac: %d B allocated per HMAC; importing it (as .py) keeps %d B" % (cost(lib), kept))
