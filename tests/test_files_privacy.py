"""No file a player can read holds another player's secrets: checked on real files for every game.

A line is Q's secret with respect to P when it is in Q's private view but in
neither P's own view, the public board, nor P's submission form. P's file
(read back from disk) must hold none of Q's secrets.
"""
import openpyxl
import pytest

from sheetbridge.core.facts import visible
from sheetbridge.api import games
from sheetbridge.host.demo import demo
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.session import load
from sheetbridge.host.identity import identity_tab
from sheetbridge.host.pictures import render_png
from sheetbridge.host.private_pictures import latest_picture
from sheetbridge.sheets.store import BOARD, player_key
from sheetbridge.sheets.xlsx import XlsxStore
from sheetbridge.host.tabs import board_picture, picture_tab

from conftest import players_for


def file_lines(path):
    wb = openpyxl.load_workbook(path)
    lines = set()
    for ws in wb.worksheets:
        for row in ws.iter_rows(values_only=True):
            for v in row:
                if v is not None and str(v).strip():
                    lines.add(str(v).strip())
    return lines


def view_lines(report):
    """Every text a report puts in a cell: titles, lines, grid cells (long enough to be telling), legends."""
    out = {report.title}
    for b in report.blocks:
        out.add(b.title)
        out.update(b.lines)
        out.update(label for label, _ in b.legend)
        for row in b.grid:
            out.update(c.text for c in row if len(c.text.strip()) >= 3 and not c.text.strip().lstrip("-").isdigit())
    return {x.strip() for x in out if x and x.strip()}


def secrets_by_pair(m, player_files):
    public = view_lines(m.public_report())
    views = {p: view_lines(m.player_report(p)) for p in m.players}
    for p in m.players:
        allowed = set(m.game.viewers(m.state, p))
        for q in m.players:
            if q in allowed:
                continue
            yield p, q, views[q] - views[p] - public - player_files[p]["form"]


@pytest.mark.parametrize("game_id", sorted(games()))
def test_no_player_file_holds_another_players_secrets(game_id, tmp_path):
    names = players_for(game_id)
    store = XlsxStore(tmp_path)
    # Stop part-way so forms are still open, then check every round's files.
    demo(game_id, store, seed=3, players=[PlayerInfo(n, "", 10) for n in names], folder=tmp_path)
    ld = load(XlsxStore(tmp_path))
    m = ld.match
    files = {}
    for p in m.players:
        content = file_lines(tmp_path / ld.locations[p])
        files[p] = {"all": content, "form": set()}
    for p in m.players:   # a file carries its own file id only: nobody can pass a file off as another's
        others = {fid for key, fid in ld.identities.items() if key != player_key(p)}
        assert ld.identities[player_key(p)] in files[p]["all"] and not files[p]["all"] & others
    assert_pictures_private(tmp_path, ld)
    checked = 0
    for p, q, secret in secrets_by_pair(m, files):
        leaked = files[p]["all"] & secret
        assert not leaked, f"{p}'s file holds {q}'s private lines: {sorted(leaked)[:3]}"
        checked += len(secret)
    assert checked > 0, "the check compared nothing: private views were empty"
    board = file_lines(tmp_path / "board.xlsx")
    public_cells = {c.text.strip() for b in m.public_report().blocks for row in b.grid for c in row}
    caption = {picture_tab(m).rows[0][0].value}      # the Picture tab's title: "Round 7: the board"
    own_identity = {v for row in identity_tab(BOARD, ld.identities[BOARD]).values() for v in row}   # issue 25
    extra = board - view_lines(m.public_report()) - public_cells - caption - own_identity
    assert not extra, f"the public board holds lines that are not in the public report: {sorted(extra)[:3]}"
    # The board's picture is the one drawn from the public facts alone, byte for byte.
    last = m.rounds[-1].round
    pic = board_picture(m, last)
    embedded = [image._data() for ws in openpyxl.load_workbook(tmp_path / "board.xlsx").worksheets
                for image in ws._images]
    assert embedded == ([render_png(pic)] if pic is not None else [])
    if pic is not None:
        assert pic == m.game.picture(visible(m.rounds[-1].facts, None), None, m.context(last))


def embedded_pictures(path):
    return [image._data() for ws in openpyxl.load_workbook(path).worksheets for image in ws._images]


def assert_pictures_private(folder, ld):
    """Each player's file shows their own picture of the last round (issue 27, point 4), in their
    Results tab, and no picture drawn for anyone else (one identical to their own is not a secret)."""
    m = ld.match
    own = {p: render_png(found[1]) for p in m.players if (found := latest_picture(m, p)) is not None}
    for p in m.players:
        path = folder / ld.locations[p]
        shown = embedded_pictures(path)
        assert shown == ([own[p]] if p in own else []), f"{p}'s file shows {len(shown)} picture(s)"
        if p in own:
            assert [image._data() for image in openpyxl.load_workbook(path)["Results"]._images] == [own[p]]
        leaked = [q for q, png in own.items() if q != p and png in shown and png != own.get(p)]
        assert not leaked, f"{p}'s file shows the picture drawn for {leaked}"
    return own


def test_the_privacy_check_can_fail(tmp_path):
    # Write Bo's private report into Ann's file and the check must see it.
    from sheetbridge.sheets import layout as L
    store = XlsxStore(tmp_path)
    demo("three-modular-rooms", store, seed=3, players=[PlayerInfo(n, "", 10) for n in ["Ann", "Bo", "Cy"]],
         folder=tmp_path)
    ld = load(XlsxStore(tmp_path))
    m = ld.match
    store.open("player:Ann", ld.locations["Ann"]).write({"Leak": L.report_tab(m.player_report("Bo"))})
    files = {p: {"all": file_lines(tmp_path / ld.locations[p]), "form": set()} for p in m.players}
    leaks = [p for p, q, secret in secrets_by_pair(m, files) if files[p]["all"] & secret]
    assert "Ann" in leaks


def test_the_picture_check_can_fail(tmp_path):
    # Skeld draws each player their own map: show Bo's in Ann's Results tab and the check must see it.
    from dataclasses import replace
    from sheetbridge.sheets import layout as L
    from sheetbridge.sheets.model import TabImage
    store = XlsxStore(tmp_path)
    demo("skeld", store, seed=3, players=[PlayerInfo(n, "", 10) for n in ["Ann", "Bo", "Cy", "Dee"]],
         folder=tmp_path)
    ld = load(XlsxStore(tmp_path))
    own = assert_pictures_private(tmp_path, ld)
    assert set(own) == set(ld.match.players) and len(set(own.values())) > 1
    tab = replace(L.report_tab(ld.match.player_report("Ann")), images=[TabImage(own["Bo"])])
    store.open("player:Ann", ld.locations["Ann"]).write({"Leak": tab})
    with pytest.raises(AssertionError, match="Ann's file shows 2 picture"):
        assert_pictures_private(tmp_path, ld)
