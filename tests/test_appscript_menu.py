"""The Sheetbridge menu (Apps Script) runs in Node against a small fake of the Google objects it uses."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MENU = ROOT / "sheetbridge" / "appscript" / "Menu.gs"
FAKE = ROOT / "tests" / "appscript" / "fake_google_apps.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed; the menu's Apps Script is "
                                "tested in a JavaScript engine")

NOW = "2026-11-23T16:10:00Z"
HEADER = ["id", "action", "round", "asked by", "asked at", "status", "progress", "result", "handled by"]


def control(heartbeat_at):
    return [["sheetbridge control"], ["heartbeat", heartbeat_at, "host-1/4411", "15"], [], HEADER]


def run(tmp_path, **scenario):
    scenario.setdefault("now", NOW)
    scenario.setdefault("tabs", {"Control": control("2026-11-23T16:09:30Z"),
                                 "Config": [["game", "skeld"], ["round", 3], ["option", "value"]]})
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario))
    res = subprocess.run([NODE, str(FAKE), str(MENU), str(path)], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_the_menu_lists_every_action(tmp_path):
    out = run(tmp_path, call="onOpen")
    (menu,) = out["menu"]
    assert menu["title"] == "Sheetbridge"
    assert [label for label, _ in menu["items"]] == ["Who has submitted", "Preview round", "Resolve round",
                                                     "Undo last round", "Lock submissions now",
                                                     "Reopen submissions", "Post announcement"]
    assert all(fn.startswith("sb_") for _, fn in menu["items"])


def test_nothing_listening_says_what_to_run_and_asks_nothing(tmp_path):
    out = run(tmp_path, call="resolve", tabs={"Control": control("2026-11-23T15:00:00Z")})
    assert out["returned"] == "not-listening"
    assert "Nothing is listening: run `sheetbridge watch DIR`" in out["alerts"][0]["msg"]
    assert len(out["control"]) == 4                             # no request written


def test_resolve_asks_then_queues_one_request_and_shows_progress_and_the_result(tmp_path):
    out = run(tmp_path, call="resolve", answers=["YES"], user="host@example.com",
              watcher={"progress": "published 3 of 8 files", "status": "done",
                       "result": "round 3 resolved and published (9 file(s) written)", "answer_after": 3})
    assert out["alerts"][0]["buttons"] == "YES_NO" and "publish it to every player" in out["alerts"][0]["msg"]
    row = out["control"][4]
    assert row[:4] == ["req-1", "resolve", "3", "host@example.com"] and row[4] == NOW.replace("Z", ".000Z")
    assert out["toasts"] == ["published 3 of 8 files"]
    assert out["alerts"][-1]["msg"] == "round 3 resolved and published (9 file(s) written)"
    assert out["returned"] == "done" and out["locks"] == 1


def test_a_refused_request_is_shown_as_not_done(tmp_path):
    out = run(tmp_path, call="undo", answers=["YES"],
              watcher={"status": "failed", "result": "another sheetbridge is working on this game"})
    assert out["alerts"][-1]["msg"] == "Not done: another sheetbridge is working on this game"


def test_cancelling_writes_nothing(tmp_path):
    out = run(tmp_path, call="resolve", answers=["NO"])
    assert out["returned"] == "cancelled" and len(out["control"]) == 4


def test_who_has_submitted_needs_no_confirmation(tmp_path):
    out = run(tmp_path, call="status", watcher={"status": "done", "result": "submitted: Ann, Bo; not yet: Cy"})
    assert [a["buttons"] for a in out["alerts"]] == ["OK"]
    assert out["control"][4][1] == "status"


def test_without_a_control_tab_the_menu_says_to_start_watch(tmp_path):
    out = run(tmp_path, call="status", tabs={"Config": [["round", 1]]})
    assert out["returned"] == "no-control" and "run `sheetbridge watch DIR`" in out["alerts"][0]["msg"]
