import gc
import os
import shutil
import subprocess

import pytest

from host_sim import compat

# the tests' wiring, in one place: the import path is pytest.ini's pythonpath (the repo, firmware/,
# tests/, host_sim/portable); the MicroPython shim (const, ticks, framebuf) installed here once
compat.install()

import portable  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

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
    args = ["--event", mqttkit.EVENT, "--port", str(port), "--listen", "127.0.0.1", "--plain",
            "--tls-port", str(free_port())]
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


@pytest.fixture(scope="session")
def soffice_installed():
    # a missing LibreOffice fails, never skips: `make deps` installs it (host_sim/tools/debian_deps.sh)
    import shutil
    if not shutil.which("soffice"):
        pytest.fail("needs Debian's libreoffice-calc-nogui: `make deps` as root installs it", pytrace=False)


# Markers from what a test uses (its fixtures, or its file), not a line in every module, so
# `make test-fast` can deselect them: -m "not slow and not micropython and not broker and not browser".
MARKERS = {
    "micropython": "runs a MicroPython binary: the 32-bit unix builds of `make mp`",
    "broker": "starts a real mosquitto",
    "browser": "drives headless Chromium",
    "slow": "one of the slowest files on a busy 2-core machine (make test's --durations list)",
    "serial": "wants the machine to itself (real-time rates, timeouts): make test runs it after the others, alone",
}
MARK_BY_FIXTURE = {"mp_built": "micropython",
                   "broker_installed": "broker", "broker": "broker", "event_broker": "broker",
                   "chromium_installed": "browser", "browser": "browser",
                   "soffice_installed": "slow"}  # LibreOffice starts in seconds
MARK_BY_FILE = {
    "test_desk_server.py": ("slow",),  # every test there waits for a real desk server to start
    "test_case.py": ("slow",),  # openscad renders the case (CGAL) for each cut
}
# slow: the tests (any parameters) that took 5 s or more in a serial `make test-fast` run on the busy
# 2-core machine (load 5-8), then those of 4 s or more in a run on two workers at load 9-11 (most
# of those boot a simulated bowl many times or set up the desk with Argon2 hashing);
# `make test --durations=15` and `make test-fast --durations=10` show when this list wants updating
SLOW = {
    "test_oom_heaps.py": ("test_a_game_plays_on_at_every_heap_from_the_smallest_that_boots",),
    "test_board.py": (
        "test_a_gy521_with_a_clone_chip_plays_and_wakes_on_a_shake",
        "test_an_empty_battery_sleeps_before_a_brown_out_and_starts_no_roll",
        "test_deep_sleep_lasts_until_ok_is_pressed",
    ),
    "test_boot.py": ("test_a_long_game_boots_without_a_reboot_loop", "test_boot_time_does_not_grow_with_the_game"),
    "test_boot_robust.py": (
        "test_a_damaged_only_game_on_a_full_flash_boots_to_a_notice",
        "test_an_unreadable_checkpoint_replays_the_journal",
        "test_menu_new_game_on_a_full_flash_says_so_and_keeps_the_game",
        "test_out_of_memory_while_replaying_at_boot_keeps_the_game",
    ),
    "test_bowl.py": (
        "test_a_new_restocked_kiosk_game_needs_the_pin",
        "test_a_shake_while_the_result_pages_show_is_not_lost",
        "test_a_try_is_counted_on_flash_before_the_pin_is_checked",
        "test_cutting_the_power_between_tries_does_not_reset_the_count",
        "test_deep_sleep_after_idle_then_a_shake_wakes_the_same_game",
        "test_idle_min_below_zero_does_not_put_the_bowl_to_sleep_at_once",
        "test_kiosk_menu_needs_the_pin_and_locks_after_three_wrong",
        "test_kiosk_stock_bowl_id_and_claim_codes_the_counter_can_check",
        "test_ok_button_wakes_from_deep_sleep",
        "test_power_cut_mid_game_resumes_and_shows_the_last_roll_again",
        "test_random_hands_on_a_kiosk_get_nothing_they_should_not",
        "test_the_pin_lockout_doubles_and_a_right_pin_resets_it",
        "test_the_pin_lockout_survives_a_power_cut",
        "test_time_limit_counts_from_power_up_not_tick_zero",
        "test_time_limit_ends_the_game",
        "test_watchdog_reboots_a_hung_bowl_into_the_same_game",
    ),
    "test_bowl_e2e.py": ("test_whole_game_by_shakes_then_power_cut",),
    "test_broker.py": ("test_the_tool_writes_hashes_keeps_old_users_and_refuses_bad_names",),
    "test_cli_probes.py": ("test_sweep",),
    "test_cli_rank.py": ("test_a_dispute_at_the_table_in_plain_words",),
    "test_cli_terminal.py": ("test_at_200_by_50_the_side_panel_keeps_its_header_next_game_and_table",),
    "test_cli_tools.py": (
        "test_fairness_says_its_verdict_first",
        "test_plan_shows_progress_on_a_terminal",
        "test_plan_shows_the_count_of_the_zhuangyuan_it_was_given",
        "test_seats_are_the_bowls_two_to_twelve",
    ),
    "test_desk.py": (
        "test_a_bowl_with_a_new_secret_still_pays_its_imported_codes",
        "test_a_code_not_yet_imported_is_checked_with_the_secret_and_recorded_when_the_journal_arrives",
        "test_a_locked_database_is_a_clear_message_and_records_nothing",
        "test_bad_journals_are_refused_with_a_reason_and_nothing_recorded",
        "test_forms_without_csrf_token_are_refused",
        "test_import_then_redeem_once_then_refused",
        "test_stock_page_and_csv",
        "test_wrong_codes_slow_the_attendant_down_and_the_wait_survives_a_new_session",
    ),
    "test_desk_allot.py": ("test_racing_desks_and_stock_commands_never_grant_beyond_a_total",),
    "test_desk_fuzz.py": ("test_every_desk_command_refuses_bad_input_clearly",),
    "test_desk_counter_ui.py": (
        "test_a_second_hand_over_by_the_same_attendant_says_you",
        "test_the_estimate_agrees_with_the_exact_planner",
        "test_the_forecast_answers_for_every_stock_the_bowl_allows",
    ),
    "test_desk_i18n.py": (
        "test_an_attendant_s_language_follows_them_to_any_browser_from_the_login_on",
        "test_chinese_is_the_default_and_english_is_beside_it",
        "test_chinese_pages_use_chinese_punctuation_and_one_name_for_the_counter",
        "test_every_page_is_chinese_with_no_english_sentence_left",
        "test_mqtt_refusals_and_the_bowls_note_are_said_in_the_page_language",
        "test_the_import_log_says_refusals_and_damage_in_chinese",
    ),
    "test_desk_journal_seal.py": (
        "test_a_forged_journal_is_refused_and_the_real_one_still_counts",
        "test_an_old_journal_needs_a_supervisors_tick",
    ),
    "test_desk_security.py": (
        "test_awards_beyond_the_grant_or_the_total_are_refused_and_flagged",
        "test_checking_a_real_code_does_not_reset_the_slow_down",
        "test_each_log_line_is_written_once",
        "test_logged_in_pages_are_not_cached_and_every_page_has_a_csp",
        "test_password_guessing_is_locked_out_logged_and_the_lock_outlives_a_restart",
    ),
    "test_desk_shakes.py": ("test_the_counter_grants_shakes_and_sees_the_bowl_answer",),
    "test_esp32_terms.py": (
        "test_a_broker_silent_mid_burst_costs_a_timeout_not_a_hang",
        "test_a_bus_stuck_in_the_middle_of_a_frame_is_no_watchdog_reset",
        "test_a_found_name_is_kept_and_the_awards_go",
        "test_a_name_lookup_never_holds_the_game_loop",
        "test_a_wrong_wifi_password_says_wrong_password",
        "test_awards_do_not_hold_the_game_loop_and_power_save_goes_off",
        "test_counted_cpu_gives_the_same_clock_at_every_run",
        "test_reconnecting_to_a_silent_broker_holds_no_round_long",
        "test_the_boot_replays_at_240_mhz_and_plays_at_the_boards_clock",
    ),
    "test_failed_write.py": ("test_a_roll_whose_write_failed_is_never_shown",),
    "test_fair.py": ("test_derived_dice_pass_the_fairness_tests",),
    "test_fairness.py": ("test_a_million_faces_and_their_ranks_pass_at_alpha",),
    "test_final_bowl.py": ("test_a_final_played_by_shaking_survives_a_power_cut",
                           "test_the_next_champion_shakes_while_a_roll_shows_and_it_counts"),
    "test_game.py": ("test_random_games_keep_every_invariant", "test_whole_games_of_every_preset"),
    "test_glyphs.py": ("test_every_character_the_firmware_uses_has_a_glyph",),
    "test_grant.py": ("test_awards_never_exceed_the_grant_whatever_the_network_does",),
    "test_grant_bowl.py": ("test_an_event_kiosk_waits_for_stock_then_plays_on_its_grant",),
    "test_journal.py": (
        "test_boot_replays_at_most_a_checkpoint_interval",
        "test_damaged_and_crafted_journals_are_set_aside",
    ),
    "test_journey_family.py": ("test_a_family_of_four_plays_to_the_last_prize",),
    "test_journey_kiosk.py": ("test_a_fresh_kiosk_is_set_up_and_serves_three_customers",),
    "test_journey_names.py": ("test_a_family_names_its_seats_and_sees_the_names_all_evening",),
    "test_journey_lockout.py": ("test_pin_lockout_across_a_power_cut",),
    "test_journey_waiting.py": ("test_a_customer_at_the_waiting_screen_gets_no_shake",),
    "test_make.py": (
        "test_make_test_shows_durations_and_test_fast_deselects_the_marked",
        "test_markers_come_from_the_fixtures_and_files_a_test_uses",
    ),
    "test_outbox.py": ("test_incremental_reader_hands_out_what_a_full_replay_does",),
    "test_outbox_bounded.py": ("test_a_kiosk_backlog_is_caught_up_in_bounded_steps",),
    "test_plan.py": (
        "test_chase_plans_like_nothing",
        "test_cli_json",
        "test_default_game_matches_the_engine",
        "test_every_transition_is_the_engines",
        "test_lower_tier_stock_left_depends_only_on_the_demand_counts",
        "test_options_match_the_engine",
        "test_seconds_per_roll_scales_minutes_only",
        "test_the_counting_model_is_the_dense_chain",
        "test_the_kiosk_preset_plans_and_matches_the_engine",
        "test_upper_classes_run_out_on_their_own_chain",
        "test_when_each_class_runs_out_matches_the_engine",
    ),
    "test_rules.py": ("test_every_option_value_matches_oracle_on_every_roll",),
    "test_screen_png.py": ("test_every_screen_matches_its_golden_png",),
    "test_settings.py": ("test_damaged_settings_files_boot_with_defaults_said_once",),
    "test_setup.py": ("test_a_missing_package_is_named_with_the_line_that_installs_it",),
    "test_shakes_bowl.py": (
        "test_a_power_cut_after_receipt_keeps_the_grant_and_after_use_never_doubles_it",
        "test_the_key_lets_a_granted_customer_in_with_the_desks_shakes",
    ),
    "test_sim.py": (
        "test_a_whole_game_by_script",
        "test_line_mode_reports_errors_with_the_line",
        "test_screen_is_the_framebuffer",
        "test_window_shows_the_oled_pixels",
        "test_window_space_held_down_shakes_that_long",
    ),
    "test_stats.py": ("test_same_seed_same_games", "test_stats_cli_json_summary_and_png"),
    "test_window.py": ("test_prize_table_in_columns_and_the_last_line_whole",),
}


# serial: tests whose outcome depends on the wall clock (a real-time rate, a fault schedule, a
# flood), so that two workers and each other's load do not decide them; `make test` runs them in
# a second phase, one at a time. Test names, with their parameters where only some are.
SERIAL = {
    "test_event_load.py": ("test_every_award_lands_once_within_stock_through_faults",),
    "test_desk_flood.py": ("test_a_flood_of_invalid_awards_holds_up_no_real_award_and_is_logged_in_few_rows",),
    "test_bowl_asyncio.py": ("test_asyncio_tasks_on_real_time",),  # samples read in 1.2 s of real time
    "test_micropython.py": ("test_on_unix_port[frozen-test_bowl_asyncio]",
                            "test_on_unix_port[stock-test_bowl_asyncio]"),
}
# make test spreads single tests over its two workers (--dist loadgroup) only in these files, whose
# tests share nothing but session fixtures; every other file stays on one worker (its module
# fixtures, the desk's database of its test process, its order)
SPLIT = {"test_micropython.py"}
# The groups that take longest (a file, or one unix-port run of a SPLIT file), longest first: handed
# out first, so that the short ones fill both workers at the end instead of one worker running a long
# group alone (longest processing time first). The rest follow in their order. The order: a phase-1
# run's --durations=0 summed per group (tests/README.md, "The gate's time"), 85 s down to 5 s.
# xdist's own reordering (by the number of tests in a group) is off: it put every one-test group, the
# unix-port runs and test_oom_heaps among them, at the very end.
LONGEST = (
    "test_event_fair.py", "test_broker.py", "test_oom_heaps.py", "test_desk_server.py", "test_plan.py",
    "test_tls.py", "test_desk_browser.py", "test_event_demo.py", "test_mqtt.py", "test_desk_mqtt.py",
    "test_shakes_mqtt.py", "[frozen-test_bowl_e2e]", "test_fair_browser.py", "test_cli_probes.py",
    "[frozen-test_grant_powercut]", "test_bowl.py", "test_desk_final.py", "[stock-test_bowl_e2e]",
    "test_journey_kiosk_desk.py", "[stock-test_outbox]", "test_desk_shift_browser.py",
    "test_desk_final_browser.py", "[frozen-test_rules]", "test_fair.py", "[frozen-test_journal_powercut]",
    "test_final_mqtt.py", "test_desk_allot.py", "test_sim.py", "test_desk_pacing.py", "test_desk_fuzz.py",
    "[frozen-test_outbox]", "test_journey_names.py", "test_grant_mqtt.py", "test_outbox.py", "test_game.py",
    "test_case.py", "test_bowl_e2e.py", "test_esp32_terms.py", "test_journey_key.py",
    "[frozen-test_fairness]", "test_kiosk_guard.py", "test_make.py")


def _longest_first(item):
    name = item.path.name
    for i, group in enumerate(LONGEST):
        if group == name or (name in SPLIT and item.name.endswith(group)):
            return i
    return len(LONGEST)


def pytest_configure(config):
    if hasattr(config.option, "loadscopereorder"):  # (pytest-xdist's; LONGEST orders the groups)
        config.option.loadscopereorder = False
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", "%s: %s" % (name, text))
    # Django configured once per test process, on a folder of its own (as pytest-django does); its
    # database migrated by desk_db at the first desk test, so collecting a desk file costs no migration
    import deskkit
    deskkit.configure()


@pytest.fixture(scope="session")
def desk_db():
    """The desk's database of this test process, migrated once -> its folder."""
    import deskkit
    return deskkit.migrate()


@pytest.fixture(scope="module", autouse=True)
def _desk_database(request):
    # a desk test (its module uses tests/deskkit.py) finds the database migrated, its module's own
    # fixtures too (module scope, autouse: before any other fixture of the module)
    if hasattr(getattr(request, "module", None), "deskkit"):
        request.getfixturevalue("desk_db")


def pytest_collection_finish(session):
    # The firmware collects garbage where MicroPython needs it (each boot, each new game); on CPython a
    # full collection walks every object of the test process (Django, numpy, every test module: ~40 ms,
    # most of a simulated boot). What exists once the tests are collected lives for the whole run: kept
    # out of the collector's walk (gc.freeze), so a collection costs what the test's own objects do.
    gc.collect()
    gc.freeze()


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which adds the group to each test's id
def pytest_collection_modifyitems(config, items):
    loadgroup = getattr(config.option, "loadgroup", False)  # (set on an xdist worker by --dist loadgroup)
    for item in items:
        marks = {MARK_BY_FIXTURE[f] for f in getattr(item, "fixturenames", ()) if f in MARK_BY_FIXTURE}
        marks.update(MARK_BY_FILE.get(item.path.name, ()))
        if getattr(item, "originalname", item.name) in SLOW.get(item.path.name, ()):
            marks.add("slow")
        if {item.name, getattr(item, "originalname", item.name)} & set(SERIAL.get(item.path.name, ())):
            marks.add("serial")
        for m in sorted(marks):
            item.add_marker(m)
        if item.path.name not in SPLIT:
            item.add_marker(pytest.mark.xdist_group(item.path.stem))
            if loadgroup:
                _grouped(item)
    items.sort(key=_longest_first)  # (stable: a file's tests keep their order)


def _grouped(item):
    # --dist loadgroup hands a worker the tests whose ids end in the same "@group"; pytest-xdist 3.8
    # writes that suffix to item._nodeid, which pytest 9.2 no longer reads (the id is item._id now),
    # so every test went out on its own: a file's module fixtures (desk servers, browsers) were set up
    # on both workers, and its tests ran out of order. The suffix set as pytest 9.2 keeps an id
    # (tests/test_make.py checks that a file's tests run on one worker).
    group = "@" + item.path.stem
    if not item.nodeid.endswith(group):
        item._id = type(item._id).parse(item.nodeid + group)
