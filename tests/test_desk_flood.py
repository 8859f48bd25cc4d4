"""The desk's listener under a flood of invalid awards (bench/desk_flood.py, run
small: its delays are the bench's figures, not checked here): every real award
behind the flood is stored, each refusal is counted in the MQTT log, which gets a
row per topic a second rather than one per message (before: 10,022 rows buried
the import page), and the log gets a few lines a second, each once."""

from mqtt_broker import need_broker

from bench import desk_flood


@need_broker
def test_a_flood_of_invalid_awards_holds_up_no_real_award_and_is_logged_in_few_rows(tmp_path):
    r = desk_flood.run(rate=200, seconds=2, folder=str(tmp_path), wait_s=60)
    assert r["sent"] >= 15 and r["stored"] == r["sent"]  # every real award, none lost behind the flood
    assert r["repeats"] == r["flood"]  # every refusal counted
    assert r["rows"] <= 20 < r["flood"] // 10, (r["rows"], r["flood"])  # one row per topic a second, not per message
    refused = [ln for ln in r["log_lines"] if "refused" in ln]
    assert len(refused) <= 40, len(refused)  # a few lines a second and the count of the rest
    assert sum("listening on" in ln for ln in r["log_lines"]) == 1, r["log_lines"][:5]  # each line once
