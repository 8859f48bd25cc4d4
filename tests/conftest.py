import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import host_sim  # noqa: E402, F401  (installs the const/ticks shim and puts firmware/ on sys.path)
import portable  # noqa: E402  (tests/ is on sys.path: pytest puts a conftest's folder there)

# tests/mp/ holds tests that only make sense on MicroPython (heap_lock, real
# framebuf, VfsLfs2); test_micropython.py runs them on the unix port.
collect_ignore = ["mp", "mp_runner.py"]


@pytest.fixture(scope="session")
def mp_built():
    """MicroPython v1.28.0 from pinned source, current (`make mp` in build/mp; nothing to do
    when its inputs did not change): mpy-cross and the 32-bit unix builds
    -> {"frozen": path, "stock": path} (tests/portable.py names them). One `make` at a
    time (a lock on build/), so parallel pytest workers do not build over each other."""
    import fcntl
    os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
    with open(os.path.join(ROOT, "build", ".mp.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        p = subprocess.run(["make", "-s", "mp"], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, "make mp failed:\n%s\n%s" % (p.stdout[-3000:], p.stderr[-3000:])
    return portable.BUILDS


# ---- a real mosquitto (tests/mqtt_broker.py) --------------------------------------------

@pytest.fixture
def broker_installed():
    # a missing broker fails, never skips: `make test` installs it (host_sim/tools/debian_deps.sh)
    if shutil.which("mosquitto") is None or shutil.which("mosquitto_sub") is None:
        pytest.fail("needs Debian's mosquitto and mosquitto-clients: `make deps` as root installs them",
                    pytrace=False)


@pytest.fixture
def broker(tmp_path, broker_installed):
    """An anonymous mosquitto on a free loopback port, stopped (with its subscribers) after the test."""
    from mqtt_broker import Broker
    b = Broker(tmp_path)
    b.start()
    yield b
    for c in b.clients:
        c.stop()
    b.stop()


@pytest.fixture
def event_broker(tmp_path, broker_installed):
    """mosquitto running the config `python -m host_sim broker` made for event mqttkit.EVENT
    with bowls mqttkit.BOWLS, as `make broker` runs it -> (broker, {user: password})."""
    import mqttkit
    from deskkit import free_port
    from mqtt_broker import Broker
    port = free_port()
    d = tmp_path / "broker"
    args = ["--event", mqttkit.EVENT, "--port", str(port), "--listen", "127.0.0.1"]
    for b in mqttkit.BOWLS:
        args += ["--bowl", b]
    p = mqttkit.make_users(d, *args)
    assert p.returncode == 0, p.stderr
    b = Broker(tmp_path, conf=str(d / "mosquitto.conf"), port=port)
    b.start()
    yield b, mqttkit.passwords(p.stdout)
    for c in b.clients:
        c.stop()
    b.stop()


@pytest.fixture
def listener(broker):
    """The desk's listener (host_sim/desk/bus.py) for the broker, started by the test;
    stopped after it. Its test module calls deskkit.setup() first."""
    from mqttkit import Listener
    lst = Listener(broker.port)
    yield lst
    if getattr(lst, "thread", None) is not None and lst.thread.is_alive():
        lst.stop()


# ---- headless Chromium (Debian's chromium and chromium-driver, never a downloaded one) ----

@pytest.fixture(scope="session")
def chromium_installed():
    # a missing browser fails, never skips: `make test` installs it (host_sim/tools/debian_deps.sh)
    from deskkit import CHROMIUM, DRIVER
    if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
        pytest.fail("needs Debian's chromium and chromium-driver: `make deps` as root installs them",
                    pytrace=False)


@pytest.fixture(scope="module")
def browser(tmp_path_factory, chromium_installed):
    """Chromium through Selenium at a phone's screen width, downloads into d.downloads."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    from deskkit import CHROMIUM, DRIVER
    profile = str(tmp_path_factory.mktemp("chromium-profile"))
    downloads = str(tmp_path_factory.mktemp("downloads"))
    o = webdriver.ChromeOptions()
    o.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile,
                 "--window-size=412,915"):
        o.add_argument(flag)
    o.add_experimental_option("prefs", {"download.default_directory": downloads,
                                        "download.prompt_for_download": False})
    d = webdriver.Chrome(options=o, service=Service(executable_path=DRIVER))
    d.implicitly_wait(30)  # a loaded 2-core machine: Argon2 and the server take their time
    d.downloads = downloads
    yield d
    d.quit()


# Markers from what a test uses (its fixtures, or its file), not a line in every module, so
# `make test-fast` can deselect them: -m "not slow and not micropython and not broker and not browser".
MARKERS = {
    "micropython": "runs a MicroPython binary: the 32-bit unix builds of `make mp`",
    "broker": "starts a real mosquitto",
    "browser": "drives headless Chromium",
    "slow": "one of the slowest files on a busy 2-core machine (make test's --durations list)",
}
MARK_BY_FIXTURE = {"mp_built": "micropython",
                   "broker_installed": "broker", "broker": "broker", "event_broker": "broker",
                   "chromium_installed": "browser", "browser": "browser"}
MARK_BY_FILE = {
    "test_desk_server.py": ("slow",),  # every test there waits for a real desk server to start
}
# slow: the tests (any parameters) that took 5 s or more in a `make test-fast` run on the busy
# 2-core machine; `make test --durations=15` shows when this list wants updating
SLOW = {
    "test_journey_family.py": ("test_a_family_of_four_plays_to_the_last_prize",),
    "test_journey_kiosk.py": ("test_a_fresh_kiosk_is_set_up_and_serves_three_customers",),
    "test_journey_lockout.py": ("test_pin_lockout_across_a_power_cut",),
    "test_journey_waiting.py": ("test_a_customer_at_the_waiting_screen_gets_no_shake",),
    "test_board.py": ("test_an_empty_battery_sleeps_before_a_brown_out_and_starts_no_roll",),
    "test_boot.py": ("test_a_long_game_boots_without_a_reboot_loop",),
    "test_bowl.py": (
        "test_random_hands_on_a_kiosk_get_nothing_they_should_not",
        "test_the_pin_lockout_doubles_and_a_right_pin_resets_it",
        "test_the_pin_lockout_survives_a_power_cut",
    ),
    "test_bowl_e2e.py": ("test_whole_game_by_shakes_then_power_cut",),
    "test_broker.py": ("test_the_tool_writes_hashes_keeps_old_users_and_refuses_bad_names",),
    "test_cli_probes.py": ("test_sweep",),
    "test_cli_terminal.py": ("test_at_200_by_50_the_side_panel_keeps_its_header_next_game_and_table",),
    "test_cli_tools.py": ("test_plan_shows_progress_on_a_terminal", "test_seats_are_the_bowls_two_to_twelve",),
    "test_desk_allot.py": ("test_racing_desks_and_stock_commands_never_grant_beyond_a_total",),
    "test_desk_i18n.py": (
        "test_chinese_is_the_default_and_english_is_beside_it",
        "test_every_page_is_chinese_with_no_english_sentence_left",
    ),
    "test_desk_security.py": ("test_password_guessing_is_locked_out_logged_and_the_lock_outlives_a_restart",),
    "test_failed_write.py": ("test_a_roll_whose_write_failed_is_never_shown",),
    "test_fairness.py": ("test_a_million_faces_and_their_ranks_pass_at_alpha",),
    "test_final_bowl.py": ("test_a_final_played_by_shaking_survives_a_power_cut",),
    "test_game.py": ("test_random_games_keep_every_invariant",),
    "test_grant.py": ("test_awards_never_exceed_the_grant_whatever_the_network_does",),
    "test_journal.py": ("test_damaged_and_crafted_journals_are_set_aside",),
    "test_outbox.py": ("test_incremental_reader_hands_out_what_a_full_replay_does",),
    "test_outbox_bounded.py": ("test_a_kiosk_backlog_is_caught_up_in_bounded_steps",),
    "test_plan.py": (
        "test_chase_plans_like_nothing",
        "test_default_game_matches_the_engine",
        "test_options_match_the_engine",
        "test_seconds_per_roll_scales_minutes_only",
        "test_the_counting_model_is_the_dense_chain",
        "test_the_kiosk_preset_plans_and_matches_the_engine",
        "test_upper_classes_run_out_on_their_own_chain",
    ),
    "test_rules.py": ("test_every_option_value_matches_oracle_on_every_roll",),
    "test_sim.py": ("test_a_whole_game_by_script",),
    "test_stats.py": ("test_stats_cli_json_summary_and_png",),
}


def pytest_configure(config):
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", "%s: %s" % (name, text))


def pytest_collection_modifyitems(config, items):
    for item in items:
        marks = {MARK_BY_FIXTURE[f] for f in getattr(item, "fixturenames", ()) if f in MARK_BY_FIXTURE}
        marks.update(MARK_BY_FILE.get(item.path.name, ()))
        if getattr(item, "originalname", item.name) in SLOW.get(item.path.name, ()):
            marks.add("slow")
        for m in sorted(marks):
            item.add_marker(m)
