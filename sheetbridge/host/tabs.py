"""What each book shows, drawn from a Match: the master's tabs, a player's tabs, the board.

Rendering only: the host's commands decide when and where these are written. Every
private tab comes from :meth:`Match.player_report`, the one per-player view.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from ..core import integrity
from ..core.decisions import ballots_text, pending_text
from ..core.match import Match
from ..sheets import layout as L
from ..sheets.model import CellData, TabData, TabImage
from ..sheets.store import Store
from .confessionals import WEBHOOK_HEADER
from .players import PlayerInfo
from .record import record_tab


def master_tabs(ld_match: Match, players: Sequence[PlayerInfo], locations: Mapping[str, str], board: str,
                store: Store, warnings: Sequence[str] = (),
                record_extra: Mapping[str, Any] | None = None,
                webhooks: Mapping[str, str] | None = None, record_held: Sequence[str] = ()) -> dict[str, TabData]:
    """The master's tabs; `record_extra` adds the host's bookkeeping to the record (revision, saved entries);
    `webhooks`: each player's confessional webhook as the host typed it (kept in the Players tab only,
    never in the record: confessionals.py); `record_held`: the round entries the Record tab holds (host/record.py)."""
    m = ld_match
    game = m.game
    cfg_rows: list[list[Any]] = [["game", game.spec.id, game.spec.name], ["name", m.name, "this game's id in the ledger"],
                                 ["seed", str(m.seed), "every round's random draws derive from it"],
                                 ["round", CellData(m.round if not m.finished else "finished", align="left"),
                                  "the round open for submissions"],
                                 ["deadline", (record_extra or {}).get("deadline", ""),
                                  "when the open round's submissions lock, UTC: '2026-11-24 15:00' once, or '15:00' "
                                  "(3pm) every day; `sheetbridge watch` (or `sheetbridge lock`) takes the snapshot"],
                                 ["reminders", (record_extra or {}).get("reminders", ""),
                                  "when `sheetbridge watch` posts a reminder before the deadline, e.g. '24h, 1h' "
                                  "(once each, to the webhook)"],
                                 ["webhook", (record_extra or {}).get("webhook", ""),
                                  "the Discord webhook the menu's Post announcement and watch's reminders post to"],
                                 L.header_cells(["option", "value", "options can be changed until round 1 is resolved"])]
    for o in game.spec.options:
        allowed = f" Allowed: {', '.join(map(str, o.choices))}." if o.choices else ""
        cfg_rows.append([o.name, CellData(_cell(m.options[o.name]), align="left"),
                         f"{o.help}{allowed} Default {_cell(o.default)}."
                         + (f" ({o.ruling})" if o.ruling else "")])
    bal = m.ledger.balances(m.players)
    player_rows = [[p.name, p.email, locations.get(p.name, ""), bal[p.name], (webhooks or {}).get(p.name, "")]
                   for p in players]
    log_rows: list[list[Any]] = [["round", "note"]]
    for w in warnings:
        log_rows.append(["", w])
    outcome = m.outcome()
    end_lines = (*outcome.host_log, *(f"Pending: {p}" for p in outcome.pending),
                 *(pending_text(r) for r in outcome.requests if r.key not in m.decisions)) if outcome is not None else ()
    for line in end_lines:   # the end of the game, newest first
        log_rows.append(["end", line])
    for rec in reversed(m.rounds):
        for line in rec.problems() + rec.host_log:
            log_rows.append([rec.round, line])
    # A sealed head and one sealed entry per round (host/record.py); the Ledger tab's column H chains its
    # rows (core/integrity.py).
    record = record_tab(m, {"players": [{"name": p.name, "email": p.email} for p in players],
                            "locations": dict(locations), "board": board, "store": store.export_cache(),
                            **(record_extra or {})}, record_held)
    tabs = {
        L.tab_name("config"): L.key_value_tab(f"{game.spec.name}: configuration", cfg_rows, ["key", "value", "help"],
                                              max_widths={2: L.width("config_help")}),
        L.tab_name("players"): L.key_value_tab("Players", player_rows, ["player", "email", "file", "garnets now",
                                                                          WEBHOOK_HEADER]),
        L.tab_name("rounds"): rounds_tab(m),
        L.tab_name("board"): board_tab(m),
        L.tab_name("ledger"): ledger_tab(m),
    }
    tabs[DECISIONS_TAB] = decisions_tab(m)
    tabs[STANDINGS_TAB] = standings_tab(m)
    for t in game.spec.tables:
        tabs[t.name] = L.table_tab(m.tables.get(t.name) or [[]])
    tabs[L.tab_name("log")] = L.table_tab(log_rows, max_widths={1: L.width("log_note")})
    tabs[L.tab_name("record")] = record
    return tabs


STANDINGS_TAB = "Standings"


def standings_tab(m: Match) -> TabData:
    """The host's standings (core/standings.py): score per round and total, rank, tie-break state."""
    st = m.standings()
    table = st.table()
    rows = table[1:] + ([[], ["ties", st.tie_rule]] if st.tie_rule else [])
    when = "final" if st.final else "so far" if st.rounds else "no round scored yet"
    return L.key_value_tab(f"Standings ({when}, in {st.unit})", rows, table[0])


DECISIONS_TAB = "Decisions"
DECISIONS_HEADER = ["key", "question", "who decides", "allowed", "value", "until entered"]


def decisions_tab(m: Match) -> TabData:
    """What the rules leave to the host: one row per decision asked for; the host types the value
    (column E) and runs `sheetbridge decide` (or `resolve`, which applies typed values first)."""
    rows = []
    for req in m.requests():
        entered = m.decisions.get(req.key)
        shown = ", ".join(entered) if isinstance(entered, list) else ("" if entered is None else str(entered))
        if isinstance(entered, dict):   # ballots, shown as they are typed so the tab reads back the same
            shown = ballots_text(entered)
        if isinstance(entered, bool):
            shown = "yes" if entered else "no"
        rows.append([req.key, req.question, req.who, req.allowed(), shown, req.default])
    if not rows:
        rows.append(["", "No decision is asked for yet.", "", "", "", ""])
    return L.key_value_tab("Decisions the rules leave to the host", rows, DECISIONS_HEADER)


def read_decisions(rect: Sequence[Sequence[str]]) -> dict[str, str]:
    """Values typed in the Decisions tab, by key (blank values are not decisions)."""
    out: dict[str, str] = {}
    header_seen = False
    for row in rect:
        if not header_seen:
            header_seen = bool(row) and row[0] == DECISIONS_HEADER[0]
            continue
        if len(row) > 4 and row[0].strip() and str(row[4]).strip():
            out[row[0].strip()] = str(row[4]).strip()
    return out


def rounds_tab(m: Match) -> TabData:
    """The round log: one row per round, what came in and what it booked, in words a host reads."""
    rows: list[list[Any]] = []
    for rec in m.rounds:
        missing = [p for p, s in rec.submissions.items() if s is None]
        faulty = [f"{p} ({', '.join(sorted({pr.field for pr in s.problems}))})"
                  for p, s in rec.submissions.items() if s is not None and s.problems]
        submitted = len(rec.submissions) - len(missing)
        moved = sum(abs(r.change) for r in rec.ledger)
        notes = "; ".join(x for x in (f"not submitted: {', '.join(missing)}" if missing else "",
                                      f"problems: {', '.join(faulty)}" if faulty else "") if x)
        rows.append([rec.round, "resolved", f"{submitted} of {len(m.players)}", len(faulty), len(rec.ledger),
                     moved, notes or "all valid"])
    if not m.finished:
        rows.append([m.round, "open", "", "", "", "", "waiting for submissions"])
    return L.key_value_tab("Round log", rows, ["round", "status", "submitted", "with problems", "ledger rows",
                                               "garnets moved", "notes"], max_widths={6: 48.0})


LEDGER_TOTALS_COLUMN = 9   # J: right of the ledger (A-G) and of the reserved check column (H)


def ledger_rows(m: Match) -> list[list[Any]]:
    """The Ledger's columns A-H: the header, then every row with the check chaining it to the one above."""
    return [list(integrity.HEADER)] + [r.as_list() + [check] for r, check in
                                      zip(m.ledger.rows, integrity.chain(m.ledger.rows))]


def ledger_tab(m: Match) -> TabData:
    """The Ledger: columns A-G are the rows (host rows may be added below), H the check that chains
    each row to the one above (core/integrity.py); from J, totals per player at the last write."""
    tab = L.table_tab(ledger_rows(m), max_widths={4: 44.0, 6: 40.0})
    totals = [["player", "garnets now", "ledger rows"]]
    balances, counts = m.ledger.balances(m.players), m.ledger.row_counts(m.players)
    for p in m.players:
        totals.append([p, balances[p], counts[p]])
    totals.append(["all players", sum(balances.values()), len(m.ledger.rows)])
    widths = L.content_widths([L.header_cells(totals[0])] + [[CellData(v) for v in row] for row in totals[1:]])
    out = [list(r) for r in tab.rows]
    for i, row in enumerate(totals):
        while len(out) <= i:
            out.append([])
        line = out[i] + [CellData()] * (LEDGER_TOTALS_COLUMN - len(out[i]))
        if i == 0:
            cells = L.header_cells(row)
        else:
            last = i == len(totals) - 1
            cells = [CellData(v, bold=last) for v in row]
        out[i] = line + cells
    tab.rows = out
    tab.col_widths.update({LEDGER_TOTALS_COLUMN + c: w for c, w in widths.items()})
    tab.col_widths[LEDGER_TOTALS_COLUMN - 1] = 3.0   # I: a narrow gap
    # Only the rows the totals were added to can change height (the table's columns keep their widths):
    # the ledger's other rows, one per booking of the whole game, are not measured again.
    below = {r: h for r, h in tab.row_heights.items() if r >= len(totals)}
    tab.row_heights = {**L.row_heights(tab.rows[:len(totals)], tab.col_widths, tab.merges), **below}
    return tab


def _cell(v: Any) -> Any:
    return str(v).lower() if isinstance(v, bool) else v


def player_tabs(m: Match, player: str, prefill: Mapping[str, Any] | None = None,
                locked: bool = False, picture: bool = False, picture_link: str | None = None,
                board: TabData | None = None) -> dict[str, TabData]:
    """A player's book: their form, their private report (the one view function), the public board.
    ``locked``: the deadline passed; the form shows the snapshot and nothing in it is editable.
    ``picture`` (a backend that embeds images: xlsx): their own picture below their report;
    ``picture_link`` (Google): the address of their own picture file instead (private_pictures.py).
    ``board``: the Board tab (:func:`board_tab`), when the caller draws every player's book: the same
    for all of them."""
    if m.finished:
        sub = L.closed_form_tab("The match is over: no more submissions.")
    else:
        sub = L.form_tab(m.form(player), player, prefill)
        if locked:
            sub = locked_form(sub)
    from .private_pictures import results_tab
    results = results_tab(m.player_report(player), m, player, embed=picture, link=picture_link)
    return {L.tab_name("submission"): sub,
            L.tab_name("results"): results,
            L.tab_name("board"): board if board is not None else board_tab(m)}


def locked_form(tab: TabData) -> TabData:
    """The same Submission tab with no entry cell left editable, and a title that says why."""
    rows = [[replace(c, input=False, choices=()) for c in row] for row in tab.rows]
    if rows and rows[0]:
        first = rows[0][0]
        rows[0][0] = replace(first, value=f"{first.value} (locked at the deadline: the host has your entries)")
    return replace(tab, rows=rows, protected=True)


def board_tab(m: Match) -> TabData:
    """The public board's tab, as the board's book, the master and every player's book show it."""
    return L.report_tab(m.public_report())


def board_tabs(m: Match, picture: bool = False, board: TabData | None = None) -> dict[str, TabData]:
    """The public board's tabs; with `picture` (a backend that embeds images: xlsx) also a
    Picture tab showing the last resolved round's board as a PNG (:func:`picture_tab`).
    ``board``: the Board tab, when the caller has drawn it (:func:`board_tab`)."""
    tabs = {L.tab_name("board"): board if board is not None else board_tab(m)}
    if picture:
        tabs[L.tab_name("picture")] = picture_tab(m)
    return tabs


def board_picture(m: Match, round_no: int) -> Any:
    """The public picture of a round (a core.picture.Picture), drawn from its public facts; None
    if the round is not resolved or the game draws none."""
    rec = next((r for r in m.rounds if r.round == round_no), None)
    if rec is None or not rec.facts:
        return None
    from ..core.facts import visible
    return m.game.picture(visible(rec.facts, None), None, m.context(round_no))


def picture_tab(m: Match) -> TabData:
    """A title naming the round, and the round's board picture below it."""
    from ..core.types import Report
    last = m.rounds[-1].round if m.rounds else None
    pic = board_picture(m, last) if last is not None else None
    if last is None:
        title = "No picture yet: the board is drawn when the first round is resolved."
    elif pic is None:
        title = f"{m.game.spec.name} draws no picture of round {last}."
    else:
        title = f"Round {last}: the board"
    tab = L.report_tab(Report(title))
    if pic is not None:
        from .pictures import png_bytes
        tab = replace(tab, images=[TabImage(png_bytes(pic), row=len(tab.rows) + 1, col=0,
                                            name=f"round-{last}-board.png")])
    return tab
