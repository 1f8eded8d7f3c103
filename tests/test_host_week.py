"""One host's week per game, as README's "A host's week" tells it (issue 27, "Done means"), on real xlsx
files and on the offline Google fake, every step through the real CLI:

`new` -> the opening post -> a reminder -> the files that come back collected (xlsx: a re-download
"Ann (1).xlsx" newer than the one in place, and Bo's file sent under Cy's name) -> `lock` -> `resolve`
-> the public and private posts and the round's pictures -> standings (the host's and --public).

Each step's output is checked against what the README says it does, and over the whole week no text
a player can read (every tab of their own file, their confessional, the opening post, the reminder,
the public post, the board file, the public standings) and no picture they would receive holds another
player's secret (the line-by-line check of tests/test_files_privacy.py).

Cheap on purpose (the suite's budget): small player counts, one round each; when that round scores nothing
(the pregames of Bugcatcher and Skeld), one more round, every player typing, follows for the standings.
On Google the CLI's stores are the fake's (the same commands, through the real gspread client), and what a
player reads of their spreadsheet is read with their own client.
"""
from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from sheetbridge.host import session as host_session
from sheetbridge.host.config import read_config
from sheetbridge.host.demo import fill_submission
from sheetbridge.host.late_lock import typed_entries
from sheetbridge.host.session import load
from sheetbridge.cli import main
from sheetbridge.core.facts import HOST, visible
from sheetbridge.core.match import random_submissions
from sheetbridge.core.rng import Rng
from sheetbridge.host.pictures import render_png
from sheetbridge.host.picture_files import picture_path
from sheetbridge.sheets import layout as L
from sheetbridge.sheets.store import player_key
from sheetbridge.sheets.xlsx import XlsxStore
from sheetbridge.host.tabs import STANDINGS_TAB, board_picture
from tests.test_collect import stamp
from tests.test_files_privacy import file_lines, secrets_by_pair

HOST_EMAIL = "host@example.com"
NAMES = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus"]
PLAYERS = {"three-modular-rooms": 4, "skeld": 4, "bugcatcher": 4, "big-machine": 4, "flickering-lights": 7}
DEADLINE = "2099-01-02 15:00"
DEADLINE_UNIX = int(dt.datetime(2099, 1, 2, 15, 0, tzinfo=dt.timezone.utc).timestamp())
CASES = [pytest.param(g, backend, id=f"{g}-{backend}") for backend in ("xlsx", "google") for g in PLAYERS]


# ------------------------------------------------------------------ the host's two backends, one CLI

class Week:
    """A game folder driven through the CLI; on Google the CLI's stores are the fake's."""

    def __init__(self, tmp_path: Path, game_id: str, backend: str, monkeypatch):
        self.game_id, self.backend = game_id, backend
        self.folder = tmp_path / "game"
        self.names = NAMES[:PLAYERS[game_id]]
        self.fake = None
        if backend == "google":
            from sheetbridge.sheets import google as G
            from tests.fake_google import FakeGoogle
            self.fake = fake = FakeGoogle(seed=4)

            def opened(folder, progress=None):
                cfg = read_config(Path(folder))
                st = G.open_google_store({**cfg, "folder": str(folder)}, session=fake.session(HOST_EMAIL),
                                         clock=fake.clock, sleep=fake.sleep, wall_clock=fake.wall_clock)
                st.game_id = cfg.get("game")
                return st
            monkeypatch.setattr(host_session, "open_store", opened)
            monkeypatch.setattr(G, "new_google_store", lambda folder, **kw: fake.store(HOST_EMAIL, game_folder=folder))

    def cli(self, *args, ok=True):
        res = CliRunner().invoke(main, [str(a) for a in args])
        if ok:
            assert res.exit_code == 0, res.output
        return res

    def store(self):
        return host_session.open_store(self.folder)

    def new(self):
        players = (", ".join(f"{n} <{n.lower()}@example.com>" for n in self.names) if self.fake
                   else ",".join(self.names))
        return self.cli("new", self.game_id, "--players", players, "--out", self.folder, "--seed", 5,
                        "--garnets", 10, *(["--google"] if self.fake else []),
                        *(["--option", "rounds=3"] if self.game_id == "three-modular-rooms" else []))

    def set_config(self, **settings):
        """Type settings into the master's Config tab as a host would (the row named by its first cell)."""
        if self.fake is None:
            wb = openpyxl.load_workbook(self.folder / "master.xlsx")
            ws = wb["Config"]
            for key, value in settings.items():
                ws.cell(next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == key), 2).value = value
            wb.save(self.folder / "master.xlsx")
            return
        st = self.store()
        master = st.open("master", st.master_location())
        rows = master.read(["Config"])["Config"]
        master.update_cells("Config", {(next(i for i, r in enumerate(rows, 1) if r and r[0] == k), 2): v
                                       for k, v in settings.items()})

    def type(self, player, raw):
        """The player types their entries into their own Submission tab."""
        st = self.store()
        fill_submission(st, load(st), player, raw)

    def readable(self, player) -> set[str]:
        """Every non-empty cell of every tab of the player's own file, read back from disk or from Google."""
        if self.fake is None:
            return file_lines(self.folder / "players" / f"{player}.xlsx")
        return self._google_cells(f"{player.lower()}@example.com", load(self.store()).locations[player])

    def board(self) -> set[str]:
        if self.fake is None:
            return file_lines(self.folder / "board.xlsx")
        ld = load(self.store())
        return self._google_cells("ann@example.com", ld.board_location)

    def _google_cells(self, email, location) -> set[str]:
        """What the player's own Google client reads: every tab of the spreadsheet, through gspread."""
        book = self.fake.gspread_client(email).open_by_key(location)
        return {str(v).strip() for ws in book.worksheets() for row in ws.get_all_values() for v in row
                if str(v).strip()}


# ------------------------------------------------------------------ reading posts as a player reads them

def tokens(text: str) -> set[str]:
    """Each line of a post, without its Markdown, and each cell of its tables (code blocks, standings)."""
    out = set()
    for line in text.splitlines():
        bare = re.sub(r"^(#+ |- |\*\*)|\*\*$", "", line.strip()).strip()
        out |= {line.strip(), bare}
        out |= {c.strip() for c in re.split(r"\s*\|\s*|\s{2,}", bare)}
    return {t for t in out if t}


def posts(output: str) -> dict[str, list[str]]:
    """announce's output: its messages by who may read them ("public" or a player), in order."""
    out: dict[str, list[str]] = {}
    who = None
    for part in re.split(r"^(----- .* -----)$", output, flags=re.M):
        head = re.match(r"----- (public|private to ([^,]+),|picture)", part)
        if head:
            who = "picture" if head.group(1) == "picture" else head.group(2) or "public"
        elif who is not None and part.strip():
            out.setdefault(who, []).append(part.strip("\n"))
    return out


def leaks(m, readable: dict[str, set[str]]) -> list[tuple[str, str, list[str]]]:
    files = {p: {"all": readable[p], "form": set()} for p in m.players}
    found = []
    checked = 0
    for p, q, secret in secrets_by_pair(m, files):
        checked += len(secret)
        if readable[p] & secret:
            found.append((p, q, sorted(readable[p] & secret)[:3]))
    assert checked > 0, "the check compared nothing: private views were empty"
    return found


def picture_labels(pic) -> set[str]:
    return {s.text.strip() for s in pic.shapes if type(s).__name__ == "Label" and s.text.strip()}


# ------------------------------------------------------------------ the week

@pytest.mark.parametrize("game_id, backend", CASES)
def test_a_hosts_week(game_id, backend, tmp_path, monkeypatch):
    week = Week(tmp_path, game_id, backend, monkeypatch)
    folder = week.folder
    ann, bo, last = "Ann", "Bo", week.names[-1]

    # 1. Create the game.
    out = week.new().output
    assert "Created" in out and f"for {len(week.names)} players" in out and "(seed 5:" in out
    week.set_config(deadline=DEADLINE)
    m = load(week.store()).match
    label = m.form(ann).round_label

    opening = check_opening_post(week, m)                           # 3. Open the round.

    # Everyone but Ann, Bo and the last player types legal entries in place.
    entries = random_submissions(m, Rng.from_seed(5, "week"), 0.0)
    for p in week.names:
        if p not in (ann, bo, last):
            week.type(p, entries[p])

    # 4. Remind the late ones: the deadline and exactly who has not submitted, nothing else.
    remind = week.cli("remind", folder).output.strip()
    assert remind == (f"**Reminder: {label}** closes <t:{DEADLINE_UNIX}:F> (<t:{DEADLINE_UNIX}:R>).\n"
                      f"Not submitted yet: {ann}, {bo}, {last}.")

    # 5. The files that come back.
    if backend == "xlsx":
        collect_returned_files(week, m, entries, tmp_path / "Downloads")
    else:
        type_on_google(week, entries, tmp_path)
    status = week.cli("status", folder).output
    assert "not used" not in status
    lines = {ln.split()[0]: ln for ln in status.splitlines() if ln.startswith("  ")}
    assert "submitted: ok" in lines[ann] and "submitted: ok" in lines[bo] and "not submitted" in lines[last]
    assert week.cli("remind", folder).output.strip().endswith(f"Not submitted yet: {last}.")

    ld, rec = lock_then_resolve(week, m, entries)                    # 6. The deadline; 8. resolve.
    m = ld.match
    assert set(rec.public.blocks[0].lines) <= week.board()          # published: the board shows the round

    # 9. Tell Discord, then 10. standings.
    seen = told(week, m, rec)
    if backend == "xlsx":
        check_private_posts(week, m, rec)
    public_view = check_standings(week, ld, rec, *week.names)
    if public_view is None:   # a round that scored nothing (the pregames of Bugcatcher and Skeld)
        entries = random_submissions(m, Rng.from_seed(5, "round 1"), 0.0)
        for p in week.names:
            week.type(p, entries[p])
        assert f"round {m.round} resolved and published" in week.cli("resolve", folder).output
        ld = load(week.store())
        m, rec = ld.match, ld.match.rounds[-1]
        seen = {p: seen.get(p, set()) | more for p, more in told(week, m, rec).items()}
        public_view = check_standings(week, ld, rec, *week.names)
        assert public_view is not None

    # Privacy over the whole week: everything each player can read or receive, against every other's secrets.
    shared = tokens(opening) | tokens(remind) | tokens(public_view) | week.board() | seen["public"]
    readable = {p: week.readable(p) | shared | seen.get(p, set()) for p in m.players}
    found = leaks(m, readable)
    assert not found, f"a player can read another player's secret: {found}"
    # The check can see a leak: another player's confessional (not a teammate's) pasted into what Ann reads.
    other = next(q for q in m.players if q not in m.game.viewers(m.state, ann) and seen.get(q))
    planted = {**readable, ann: readable[ann] | seen[other]}
    assert any(p == ann and q == other for p, q, _ in leaks(m, planted))


def check_opening_post(week: Week, m) -> str:
    """3. Open the round: what to do, the board or map and its picture, the deadline as Discord timestamps."""
    folder = week.folder
    opening = week.cli("announce", folder, "--opening").output
    assert "is open" in opening and m.form("Ann").round_label in opening
    assert f"<t:{DEADLINE_UNIX}:F>" in opening and f"<t:{DEADLINE_UNIX}:R>" in opening
    assert str(folder) not in opening and "pictures/" not in opening
    opening_png = folder / "announcements" / f"round-{m.round}-opening.png"
    if "----- picture:" in opening:   # a board, a grid or a labelled map of the coordinates (not every game)
        assert opening_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and opening_png.name in opening
    else:
        assert not opening_png.exists()
    return opening


def lock_then_resolve(week: Week, m, entries):
    """6. The deadline: `lock` snapshots every Submission tab; what the last player types after it is named by
    status, not counted, and they are told. 8. `resolve` publishes from the snapshot."""
    folder, last, n = week.folder, week.names[-1], len(week.names)
    locked = week.cli("lock", folder).output
    assert f"round {m.round} locked (locked by the host): {n - 1} of {n} player(s) had entries" in locked
    week.type(last, entries[last])
    after = week.cli("status", folder).output
    assert "(locked since " in after
    assert next(ln for ln in after.splitlines() if ln.split()[:1] == [last]).endswith(
        "not submitted; edited after the lock (not counted)")
    resolved = week.cli("resolve", folder).output
    assert f"edited after the lock (not counted): {last}" in resolved
    assert f"round {m.round} resolved and published" in resolved
    ld = load(week.store())
    rec = ld.match.rounds[-1]
    assert typed_entries(entries[last]) and not typed_entries(rec.raw.get(last))   # the snapshot, not the late entry
    assert f"Round {rec.round}: your entries arrived after the deadline" in week.readable(last)
    return ld, rec


def told(week: Week, m, rec) -> dict[str, set[str]]:
    """`announce` and `announce --private`, checked; what each reads of them and of the round's pictures
    ("public": what everyone does)."""
    folder = week.folder
    public_out = week.cli("announce", folder).output
    private_out = week.cli("announce", folder, "--private").output
    said = posts(private_out)
    assert posts(public_out)["public"] == said["public"] and said["public"]
    assert "\n".join(said["public"]).startswith(f"## {rec.public.title}")
    assert set(said) - {"public", "picture"} == set(rec.private)
    for p in rec.private:   # each confessional is that player's own report of the round
        assert "\n".join(said[p]).startswith(f"## {rec.private[p].title}")
    assert str(folder) not in public_out + private_out
    seen = {p: tokens("\n".join(msgs)) for p, msgs in said.items() if p != "picture"}
    board_pic = board_picture(m, rec.round)
    if board_pic is not None:   # the board's picture is drawn from the public facts alone
        assert board_pic == m.game.picture(visible(rec.facts, None), None, m.context(rec.round))
        assert picture_path(folder, rec.round, "board").read_bytes() == render_png(board_pic)
        assert f"round-{rec.round}-board.png" in public_out
        seen["public"] |= picture_labels(board_pic)
    for p in m.players:   # each player's picture: drawn from what they may see, byte for byte on disk
        own = m.game.picture(visible(rec.facts, p), p, m.context(rec.round))
        path = picture_path(folder, rec.round, p)
        assert path.exists() == (own is not None)
        if own is not None:
            assert path.read_bytes() == render_png(own)
            seen[p] = seen.get(p, set()) | picture_labels(own)
    return seen


def check_private_posts(week: Week, m, rec) -> None:
    """9. Each player's own picture in their Results tab and nobody else's; `announce --post-private` sends
    each confessional, with that picture, to the player's own channel only (webhooks in the Players tab)."""
    from tests.test_confessionals import Channels, type_webhooks
    from tests.test_files_privacy import assert_pictures_private
    own = assert_pictures_private(week.folder, load(week.store()))
    names = list(m.players)

    class PlayerChannels(Channels):
        @staticmethod
        def path(player: str) -> str:
            return f"/api/webhooks/{2000 + names.index(player)}/{player}-channel-token"
    channels = PlayerChannels()
    try:
        type_webhooks(week.folder, {p: channels.url(p) for p in names})
        out = week.cli("announce", week.folder, "--post-private").output
        assert "-channel-token" not in out           # a webhook is a secret: never printed whole
        for p in names:
            texts, files = channels.received(p)
            assert texts and texts[0].startswith(f"## {rec.private[p].title}"), (p, texts[:1])
            assert files == ([own[p]] if p in own else []), f"{p}'s channel got {len(files)} picture(s)"
    finally:
        channels.close()


def check_standings(week: Week, ld, rec, *players: str) -> str | None:
    """`standings` (the host's) as the master's Standings tab shows them, each figure the round's facts' score;
    a player's own row as the host's; `--public` printed. None when the round scored nothing (a pregame)."""
    m = ld.match
    host_view = week.cli("standings", week.folder).output
    public_view = week.cli("standings", week.folder, "--public").output
    scores: dict[str, float] = {}   # a player's scores in the round add up (Skeld: one per component gained)
    for s in m.game.round_scores(visible(rec.facts, HOST)):
        scores[s.player] = scores.get(s.player, 0) + (s.score or 0)
    if not scores:
        assert "no round has been scored yet" in host_view and "no round has been scored yet" in public_view
        return None
    st = m.standings(HOST)
    assert host_view.strip() == st.text() and public_view.strip() == m.standings(None).text()
    assert st.rounds[-1] == rec.round
    for row in st.rows:   # (a player the facts give no score scored nothing: Skeld's without a component)
        assert row.rounds[-1] == scores.get(row.player, 0) and row.total == sum(v for v in row.rounds if v is not None)
    table = [[str(c) for c in r] for r in st.table()]
    assert read_standings_tab(week, ld)[1:1 + len(table)] == table
    for p in (p for p in players if p in scores):   # what a player knows of their own row is the host's figure
        assert week.cli("standings", week.folder, "--player", p).output.strip() == m.standings(p).text()
        assert next(r for r in m.standings(p).rows if r.player == p).rounds[-1] == scores[p]
    return public_view


def type_on_google(week: Week, entries, tmp_path: Path) -> None:
    """On Google every player types into their own spreadsheet: `collect` says there is nothing to collect."""
    sent = tmp_path / "Ann.xlsx"
    sent.write_bytes(b"not used")
    res = week.cli("collect", week.folder, sent, ok=False)
    assert res.exit_code == 2 and res.output.count("\n") == 1 and "nothing to collect" in res.output
    week.type("Ann", entries["Ann"])
    week.type("Bo", entries["Bo"])


def collect_returned_files(week: Week, m, entries, downloads: Path) -> None:
    """xlsx: Ann's first version and her re-download "Ann (1).xlsx" (saved later, newer than the one in
    place), and Bo's file sent under Cy's name; `collect --from` files each by its identity."""
    folder = week.folder
    downloads.mkdir()
    players = folder / "players"
    first_try = random_submissions(m, Rng.from_seed(6, "first try"), 0.0)["Ann"]
    sent = {"Ann.xlsx": ("Ann", first_try, "2099-01-01T10:00:00Z"),
            "Ann (1).xlsx": ("Ann", entries["Ann"], "2099-01-01T11:00:00Z"),
            "Cy.xlsx": ("Bo", entries["Bo"], "2099-01-01T11:30:00Z")}
    store = XlsxStore(downloads)
    for name, (owner, raw, saved) in sent.items():
        shutil.copy(players / f"{owner}.xlsx", downloads / name)
        store.open(player_key(owner), name).write({L.tab_name("submission"): L.form_tab(m.form(owner), owner, raw)})
        stamp(downloads / name, saved)
    cy_before = (players / "Cy.xlsx").read_bytes()
    out = week.cli("collect", folder, "--from", downloads).output
    assert "filed: Ann (1).xlsx filed as Ann's file (saved 2099-01-01 11:00:00 UTC)" in out
    assert "kept aside: Ann.xlsx is Ann's file, older than Ann (1).xlsx" in out
    assert "filed: Cy.xlsx filed as Bo's file" in out and "its name is Cy's but it carries Bo's identity" in out
    assert (players / "Ann.xlsx").read_bytes() == (downloads / "Ann (1).xlsx").read_bytes()
    assert (players / "Bo.xlsx").read_bytes() == (downloads / "Cy.xlsx").read_bytes()
    assert (players / "Cy.xlsx").read_bytes() == cy_before
    assert len(list((players / "replaced").iterdir())) == 2           # Ann's and Bo's blank files, kept


def read_standings_tab(week: Week, ld) -> list[list[str]]:
    """The master's Standings tab, re-read (from disk with openpyxl, or through the Google store)."""
    if week.fake is None:
        ws = openpyxl.load_workbook(week.folder / "master.xlsx")[STANDINGS_TAB]
        rows = [["" if v is None else str(v) for v in r] for r in ws.iter_rows(values_only=True)]
    else:
        rows = [[str(v) for v in r] for r in ld.master.read([STANDINGS_TAB])[STANDINGS_TAB]]
    width = len(ld.match.standings(HOST).table()[0])
    return [(r + [""] * width)[:width] for r in rows]
