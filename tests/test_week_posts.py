"""Issue 27, points 3 and 4 (text): the round-open post, reminders (by hand and by `watch`, once each),
and board text for Discord whose columns line up and whose key names its own symbols. On real xlsx
files through the CLI, the webhook a local HTTP server, and on the offline fake Google."""
from __future__ import annotations

import json
import re
import unicodedata

import openpyxl
import pytest

from sheetbridge.api import new_match
from sheetbridge.host import new
from sheetbridge.host.demo import fill_submission
from sheetbridge.host.lock import reopen_submissions
from sheetbridge.host.session import load
from sheetbridge.host.announce import markdown
from sheetbridge.host.opening import opening
from sheetbridge.sheets.xlsx import XlsxStore
from sheetbridge.host.watch import Watcher
from tests.test_announce import Hook
from tests.test_cli_xlsx import run, type_submission
from tests.test_watch import Clock

DEADLINE = "2026-11-24 15:00"
DEADLINE_UNIX = 1795532400      # 2026-11-24T15:00:00Z
NAMES = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"]
GAMES = {"three-modular-rooms": 3, "skeld": 4, "bugcatcher": 9, "big-machine": 4, "flickering-lights": 7}


@pytest.fixture
def hook():
    h = Hook([])
    yield h
    h.close()


def set_config(folder, **settings):
    """Type settings into the master's Config tab as a host would (the row named by its first cell)."""
    wb = openpyxl.load_workbook(folder / "master.xlsx")
    ws = wb["Config"]
    for key, value in settings.items():
        row = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == key)
        ws.cell(row, 2).value = value
    wb.save(folder / "master.xlsx")


def new_game(tmp_path, game_id, seed=5, **settings):
    folder = tmp_path / game_id
    run("new", game_id, "--players", ",".join(NAMES[:GAMES[game_id]]), "--out", folder, "--seed", seed,
        *(["--option", "rounds=3"] if game_id == "three-modular-rooms" else []))
    if settings:
        set_config(folder, **settings)
    return folder


# ------------------------------------------------------------------ point 4: board text

def width(text: str) -> int:
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def code_blocks(text: str) -> list[list[str]]:
    return [b.strip("\n").split("\n") for b in re.findall(r"```\n(.*?)```", text, re.S)]


def cell_columns(grid, lines) -> dict[int, set[int]]:
    """Where (in screen columns) each grid column's cells start in the text, read back from the lines."""
    starts: dict[int, set[int]] = {}
    for row, line in zip(grid, lines):
        pos = 0
        for j, cell in enumerate(row):
            text = cell.text.replace("`", "'")
            if not text:
                continue
            while not line[pos:].startswith(text):
                assert line[pos] in " |", (line, text)
                pos += 1
            starts.setdefault(j, set()).add(width(line[:pos]))
            pos += len(text)
    return starts


def played_grids(game_id):
    """Every grid the public and private posts of two rounds (everyone on the rules' default) show."""
    m = new_match(game_id, NAMES[:GAMES[game_id]], seed=3)
    for _ in range(2):
        m.resolve({})
    reports = [m.game.public_view(m.state)] + [r.public for r in m.rounds if r.public]
    reports += [rep for r in m.rounds for rep in r.private.values()]
    return [b for rep in reports for b in rep.blocks if b.grid]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_board_cell_of_a_column_starts_at_the_same_screen_column(game_id):
    from sheetbridge.core.types import Block, Report
    blocks = played_grids(game_id)
    assert blocks or game_id == "skeld"
    for block in blocks:
        (lines,) = code_blocks(markdown(Report("t", (Block(block.title, (), block.grid),))))
        for j, starts in cell_columns(block.grid, lines).items():
            assert len(starts) == 1, f"{game_id}, {block.title}: column {j} drifts: {lines}"


def test_wide_and_two_character_cells_keep_columns_straight():
    from sheetbridge.core.types import Block, Cell, Report
    grid = ((Cell(""), Cell("A"), Cell("B"), Cell("C")), (Cell("1"), Cell("SE"), Cell("漢"), Cell("·")),
            (Cell("2"), Cell("│═"), Cell(""), Cell("S")))
    (lines,) = code_blocks(markdown(Report("t", (Block("b", (), grid),))))
    assert {j: len(s) for j, s in cell_columns(grid, lines).items()} == {0: 1, 1: 1, 2: 1, 3: 1}


def test_the_key_names_the_symbol_each_colour_is_written_with():
    fl = next(b for b in played_grids("flickering-lights") if b.legend)
    from sheetbridge.core.types import Report
    text = markdown(Report("t", (fl,)))
    assert {"R = Red", "B = Blue", "- = Gray"} <= set(text.splitlines())
    assert "- Red" not in text.splitlines()
    bug = next(b for b in played_grids("bugcatcher") if any("path" in label for label, _ in b.legend))
    lines = markdown(Report("t", (bug,))).splitlines()
    assert "- blue path" not in lines and "- black path" not in lines
    # S and E are drawn in both node colours: text cannot tell them apart, and says so.
    assert any(ln.startswith("shown in the picture only: ") and "blue path" in ln for ln in lines)
    assert "· = corner point (border nodes move along the lines between them)" in lines


def test_announce_text_holds_no_local_path(tmp_path):
    folder = new_game(tmp_path, "three-modular-rooms")
    run("resolve", folder, "--allow-empty")
    out = run("announce", folder).output
    assert "round-1-board.png" in out and "attached when posted with --webhook" in out
    assert str(folder) not in out and "pictures/" not in out and "(board picture:" not in out


# ------------------------------------------------------------------ point 3: the opening post

def test_a_new_game_offers_the_opening_post_with_its_deadline_and_a_labelled_map(tmp_path):
    folder = new_game(tmp_path, "bugcatcher", deadline=DEADLINE)
    res = run("announce", folder)
    out = res.output
    assert "no round has been resolved yet: nothing to announce" not in out
    assert "## Bugcatcher: Pregame is open" in out
    assert f"Submissions close <t:{DEADLINE_UNIX}:F> (<t:{DEADLINE_UNIX}:R>)." in out
    assert "9 different corners, best first; C1 bottom right = D2 upper left" in out
    assert str(folder) not in out
    png = folder / "announcements" / "round-0-opening.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # The picture is a map of every coordinate a player may choose, each labelled.
    ld = load(XlsxStore(folder))
    op = opening(ld.match, None)
    labels = {s.text for s in op.picture.shapes if type(s).__name__ == "Label"}
    assert {f"{c}{r}" for c in "ABCDEF" for r in range(1, 6)} <= labels


def test_flickering_lights_announces_the_next_grid_and_variation_and_no_role(tmp_path):
    folder = new_game(tmp_path, "flickering-lights")
    res = run("resolve", folder, "--allow-empty")
    assert f"round 2's opening post is ready: `sheetbridge announce {folder} --opening`" in res.output
    out = run("announce", folder, "--opening").output
    m = load(XlsxStore(folder)).match
    label = m.form("Ann").round_label
    assert label.startswith("Round 2: ") and f"## Flickering Lights: {label} is open" in out
    board = m.game.public_view(m.state)
    (grid,) = [b for b in board.blocks if b.grid]
    from sheetbridge.host.discord_text import grid_lines
    assert grid_lines(grid.grid) in code_blocks(out)                 # the round 2 grid, as it stands
    assert all(line in out for line in grid.lines)                   # with its variation
    assert "No deadline is set yet" in out
    for p in m.players:      # a player's role (their own form's lines) never reaches the public post
        others = [m.form(q) for q in m.players if q != p]
        for line in m.form(p).help:
            if not all(line in f.help for f in others):
                assert line not in out, (p, line)
    assert "You are" not in out


# ------------------------------------------------------------------ point 3: reminders

def test_remind_says_the_deadline_and_who_has_not_submitted_nothing_else(tmp_path, hook):
    folder = new_game(tmp_path, "three-modular-rooms", deadline=DEADLINE)
    type_submission(folder / "players" / "Ann.xlsx", "Your play", [7, "Duel"])
    out = run("remind", folder, "--webhook", hook.url).output
    text = (f"**Reminder: Round 1 of 3** closes <t:{DEADLINE_UNIX}:F> (<t:{DEADLINE_UNIX}:R>).\n"
            "Not submitted yet: Bo, Cy.")
    assert out.startswith(text + "\n") and "Duel" not in out and "Ann" not in out
    (post,) = hook.posts
    assert json.loads(post[1])["content"] == text


def test_remind_refuses_a_bad_webhook_before_printing_and_names_a_missing_deadline(tmp_path):
    folder = new_game(tmp_path, "three-modular-rooms", deadline=DEADLINE)
    res = run("remind", folder, "--webhook", "not-a-url", ok=False)
    assert res.exit_code == 2 and res.output.startswith("error: --webhook 'not-a-url' is not a web address")
    assert "Reminder" not in res.output
    set_config(folder, deadline=None)
    res = run("remind", folder, ok=False)
    assert res.exit_code == 2 and "no deadline is set: type one in the deadline row" in res.output


def test_watch_posts_each_reminder_once_even_across_a_restart(tmp_path, hook):
    folder = new_game(tmp_path, "three-modular-rooms", deadline=DEADLINE, reminders="24h, 1h", webhook=hook.url)
    type_submission(folder / "players" / "Bo.xlsx", "Your play", [3, "Null"])
    store = XlsxStore(folder)

    def poll(at):   # the webhook is the Config tab's: it outlives the master written by the first reminder
        return [ln for ln in Watcher(store, watcher_id="w", now=Clock(at)).poll() if "reminder" in ln]

    assert poll("2026-11-23T14:00:00Z") == []                           # 25 h before: not yet
    assert poll("2026-11-23T15:30:00Z") == ["reminder (24h before the deadline) posted to Discord"]
    assert poll("2026-11-23T15:31:00Z") == []                           # a second poll, a restarted watch
    assert poll("2026-11-24T14:10:00Z") == ["reminder (1h before the deadline) posted to Discord"]
    assert poll("2026-11-24T14:20:00Z") == []
    assert poll("2026-11-24T15:00:05Z") == []                           # the deadline: locked, no reminder
    contents = [json.loads(b)["content"] for _, b in hook.posts]
    assert len(contents) == 2 and all("Not submitted yet: Ann, Cy." in c for c in contents)
    assert load(store).locked is not None
    # The Config row survives every master write, so the host sees what watch follows.
    ws = openpyxl.load_workbook(folder / "master.xlsx")["Config"]
    rows = {r[0]: r[1] for r in ws.iter_rows(values_only=True)}
    assert rows["reminders"] == "24h, 1h" and rows["webhook"] == hook.url


def test_a_round_opened_late_gets_one_reminder_not_every_missed_one(tmp_path, hook):
    folder = new_game(tmp_path, "three-modular-rooms", deadline=DEADLINE, reminders="24h, 1h")
    store = XlsxStore(folder)
    lines = Watcher(store, watcher_id="w", now=Clock("2026-11-24T14:30:00Z"), webhook=hook.url).poll()
    assert [ln for ln in lines if "reminder" in ln] == ["reminder (1h before the deadline) posted to Discord"]
    assert len(hook.posts) == 1


def test_a_bad_reminder_time_is_one_line_and_does_not_stop_the_deadline_lock(tmp_path, hook):
    folder = new_game(tmp_path, "three-modular-rooms", deadline=DEADLINE, reminders="soonish")
    lines = Watcher(XlsxStore(folder), watcher_id="w", now=Clock("2026-11-24T15:00:05Z"), webhook=hook.url).poll()
    assert any(ln.startswith("deadline: round 1 locked") for ln in lines)
    lines = Watcher(XlsxStore(folder), watcher_id="w", now=Clock("2026-11-24T14:00:00Z"), webhook=hook.url)
    reopen_submissions(XlsxStore(folder))
    (line,) = [ln for ln in lines.poll() if "reminder" in ln]
    assert "reminder time 'soonish' is not a time before the deadline" in line and not hook.posts


def test_on_google_watch_reminds_once_and_the_opening_post_is_the_same(tmp_path, hook):
    from tests.fake_google import FakeGoogle
    from tests.test_google_backend import HOST, _players
    fake = FakeGoogle(seed=2)
    st = fake.store(HOST, game_folder=tmp_path / "g")
    st.game_id = "three-modular-rooms"
    new.new_game("three-modular-rooms", _players("three-modular-rooms")[:3], st, seed=3, folder=tmp_path / "g")
    master = st.open("master", st.master_location())
    rows = master.read(["Config"])["Config"]
    cells = {(next(i for i, r in enumerate(rows, 1) if r and r[0] == k), 2): v
             for k, v in (("deadline", DEADLINE), ("reminders", "2h"))}
    master.update_cells("Config", cells)
    ld = load(st)
    fill_submission(st, ld, ld.match.players[0], {"play": [{"card": "3", "room": "Null"}]})
    for at in ("2026-11-24T13:30:00Z", "2026-11-24T13:31:00Z"):
        Watcher(st, watcher_id="w", now=Clock(at), webhook=hook.url).poll()
    (post,) = hook.posts
    others = ", ".join(ld.match.players[1:])
    assert json.loads(post[1])["content"].endswith(f"Not submitted yet: {others}.")
    from sheetbridge.host.round_posts import opening_post
    msgs = opening_post(st, now="2026-11-24T13:31:00Z").messages
    assert f"<t:{DEADLINE_UNIX}:F>" in msgs[0] and "## Three Modular Rooms: Round 1 of 11 is open" in msgs[0]


def test_the_opening_post_goes_to_the_webhook_with_its_picture_and_a_bad_url_prints_nothing(tmp_path, hook):
    folder = new_game(tmp_path, "flickering-lights", deadline="15:00")
    res = run("announce", folder, "--webhook", "not-a-url", ok=False)
    assert res.exit_code == 2 and res.output.startswith("error: --webhook 'not-a-url'") and "##" not in res.output
    out = run("announce", folder, "--opening", "--webhook", hook.url).output
    assert "posted 1 message(s) and the picture to the webhook" in out
    ((ctype, body),) = hook.posts
    assert ctype.startswith("multipart/form-data") and b'filename="round-1-opening.png"' in body
    assert b"\x89PNG\r\n\x1a\n" in body and b"<t:" in body and b":R>" in body


def test_remind_and_the_opening_post_say_the_deadline_extend_moved(tmp_path):
    """A deadline belongs to a round: once `extend` moved it, the posts announce the new moment (the one
    the lock will use), not the Config tab's."""
    folder = new_game(tmp_path, "three-modular-rooms", deadline="2099-01-01 10:00")
    run("extend", folder, "2099-01-02 12:30")
    moved = 4071040200      # 2099-01-02T12:30:00Z
    assert f"<t:{moved}:F> (<t:{moved}:R>)" in run("remind", folder).output
    assert f"<t:{moved}:F>" in run("announce", folder, "--opening").output
