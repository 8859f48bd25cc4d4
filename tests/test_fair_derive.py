# micropython: yes
# The verifiable dice's derivation (dice.Derived, firmware/PROTOCOL.md "Verifiable
# fairness") on both interpreters: every block equals RFC 2104 HMAC-SHA256 of the
# specified message (claim.hmac_sha256, itself checked against CPython's hmac in
# test_claim.py), the faces are its bytes below 252 in order, and bad input is
# refused with a message. On the unix port this proves the bowl's frozen code
# derives what verify-fair recomputes under CPython.
from bobing import claim, dice


def _msg(d, g, k, i, j):
    m = bytearray(b"bobing-fair-v1")
    m.extend(d)
    for v, n in ((g, 4), (k, 4), (i, 2), (j, 1)):
        for s in range(n - 1, -1, -1):
            m.append((v >> (8 * s)) & 0xFF)
    return bytes(m)


def test_blocks_are_hmac_sha256_of_the_message():
    for n in range(12):
        s = bytes([(n * 7 + x * 13) & 0xFF for x in range(32)])
        d = bytes([(n * 3 + x * 29) & 0xFF for x in range(16)])
        g, k, i = 1 + n * 1000003, 1 + n * 7, n * 5000
        der = dice.Derived(s, d, g, k)
        for j in (0, 1):
            assert der.block(i, j) == claim.hmac_sha256(s, _msg(d, g, k, i, j)), (n, j)
        out = der.roll(i, bytearray(6))
        want = [b % 6 + 1 for b in der.block(i, 0) if b < 252]
        if len(want) < 6:
            want += [b % 6 + 1 for b in der.block(i, 1) if b < 252]
        assert list(out) == want[:6]


def test_a_known_roll():
    # fixed vector, also for another implementation: S = 00..1f, D = 16 zero bytes, g 17, k 3, roll 2
    der = dice.Derived(bytes(range(32)), bytes(16), 17, 3)
    assert list(der.roll(2, bytearray(6))) == [6, 5, 5, 2, 1, 3]


def test_bad_input_is_refused_with_a_message():
    for args in ((bytes(31), bytes(16), 1, 1), (bytes(32), bytes(15), 1, 1), (bytes(32), bytes(16), -1, 1)):
        try:
            dice.Derived(*args)
        except ValueError as e:
            assert "0.." in str(e) or "bytes" in str(e)
        else:
            raise AssertionError("accepted %r" % (args,))
    try:
        dice.Derived(bytes(32), bytes(16), 1, 1).roll(65536, bytearray(6))
    except ValueError as e:
        assert "65535" in str(e)
    else:
        raise AssertionError("roll 65536 accepted")


def _msg2(d, u, g, k, i, j):
    m = bytearray(b"bobing-fair-v2")
    m.extend(d)
    m.extend(u)
    for v, n in ((g, 4), (k, 4), (i, 2), (j, 1)):
        for s in range(n - 1, -1, -1):
            m.append((v >> (8 * s)) & 0xFF)
    return bytes(m)


def test_format_2_blocks_carry_the_customer_value_and_secrets_are_a_chain():
    import hashlib
    for n in range(6):
        s = bytes([(n * 11 + x * 5) & 0xFF for x in range(32)])
        d = bytes([(n * 3 + x * 29) & 0xFF for x in range(16)])
        u = bytes([(n * 17 + x) & 0xFF for x in range(16)])
        der = dice.Derived(s, d, 40 + n, 2 + n, u)
        for j in (0, 1):
            assert der.block(n * 9, j) == claim.hmac_sha256(s, _msg2(d, u, 40 + n, 2 + n, n * 9, j)), (n, j)
        # another customer value, other dice: the customer's seed counts
        assert der.block(0, 0) != dice.Derived(s, d, 40 + n, 2 + n, bytes(16)).block(0, 0)
    root = bytes(range(32))
    x = root
    for _ in range(3):
        x = hashlib.sha256(b"bobing-chain-v2" + x).digest()
    assert dice.chain_at(root, 5, 8) == x  # 8 - 5 links from the root
    assert dice.chain_holds(x, 5, dice.chain_at(root, 0, 8)) and not dice.chain_holds(x, 4, dice.chain_at(root, 0, 8))
    assert dice.chain_place(1) == (1, 1) and dice.chain_place(dice.CHAIN_N) == (1, dice.CHAIN_N)
    assert dice.chain_place(dice.CHAIN_N + 1) == (2, 1)
    for bad in ((bytes(32), bytes(16), 1, 1, bytes(15)),):
        try:
            dice.Derived(*bad)
        except ValueError as e:
            assert "bytes" in str(e)
        else:
            raise AssertionError("accepted a customer value of 15 bytes")


def test_a_known_format_2_roll():
    # fixed vector, also for another implementation: S = 00..1f, D and U zeros, g 17, k 3, roll 2
    der = dice.Derived(bytes(range(32)), bytes(16), 17, 3, bytes(16))
    assert list(der.roll(2, bytearray(6))) == [4, 1, 5, 4, 1, 3]  # (CPython hmac over the message)
