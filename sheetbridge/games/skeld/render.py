"""Skeld's reports, texts and pictures, drawn from the facts the viewer may know: the public post
(R41, R67, section c), each confessional (R37-R40), the ship pictured, the players' and the public
views, and each round's scores for the standings."""
from __future__ import annotations

from typing import Any, Sequence

from ...core.facts import RenderContext, of_type
from ...core.outcome_text import plural
from ...core.picture import Box, Label, Line, Picture
from ...core.standings import RoundScore
from ...core.types import Block, Cell, Report, State
from .content import (BASE_CAP, BONUSES, COMPONENTS, DIRECTIONS, PARASITE_ROOM, SEQUENCES, SIDE_WORDS, SIZE,
                      START_ENERGY, VAULT, Board, Bonus, counted, edge, pieces, room_kind, room_title, sequence_value)
from .facts import (ActivationAttempt, ActivatorsSeen, BonusHeld, BonusNotUsed, ComponentGained, CrewInRoom,
                    CrewInventory, CrewStart, CrewStartAssigned, DisablesAnnounced, EndOfMatchGarnets, EnergyAccount,
                    EnergyCapRaise, EnergyLost, MainMatchStatus, NoSubmission, ParasitePlant, RoomActivated,
                    RoomOccupants, RoundLimitReached, SequenceCompleted, ShipBoard, SubmissionProblem, WallPlaced,
                    XCommOpened, held_items)
from .options import options_of
from .spec import START_CELLS


# Colours of the ship, shared by the board tab and the pictures. Every legend colour is clearly
# distinct from every other (CIEDE2000 difference of 10 or more, tested), and the text drawn on a
# fill is black on the light ones and white on the dark ones (room_text_colour).
ROOM_FILL: dict[str, str] = {
    "A": "BDD7EE",          # Frontier rooms: light blue
    "B": "C6E0B4",          # Greenhouse rooms: light green
    "C": "FFE699",          # Conductor rooms: light yellow
    "bonus": "F4B6E8",      # bonus rooms: light pink
    "activated": "595959",  # any room activated for good: dark grey
    "P": "C00000",          # the Parasite room is red (ruleset)
    "V": "2F5597",          # the Vault is blue (ruleset)
}
DARK_FILLS = frozenset({ROOM_FILL["activated"], ROOM_FILL["P"], ROOM_FILL["V"]})
NEW_THIS_ROUND = "FFC000"   # border of a room activated this round (pictures)
WALL_COLOUR = "E6007E"      # a Summoner wall (pictures)
CREW_COLOUR = "00B050"      # the border of your own crewmates' tags (private pictures)
FILL_LEGEND: tuple[tuple[str, str], ...] = (
    ("Frontier room (A)", ROOM_FILL["A"]), ("Greenhouse room (B)", ROOM_FILL["B"]),
    ("Conductor room (C)", ROOM_FILL["C"]), ("Bonus room", ROOM_FILL["bonus"]),
    ("Activated room", ROOM_FILL["activated"]), ("Parasite room P", ROOM_FILL["P"]), ("Vault V", ROOM_FILL["V"]))


def room_text_colour(fill: str) -> str:
    """Black on pale fills, white on dark ones (contrast at least 4.5:1, tested)."""
    return "FFFFFF" if fill in DARK_FILLS else "000000"


def room_fill(label: str, activated: bool) -> str:
    """The fill of a room: its kind's colour, dark grey once activated for good (P and V never are)."""
    kind = room_kind(label)
    if kind in (PARASITE_ROOM, VAULT):
        return ROOM_FILL[kind]
    if activated:
        return ROOM_FILL["activated"]
    return ROOM_FILL["bonus"] if kind == "bonus" else ROOM_FILL[label[-1]]


CELL_W, CELL_H, GRID_X, GRID_Y = 96, 64, 16, 44   # a room's size and the ship's corner in a picture


def cell_xy(i: int, j: int) -> tuple[int, int]:
    """The top-left corner of the room in row i, column j (0-based) in a picture."""
    return GRID_X + j * CELL_W, GRID_Y + i * CELL_H


def round_scores(facts: Sequence[Any]) -> list[RoundScore]:
    """A component's number is what it adds to its holder's Sequence Value (R45, R50)."""
    return ([RoundScore(f.player, f.number) for f in of_type(facts, ComponentGained)]
            + [RoundScore(t.player, None, t.value) for f in of_type(facts, RoundLimitReached) for t in f.standings])


PLANT_WORDS = {"correct": "correct, with the most Energy: wins",
               "outbid": "outbid by a higher plant",
               "tied": "tied at the top: the planting fails",
               "wrong_target": "the Sequence named was not activated",
               "no_sequence": "no Sequence was activated that round"}


def _held_text(items: Sequence[BonusHeld], parasite: bool) -> str:
    parts = []
    for it in sorted(items, key=lambda x: BONUSES.index(x.bonus)):
        b = Bonus[it.bonus]
        t = b.title
        if b.uses is not None:
            t += " (used up)" if it.uses_left == 0 else f" ({counted(it.uses_left or 0, 'use')} left)"
        parts.append(t)
    if parasite:
        parts.append("a Parasite")
    return ", ".join(parts) if parts else "no bonus and no parasite"


def _items_text(crew: Any) -> str:
    return _held_text(held_items(crew), crew["parasite"])


# --------------------------------------------------------------------- reports

def render(facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Report:
    """The public post (R41, R67, section c) or one player's confessional (R37-R40 and notes
    about their own sheet), from the facts that viewer may know."""
    if viewer is None:
        return _render_public(facts, ctx.round)
    return _render_private(facts, viewer, ctx.round)


def _render_public(facts: Sequence[Any], r: int) -> Report:
    if r == 0:
        lines = ["The pregame is over; round 1 is open. No room was activated."]
        starts: dict[str, list[str]] = {}
        for f in of_type(facts, CrewStart):
            starts.setdefault(f.player, []).append(f"{f.crewmate} in {f.room}")
        lines += [f"{p}: {', '.join(where)}" for p, where in starts.items()]
        return Report("Skeld pregame", (Block("Pregame results", tuple(lines)),))
    rooms = [f.room for f in of_type(facts, RoomActivated)]
    lines = ["Rooms activated this round: " + (", ".join(room_title(x) for x in rooms) if rooms else "none")]
    lines += [f"Wall placed: {SIDE_WORDS[f.side]} wall of {f.room} (between {f.room} and {f.neighbour})"
              for f in of_type(facts, WallPlaced)]
    lines += ["Disabled this round: " + ", ".join(f.rooms) + "." for f in of_type(facts, DisablesAnnounced)]
    lines += [f"{f.player} raised their energy cap (now {_caps_text(f)})." for f in of_type(facts, EnergyCapRaise)
              if f.accepted]
    closed = of_type(facts, MainMatchStatus)
    if closed and closed[0].next_round is not None:
        lines.append(f"The Main Match continues with round {closed[0].next_round}.")
        return Report(f"Skeld round {r}", (Block(f"Round {r}", tuple(lines)),))
    blocks = [Block(f"Round {r}", tuple(lines))]
    seqs = of_type(facts, SequenceCompleted)
    end = [f"{' and '.join(f.name + ' Sequence' for f in seqs)} activated in round {r}: the Main Match is over."
           if seqs else f"Round {r} was the last: no Sequence was completed."]
    # The numbers behind the result are the final standings (drawn from the outcome), not repeated here.
    end += [f"{f.player} planted in round {f.round} with {f.energy} Energy: {PLANT_WORDS[f.verdict]}"
            + (" (an improper plant)." if f.improper else ".") for f in of_type(facts, ParasitePlant)]
    blocks.append(Block("End of the Main Match", tuple(end)))
    inventories = of_type(facts, CrewInventory)
    if inventories:
        inv = []
        for f in inventories:
            inv.append(f"{f.player}: components {', '.join(f.components) or 'none'}")
            inv += [f"  {o.crewmate} in {room}: {_held_text(o.items, o.parasite)}"
                    for o, room in zip(f.crewmates, f.rooms)]
        blocks.append(Block("All inventories", tuple(inv)))
    return Report(f"Skeld round {r}", tuple(blocks))


def _render_private(facts: Sequence[Any], viewer: str, r: int) -> Report:
    pregame = r == 0
    accounts = [f for f in of_type(facts, EnergyAccount) if f.player == viewer]
    rooms = {f.room: f for f in of_type(facts, RoomOccupants)}
    seen = {f.room: f for f in of_type(facts, ActivatorsSeen)}
    blocks: list[Block] = []
    # 1. co-location (R37)
    lines1: list[str] = []
    mine: list[str] = []
    others: list[tuple[CrewInRoom, str]] = []
    for a in accounts:
        with_ = []
        for o in (rooms[a.room].occupants if a.room in rooms else ()):
            if (o.player, o.crewmate) == (viewer, a.crewmate):
                continue
            with_.append(f"{o.player}.{o.crewmate}" + (" (yours)" if o.player == viewer else ""))
            if o.player != viewer and all(x is not o for x, _ in others):
                others.append((o, a.room))
        lines1.append(f"{a.crewmate} is in {a.room}: " + (("with " + ", ".join(with_)) if with_ else "alone"))
        if a.room not in mine:
            mine.append(a.room)
    blocks.append(Block("1. Crewmates sharing your rooms", tuple(lines1)))
    # 2. activators (R38, A36)
    lines2 = []
    for room in mine:
        if room in seen:
            who = seen[room].crewmates or seen[room].players
            verb = "planted in by" if room == VAULT else "activated by"
            lines2.append(f"{room_title(room)} was {verb} {', '.join(who)}")
    if pregame:
        lines2 = ["No room is activated in the pregame."]
    blocks.append(Block("2. Activations of rooms you are in", tuple(lines2) or
                        ("No room holding your crewmates was activated this round.",)))
    # 3. next energy (R39), omitted once the Main Match is over
    if accounts and accounts[0].next_start is not None:
        blocks.append(Block(f"3. Energy at the start of round {r + 1}",
                            tuple(f"{a.crewmate}: {a.next_start}" for a in accounts)))
    # 4. items of co-located crewmates (R40)
    lines4 = [f"{o.player}.{o.crewmate} in {room}: {_held_text(o.items, o.parasite)}" for o, room in others]
    blocks.append(Block("4. Bonuses and parasites of crewmates in your rooms",
                        tuple(lines4) or ("No other player's crewmate is in your rooms.",)))
    # Only what concerns the player's own sheet: problems and the defaults applied, garnet flows
    # (A39), lost Energy (A10), XComm permissions (A19); the current standing is in player_view.
    notes = [t for f in facts if (t := _note(f, viewer, pregame))]
    if notes:
        blocks.append(Block("Notes for you", tuple(notes)))
    title = "Pregame" if pregame else f"Round {r}"
    return Report(f"{title}: private to {viewer}", tuple(blocks))


# --------------------------------------------------------------------- the picture

def picture(facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Picture | None:
    """The ship after the round: every room in its colour (grey once activated, this round's
    activations framed in amber), the walls, and on a player's picture their own crewmates and
    who activated the rooms they are in. Drawn only from the facts the viewer may know."""
    ships = of_type(facts, ShipBoard)
    if not ships:
        return None
    ship = ships[-1]
    activated = set(ship.activated)
    new = {f.room for f in of_type(facts, RoomActivated)}
    where = {label: (i, j) for i, row in enumerate(ship.grid) for j, label in enumerate(row)}
    title = f"Skeld, {'pregame' if ctx.round == 0 else f'round {ctx.round}'}"
    shapes: list[Any] = [Label(GRID_X, 12, title + (f": {viewer}" if viewer else ""), size=16, bold=True)]
    for label, (i, j) in where.items():
        x, y = cell_xy(i, j)
        fill = room_fill(label, label in activated)
        shapes.append(Box(x, y, CELL_W, CELL_H, fill=fill, outline="000000"))
        if label in new:   # activated this round: an amber frame inside the cell
            shapes.append(Box(x + 1, y + 1, CELL_W - 2, CELL_H - 2, fill=None, outline=NEW_THIS_ROUND, width=4))
        shapes.append(Label(x + 8, y + 7, label, colour=room_text_colour(fill), size=14, bold=True))
    for wall in ship.walls:
        (i1, j1), (i2, j2) = (where[x] for x in wall.split("|"))
        if i1 == i2:   # side by side: a vertical wall between the two columns
            x, y = cell_xy(i1, max(j1, j2))
            shapes.append(Line(((x, y - 2), (x, y + CELL_H + 2)), colour=WALL_COLOUR, width=6))
        else:          # one above the other: a horizontal wall
            x, y = cell_xy(max(i1, i2), j1)
            shapes.append(Line(((x - 2, y), (x + CELL_W + 2, y)), colour=WALL_COLOUR, width=6))
    legend = list(FILL_LEGEND) + [("Activated this round", NEW_THIS_ROUND), ("Wall", WALL_COLOUR)]
    if viewer is not None:
        for f in of_type(facts, ActivatorsSeen):
            x, y = cell_xy(*where[f.room])
            text = "by " + ", ".join(f.crewmates or f.players)
            shapes.append(Label(x + 8, y + 25, text[:16], size=11,
                                colour=room_text_colour(room_fill(f.room, f.room in activated))))
        tags: dict[str, list[str]] = {}
        for a in of_type(facts, EnergyAccount):
            if a.player == viewer:
                tags.setdefault(a.room, []).append(a.crewmate)
        for room, names in tags.items():
            x, y = cell_xy(*where[room])
            w = (CELL_W - 12) // len(names[:2])     # one tag per crewmate, side by side
            for k, name in enumerate(names[:2]):
                tx = x + 6 + k * w
                shapes.append(Box(tx, y + CELL_H - 24, w - 4, 18, fill="FFFFFF", outline=CREW_COLOUR, width=2))
                shapes.append(Label(tx + 4, y + CELL_H - 21, name[:max(3, (w - 12) // 7)], colour="000000",
                                    size=11))
        legend.append(("Your crewmate", CREW_COLOUR))
    top = GRID_Y + SIZE * CELL_H + 12
    for k, (text, colour) in enumerate(legend):
        x, y = GRID_X + (k % 3) * 224, top + (k // 3) * 22
        shapes.append(Box(x, y, 18, 14, fill=colour, outline="000000"))
        shapes.append(Label(x + 24, y, text, size=12))
    height = top + ((len(legend) + 2) // 3) * 22 + 8
    return Picture(GRID_X * 2 + SIZE * CELL_W, height, tuple(shapes), title=title)


# --------------------------------------------------------------------- views

def player_view(state: State, player: str) -> Report:
    crew = state["crew"][player]
    if state["round"] == 0 and not state["finished"]:
        return Report(f"Skeld: {player}", (Block("Pregame", (
            "Name your two crewmates and pick their start cells among " + ", ".join(START_CELLS) + ".",
            f"Each crewmate starts with {START_ENERGY} Energy (cap {BASE_CAP}).")),))
    lines = []
    for c in crew:
        lines.append(f"{c['name']}: in {c['pos']}, {c['energy']} Energy, carries {_items_text(c)}")
    comps = sorted(state["components"][player], key=COMPONENTS.index)
    lines.append(f"Components ({len(comps)}): {', '.join(comps) if comps else 'none'}")
    for s, nm in SEQUENCES.items():
        if pieces(comps, s):
            lines.append(f"  {nm}: {pieces(comps, s)} pieces, Sequence Value {sequence_value(comps, s)}")
    lines.append("Energy cap " + ", ".join(f"{c['name']} {c['cap']} ({plural(2 - c['raises'], 'raise')} left)"
                                           for c in crew) + "; a raise costs 3 garnets")
    lines.append(f"Disable {'used' if state['disable_used'][player] else 'available (once per game)'}; "
                 f"parasite {'claimed' if state['claimed'][player] else 'not claimed'}; "
                 f"Vault {'used' if state['vault_used'][player] else 'unused'}")
    title = "Final standing" if state["finished"] else f"Before round {state['round']}"
    return Report(f"Skeld: {player}", (Block(title, tuple(lines)),))


def public_view(state: State) -> Report:
    board = Board.of(state)
    activated = set(state["activated"])
    walls = set(state["walls"])
    grid = []
    for i in range(SIZE):
        row = []
        for j in range(SIZE):
            label = board.grid[i][j]
            sides = [d for d in DIRECTIONS if (n := board.neighbour(label, d)) and edge(label, n) in walls]
            text = label + (" |" + "".join(sides) if sides else "")
            fill = room_fill(label, label in activated)
            dark = fill in DARK_FILLS
            font = ("FFFF00" if dark else "C00000") if sides else room_text_colour(fill)
            row.append(Cell(text, fill, bold=bool(sides) or label in activated, font=font))
        grid.append(tuple(row))
    claimed = set(state["activated"])
    lines = [f"{nm} Sequence: {sum(1 for n in range(1, 14) if f'{n}{s}' in claimed)}/13 components claimed"
             for s, nm in SEQUENCES.items()]
    lines.append("Walls: " + (", ".join(w.replace("|", "/") for w in state["walls"]) or "none")
                 + " (a cell's |NESW marks its walled sides)")
    done = [x for x in BONUSES if x in claimed]
    lines.append("Bonus rooms activated: " + (", ".join(done) if done else "none"))
    status = ("The Main Match is over." if state["finished"] else
              "Pregame: crewmates are being placed." if state["round"] == 0 else
              f"Round {state['round']} of {options_of(state).max_rounds} is open.")
    return Report("Skeld: the ship", (Block("The ship", (status,), tuple(grid), FILL_LEGEND),
                                      Block("Progress", tuple(lines))))


def _caps_text(f: EnergyCapRaise) -> str:
    if len(set(f.caps)) == 1:
        return str(f.caps[0])
    return " and ".join(f"{n} {c}" for n, c in zip(f.crewmates, f.caps))


def _note(f: Any, viewer: str, pregame: bool) -> str:
    """A line of "Notes for you": what concerns the player's own sheet (or "" for none)."""
    if isinstance(f, NoSubmission) and f.player == viewer:
        return ("No pregame submission: start cells were assigned." if pregame else
                "No submission: your crewmates stayed put and did nothing.")
    if isinstance(f, SubmissionProblem) and f.player == viewer:
        return f.problem.text_for(viewer)
    if isinstance(f, CrewStartAssigned) and f.player == viewer:
        return f"{f.crewmate} starts in {f.room} (assigned)."
    if isinstance(f, EnergyCapRaise) and f.player == viewer:
        if f.accepted:
            return f"You paid {f.cost} garnets: your energy cap is now {_caps_text(f)}."
        if f.reason == "over_cap":
            return "Cap raise refused: the cap can reach 9 at most."
        return f"Cap raise refused: it costs {f.cost} garnets and you have {f.balance}."
    if isinstance(f, EnergyLost) and f.player == viewer:
        return f"{f.crewmate} ate the Yellow Banana over its Energy cap of {f.cap}: {f.amount} Energy lost."
    if isinstance(f, BonusNotUsed) and f.player == viewer:
        return (f"{f.crewmate} did not win the Wiwaxia: no drain." if f.item == "W" else
                f"{f.crewmate} did not win the Summoner's Meme: no wall.")
    if isinstance(f, ActivationAttempt) and f.player == viewer and f.reason:
        return f"{f.crewmate}'s attempt on {f.room} failed: {f.reason} (the Energy is spent)."
    if isinstance(f, XCommOpened) and f.player == viewer:
        return f"{f.crewmate} used the XCommunications Device: you may talk freely with {f.partner} this round."
    if isinstance(f, XCommOpened) and f.partner == viewer:
        return f"{f.player} used the XCommunications Device with you: you may talk freely with {f.player} this round."
    if isinstance(f, EndOfMatchGarnets) and f.player == viewer:
        if f.reason == "zurich":
            return "You earn 4 garnets for the Zurich Is Stained Vinyl Record."
        return f"You earn {counted(f.garnets, 'garnet')} for {f.components} components."
    return ""
