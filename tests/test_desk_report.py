"""The whole event's workbook (host_sim/desk/report.py): a supervisor at the end of the day takes
/report.xlsx, or `python -m host_sim.desk report FILE.xlsx`, after the counters imported kiosk
journals played by the firmware's own code, handed some prizes over and granted shakes; the
workbook opens in openpyxl and in a real spreadsheet program (LibreOffice headless, Debian's
libreoffice-calc-nogui), and its counts are the database's."""
import csv
import glob
import io
import os
import shutil
import subprocess

import pytest

import deskkit

FOLDER = deskkit.folder()

from django.core.management import call_command  # noqa: E402
from django.core.management.base import CommandError  # noqa: E402
from django.test import Client  # noqa: E402
from openpyxl import load_workbook  # noqa: E402

from host_sim.desk import report, shakegrants, views_report  # noqa: E402
from host_sim.desk.models import Award, Redemption, ShakeGrant  # noqa: E402

SECRET = bytes(range(90, 106))
SOFFICE = shutil.which("soffice") or "/usr/bin/soffice"


def login(name):
    deskkit.attendant(name)
    c = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert c.login(username=name, password=deskkit.PASSWORD)
    return c


def upload(c, path):
    from django.core.files.uploadedfile import SimpleUploadedFile
    with open(path, "rb") as f:
        return c.post("/import", {"journal": SimpleUploadedFile(os.path.basename(path), f.read())}, follow=True)


@pytest.fixture(scope="module")
def event_day():
    """Two bowls' games imported at the counter, three prizes handed over by two attendants, two
    shake grants with their receipts -> (the awards as the bowls showed them, the redeemed ones)."""
    c = login("rp-amy")
    shown = []
    for bowl, seed in (("RP-1", 11), ("RP-2", 12)):
        deskkit.bowl(bowl, SECRET)
        path, won = deskkit.kiosk_game(os.path.join(FOLDER, "flash-" + bowl), bowl, SECRET, 25, seed)
        assert won, "the seed must win something"
        assert upload(c, path).status_code == 200
        shown += [(bowl,) + w for w in won]
    redeemed = shown[:2] + shown[-1:]
    for who, (bowl, g, n, cls, code) in zip(("rp-amy", "rp-amy", "rp-bo"), redeemed):
        r = login(who).post("/redeem", {"code": code, "bowl": bowl, "game": g, "award": n, "cls": cls})
        assert r.status_code == 200
    # a code the counter checked in full and handed over before its bowl's journal came
    deskkit.bowl("RP-3", SECRET)
    _path, won = deskkit.kiosk_game(os.path.join(FOLDER, "flash-RP-3"), "RP-3", SECRET, 25, 13)
    g, n, cls, code = won[0]
    at = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")  # rp-bo logs in at the north counter, by the login page
    assert at.post("/login", {"username": "rp-bo", "password": deskkit.PASSWORD, "counter": " 北门  B "}
                   ).status_code == 302
    assert at.post("/redeem", {"code": code, "bowl": "RP-3", "game": g, "award": n, "cls": cls}).status_code == 200
    redeemed.append(("RP-3", g, n, cls, code))
    shakegrants.grant("rp-amy", "rp-fest", "RP-1", 3, ref="R-77")
    shakegrants.grant("rp-bo", "rp-fest", "RP-2", 2, ref="R-78")
    return shown, redeemed


def orphans():
    """Redemptions of awards the desk does not have (a code redeemed before its journal came; other
    test files of this process make some): the workbook lists them too."""
    from django.db.models import Exists, OuterRef
    return Redemption.objects.exclude(Exists(Award.objects.filter(
        bowl=OuterRef("bowl"), game_no=OuterRef("game_no"), award_no=OuterRef("award_no")))).count()


def rows(ws):
    return list(ws.iter_rows(values_only=True))


def test_the_workbook_holds_every_award_and_grant_with_the_databases_counts(event_day, tmp_path):
    shown, redeemed = event_day
    out = tmp_path / "event.xlsx"
    call_command("report", str(out))
    wb = load_workbook(out)
    assert wb.sheetnames == list(report.SHEETS)
    awards = rows(wb["奖品 awards"])
    assert awards[0][:3] == ("碗 bowl", "局 game", "奖号 award")  # Chinese first, English beside
    mine = [r for r in awards[1:] if r[0] in ("RP-1", "RP-2", "RP-3")]
    early = redeemed[-1]
    assert sorted((r[0], r[1], r[2], r[4]) for r in mine) == sorted((b, g, n, cls) for b, g, n, cls, _c in
                                                                    shown + [early])
    assert [r[6] for r in mine if r[0] == "RP-3"] == [report.EARLY]
    assert len(awards) - 1 == Award.objects.count() + orphans()
    done = {(r[0], r[1], r[2]): r for r in mine if r[8] == "是 yes"}
    assert set(done) == {(b, g, n) for b, g, n, _cls, _c in redeemed}
    assert done[redeemed[-2][:3]][10] == "rp-bo" and done[redeemed[-2][:3]][9] is not None
    assert awards[0][11] == "兑奖台 counter" and done[early[:3]][11] == "北门 B"  # where it was handed over
    assert not done[redeemed[0][:3]][11]  # (a login that named no counter: an empty cell)
    assert not any(code in str(cell) for *_x, code in shown for r in mine for cell in r)  # no claim codes
    grants = rows(wb["摇奖 shake grants"])[1:]
    assert len(grants) == ShakeGrant.objects.count()
    assert [(g[1], g[3], g[4], g[5]) for g in grants if g[0] == "rp-fest"] == [("RP-1", 3, "R-77", "rp-amy"),
                                                                               ("RP-2", 2, "R-78", "rp-bo")]
    bowls = {r[0]: r for r in rows(wb["按碗 per bowl"])[1:]}
    for b in ("RP-1", "RP-2"):
        n = Award.objects.filter(bowl__bowl_id=b).count()
        k = Redemption.objects.filter(bowl__bowl_id=b).count()
        assert bowls[b][1:4] == (n, k, n - k)
    assert bowls["RP-1"][4] == 3
    per_cls = rows(wb["按奖项 per class"])[1:]
    assert sum(r[3] for r in per_cls) == Award.objects.count() + orphans()
    assert sum(r[4] for r in per_cls) == Redemption.objects.count()
    assert sum(r[1] for r in rows(wb["按小时 per hour"])[1:]) == Award.objects.count() + orphans()
    days = rows(wb["按天 per day"])
    assert sum(r[1] for r in days[1:]) == Award.objects.count() + orphans()
    assert sum(r[3] for r in days[1:]) == Redemption.objects.count()
    about = dict(rows(wb["说明 about"])[1:])
    assert about["奖品 awards"] == Award.objects.count() + orphans()
    assert about["已兑奖 redeemed"] == Redemption.objects.count()


def test_the_workbook_opens_in_libreoffice_with_the_same_counts(event_day, tmp_path, soffice_installed):
    call_command("report", str(tmp_path / "event.xlsx"))
    # every sheet to its own CSV (the last filter option, -1: all sheets), UTF-8 (76)
    p = subprocess.run([SOFFICE, "--headless", "-env:UserInstallation=file://%s/lo" % tmp_path, "--convert-to",
                        "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1",
                        "--outdir", str(tmp_path / "csv"), str(tmp_path / "event.xlsx")],
                       capture_output=True, text=True, timeout=240)
    made = sorted(os.path.basename(f) for f in glob.glob(str(tmp_path / "csv" / "*.csv")))
    assert p.returncode == 0 and len(made) == len(report.SHEETS), p.stdout + p.stderr
    with open(tmp_path / "csv" / "event-奖品 awards.csv", encoding="utf-8") as f:
        awards = list(csv.reader(f))
    assert awards[0][0] == "碗 bowl"
    assert len(awards) - 1 == Award.objects.count() + orphans()
    assert sum(1 for r in awards[1:] if r[8] == "是 yes") == Redemption.objects.count()
    with open(tmp_path / "csv" / "event-按碗 per bowl.csv", encoding="utf-8") as f:
        per_bowl = {r[0]: r for r in csv.reader(f)}
    assert int(per_bowl["RP-2"][1]) == Award.objects.filter(bowl__bowl_id="RP-2").count()


def test_an_attendant_downloads_it_and_nobody_else(event_day):
    r = Client().get("/report.xlsx")
    assert r.status_code == 302 and r["Location"].startswith("/login")
    c = login("rp-amy")
    assert 'href="/report.xlsx"' in c.get("/stock").content.decode()
    r = c.get("/report.xlsx")
    assert r.status_code == 200 and r["Content-Type"] == views_report.XLSX
    assert r["Content-Disposition"].startswith('attachment; filename="event-')
    wb = load_workbook(io.BytesIO(r.content))
    assert len(rows(wb["奖品 awards"])) - 1 == Award.objects.count() + orphans()


def test_a_counter_name_that_is_too_long_or_holds_markup_is_refused_before_the_password_is_tried():
    deskkit.attendant("rp-cy")
    c = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    for bad in ("x" * 33, "<b>north</b>"):
        r = c.post("/login", {"username": "rp-cy", "password": deskkit.PASSWORD, "counter": bad})
        assert r.status_code == 400 and "32" in r.content.decode(), r.content.decode()[:400]
    assert c.get("/").status_code == 302  # not logged in


def test_a_bad_file_name_is_refused_saying_what_is_allowed(tmp_path):
    (tmp_path / "old.xlsx").write_bytes(b"the earlier report")
    for bad, says in ((str(tmp_path / "event.csv"), "must end in .xlsx"),
                      (str(tmp_path / "nofolder" / "e.xlsx"), "no folder"),
                      (str(tmp_path / "dir.xlsx"), "is a folder")):
        if "dir.xlsx" in bad:
            os.mkdir(bad)
        with pytest.raises(CommandError, match=says):
            call_command("report", bad)
    assert (tmp_path / "old.xlsx").read_bytes() == b"the earlier report"
