# A tiny test runner for the MicroPython unix port: imports each named test
# module and calls its plain `test_*` functions, as pytest would.
#   micropython mp_runner.py FIRMWARE_DIR TESTS_DIR MODULE [MODULE ...]
# FIRMWARE_DIR "frozen": the firmware is frozen into this build (make mp), nothing on the path.
# Prints one line per failure and ends with "N passed, N failed"; exit 1 on any failure.
import sys


def main(argv):
    fw, tests, mods = argv[1], argv[2], argv[3:]
    sys.path.insert(0, tests)
    if fw != "frozen":
        sys.path.insert(0, fw)
    passed = failed = 0
    for name in mods:
        mod = __import__(name)
        for fn in sorted(dir(mod)):
            if not fn.startswith("test_"):
                continue
            f = getattr(mod, fn)
            if not callable(f):
                continue
            try:
                f()
                passed += 1
                print("PASS %s.%s" % (name, fn))
            except Exception as e:
                failed += 1
                print("FAIL %s.%s" % (name, fn))
                sys.print_exception(e)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


sys.exit(main(sys.argv))
