"""The Big Machine: information (R62-R69, A24) and pictures."""
from sheetbridge.api import match_from_position, new_match
from sheetbridge.core.facts import of_type, visible
from sheetbridge.core.picture import Dot, Label
from sheetbridge.games import big_machine as bm

from .helpers import ROSTER, machine_50_position, start, text, turn


# ------------------------------------------------------------------ information (R62-R69)

def test_information_model():
    m = start()
    rec = m.resolve({
        "Ann": turn("Blue", 3, 2, "L1", sabotage="L5"), "Bo": turn("Blue", 1, 4, "R1"),
        "Cy": turn("Blue", 1, 0, "L3"), "Dee": turn("Red", 0, 0, "R2")})
    # public: where everyone is, nothing else (no bids, winners, parts or sabotage) (R62, R66, R67)
    public = visible(rec.facts, None)
    assert {type(f) for f in public} == {bm.MeadowPosition}
    assert [(f.participant, f.meadow) for f in public] == [("Ann", "Blue"), ("Bo", "Blue"), ("Cy", "Blue"),
                                                           ("Dee", "Red")]
    pub = text(rec.public)
    for secret in ("bid", "won", "Blue 5", "sabot", "faulty", "cogs"):
        assert secret not in pub.lower() if secret.islower() else secret not in pub
    ann, bo, cy = (visible(rec.facts, p) for p in ("Ann", "Bo", "Cy"))
    # the team learns its machine, both installs and the sabotage (R63-R65)
    for mine in (ann, bo):
        assert [(f.participant, f.node, f.part) for f in of_type(mine, bm.PartInstalled)] == [
            ("Ann", "L1", bm.MachinePart("Blue", 5)), ("Bo", "R1", bm.FAULTY_PART)]
        assert [(f.participant, f.node) for f in of_type(mine, bm.SelfSabotage)] == [("Ann", "L5")]
        assert [f.team for f in of_type(mine, bm.MachineNow)] == ["Team 1"]
    for t in (text(rec.private["Ann"]), text(rec.private["Bo"])):
        assert "Ann installed Blue 5 on L1" in t and "Bo installed faulty on R1" in t and "Ann sabotaged L5." in t
    # own bid and cogs only to oneself (R67, A19); nothing of the other team; the auction to nobody
    assert [(f.participant, f.bid, f.power_up) for f in of_type(ann, bm.MeadowMove)] == [("Ann", 3, 2)]
    assert [(f.participant, f.before, f.after) for f in of_type(ann, bm.CogsNow)] == [("Ann", 12, 9)]
    assert [(f.participant, f.before, f.after) for f in of_type(bo, bm.CogsNow)] == [("Bo", 12, 11)]
    assert not of_type(ann + bo + cy, bm.MeadowAuction)
    assert not [f for f in ann + bo if getattr(f, "team", "Team 1") != "Team 1"]
    assert not [f for f in cy if getattr(f, "team", "Team 2") != "Team 2"]
    ann_t, cy_t = text(rec.private["Ann"]), text(rec.private["Cy"])
    assert "bid 3 and powered up 2" in ann_t and "bid 3" not in text(rec.private["Bo"])
    assert "Cy" not in ann_t and "Dee" not in ann_t and "Ann" not in cy_t
    # the other team's parts never appear: Dee's Red 1 is only in Team 2's reports
    assert "Red 1" not in ann_t and "Red 1" in cy_t


def test_share_notices_option_shows_the_teammates_block():
    m = start(options={"share_notices": "yes"})
    rec = m.resolve({"Ann": turn("Blue", 3, 2, "L1"), "Bo": turn("Blue", 1, 4, "R1")})
    assert "bid 3 and powered up 2" in text(rec.private["Bo"])


def test_public_board_is_a_grid_of_meadows_and_results_draw_the_machine():
    m = start()
    rec = m.resolve({"Ann": turn("Blue", 3, 2, "L1")})  # Dee stays in Blue: 2 people + 2 = Blue 4
    # the public round report gives the positions once, as the board of the five meadows (R62)
    (where,) = rec.public.blocks
    assert [c.text for c in where.grid[0]] == [f"{x} Meadow" for x in bm.MEADOWS]
    assert where.grid[0][1].fill == bm.COLOR_FILL["Blue"]
    # Bo stayed in White, Ann joined Dee in Blue, Cy stayed in Red
    assert [[c.text for c in row] for row in where.grid[1:]] == [["Bo", "Ann", "nobody", "Cy", "nobody"],
                                                                 ["", "Dee", "", "", ""]]
    assert not where.lines
    mach = next(b for b in rec.private["Ann"].blocks if b.grid)
    cells = {c.text: c for row in mach.grid for c in row}
    assert cells["L1: Blue 4"].fill == bm.COLOR_FILL["Blue"]
    assert cells["M2: empty"].fill == bm.EMPTY_FILL
    # a connector cell: L1-L2 is vertical with L1 greater, drawn "v"
    assert any(c.text == "|v" for c in cells.values())


# ------------------------------------------------------------------ A24: what the public knows of the machines

def test_a24_empty_layouts_and_starting_meadows_are_public_but_parts_never_before_the_end():
    m = new_match("big-machine", ROSTER, seed=5)
    rec = m.resolve({p: {"start": [{"meadow": md}]} for p, md in zip(ROSTER, ("White", "White", "Red", "Blue"))})
    public = visible(rec.facts, None)
    layouts = of_type(public, bm.MachineLayout)
    # Team 2 = Cy's Red left half + Dee's Blue right half: 13 nodes, 16 connectors, every node empty (R4-R6)
    assert [(f.team, f.left, f.right, len(f.nodes), len(f.connectors)) for f in layouts] == [
        ("Team 1", "White", "White", 13, 16), ("Team 2", "Red", "Blue", 13, 16)]
    assert all(n.part is None for f in layouts for n in f.nodes)
    # the Red left half's M2-L1 "greater" connector is drawn with M2 greater
    red = {(k.a, k.b): k for k in layouts[1].connectors}
    assert (red["M2", "L1"].kind, red["M2", "L1"].greater) == ("greater", "M2")
    assert [(f.participant, f.role, f.meadow) for f in of_type(public, bm.StartingMeadow)] == [
        ("Ann", "player", "White"), ("Bo", "guest", "White"), ("Cy", "player", "Red"), ("Dee", "guest", "Blue")]
    assert "Team 2's machine (Cy + Dee)" in [b.title for b in rec.public.blocks]
    assert "Red left half + Blue right half; every node empty." in text(rec.public)
    # rounds 1-6: the public learns positions only, never a part (R62, A24)
    for _ in range(6):
        r = m.resolve({p: turn("White", 0, 0, bm.allowed_nodes(m.state, p)[0]) for p in ROSTER})
        assert {type(f) for f in visible(r.facts, None)} == {bm.MeadowPosition}
    last = m.resolve({})
    assert {f.team for f in of_type(visible(last.facts, None), bm.MachineScored)} == {"Team 1", "Team 2"}


def test_a24_option_keeps_layouts_and_starting_meadows_within_the_team():
    m = new_match("big-machine", ROSTER, seed=5, options={"public_layouts": "false"})
    rec = m.resolve({p: {"start": [{"meadow": md}]} for p, md in zip(ROSTER, ("White", "White", "Red", "Blue"))})
    assert not of_type(visible(rec.facts, None), bm.MachineLayout, bm.StartingMeadow)
    assert [f.team for f in of_type(visible(rec.facts, "Cy"), bm.MachineLayout)] == ["Team 2"]
    assert [f.participant for f in of_type(visible(rec.facts, "Cy"), bm.StartingMeadow)] == ["Cy", "Dee"]
    pub = text(rec.public)
    assert "not announced" in pub and "Red" not in pub and "White" not in pub
    assert "Cy (player) chose Red, Dee (guest) chose Blue." in text(rec.private["Dee"])
    from sheetbridge.host.picture_files import round_pictures
    assert set(round_pictures(m, 0)) == set(ROSTER)          # no public picture: nothing public to draw


# ------------------------------------------------------------------ pictures

def _contrast(a, b):
    def lum(hex_rgb):
        def ch(v):
            v /= 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        r, g, b_ = (int(hex_rgb[i:i + 2], 16) for i in (0, 2, 4))
        return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b_)
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_legend_colours_are_distinct_and_text_is_readable_on_them():
    colours = [c for _, c, _ in bm.LEGEND] + [bm.DEAD_LINE]
    rgb = [tuple(int(c[i:i + 2], 16) for i in (0, 2, 4)) for c in colours]
    kinds = {c for _, c, how in bm.LEGEND if how == "text"}
    for i in range(len(rgb)):
        for j in range(i + 1, len(rgb)):
            if {colours[i], colours[j]} <= kinds and colours[i] == colours[j]:
                continue
            assert sum((a - b) ** 2 for a, b in zip(rgb[i], rgb[j])) ** 0.5 > 60, (colours[i], colours[j])
    for m in bm.MEADOWS:      # the power on a part, the meadow's name on its header
        assert _contrast(bm.COLOR_FILL[m], bm.COLOR_FONT.get(m, "000000")) >= 4.5, m
    assert _contrast(bm.EMPTY_FILL, "000000") >= 4.5 and _contrast(bm.FAULTY_FILL, "000000") >= 4.5
    for c in set(bm.KIND_COLOUR.values()):   # connector labels on white
        assert _contrast(c, "FFFFFF") >= 4.5, c


def test_pictures_draw_the_team_machine_and_the_public_board():
    from sheetbridge.host.picture_files import round_pictures
    from sheetbridge.host.pictures import draw
    m = start()
    # Round 1, each alone: Ann Red 1 on L1, Bo Green 1 on R1; Ann sabotages L5 (faulty).
    m.resolve({"Ann": turn("Red", 0, 0, "L1", sabotage="L5"), "Bo": turn("Green", 0, 0, "R1"),
               "Cy": turn("White", 0, 0, "L1"), "Dee": turn("Black", 0, 0, "R1")})
    pics = round_pictures(m, 1)
    assert set(pics) == {"board", *ROSTER}
    rgb = lambda h: tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))  # noqa: E731
    # Ann's picture: Team 1's machine drawn from (12, 42); a node at row y, column x has its centre at
    # (52 + 140 x, 96 + 90 y). White left half: L1 at row 0, column 1; L5 at row 2, column 0; M2 at row 1,
    # column 2; R1 at row 0, column 3. Sample 13 px left of the centre, inside the circle, off the text.
    img = draw(pics["Ann"])
    assert img.getpixel((192 - 13, 96)) == rgb(bm.COLOR_FILL["Red"])       # L1: Red 1
    assert img.getpixel((472 - 13, 96)) == rgb(bm.COLOR_FILL["Green"])     # R1: Green 1
    assert img.getpixel((52 - 13, 276)) == rgb(bm.FAULTY_FILL)             # L5: faulty
    assert img.getpixel((332 - 13, 186)) == rgb(bm.EMPTY_FILL)             # M2: empty
    assert img.getpixel((5, 5)) == (255, 255, 255)
    assert draw(pics["Bo"]).tobytes() == img.tobytes()                      # the team shares one machine
    labels = [s.text for s in pics["Ann"].shapes if isinstance(s, Label)]
    assert "Team 1's machine after round 1" in labels and "L1>L2" in labels and "free" in labels
    assert "1" in labels                                                    # the powers are written
    # the public board: where everyone is, no machine (parts are never public before the end, A24)
    board = pics["board"]
    assert not [s for s in board.shapes if isinstance(s, Dot)]
    bimg = draw(board)
    # the meadows' headers from x = 12, 130 wide, at y = 66: sample near each header's right end
    for i, md in enumerate(bm.MEADOWS):
        assert bimg.getpixel((12 + 130 * i + 120, 70)) == rgb(bm.COLOR_FILL[md]), md
    assert {"Ann", "Bo", "Cy", "Dee", "nobody"} <= {s.text for s in board.shapes if isinstance(s, Label)}


def test_the_final_board_draws_every_machine_with_its_points():
    from sheetbridge.host.picture_files import round_pictures
    m = match_from_position("big-machine", ROSTER, machine_50_position(), seed=2)
    m.resolve({"Ann": turn("Red", 1, 0, "L5"), "Bo": turn("Red", 1, 0, "R5"),
               "Cy": turn("Red", 2, 0, "M1"), "Dee": turn("Red", 2, 0, "M1")})
    board = round_pictures(m, 7)["board"]
    labels = [s.text for s in board.shapes if isinstance(s, Label)]
    assert "Team 1 (Ann + Bo): 50 points" in labels and "Team 2 (Cy + Dee): 0 points" in labels
    assert "allies +5" in labels and "free (used) +1" in labels    # M1-L1 excellent; L1-L4 used, working
    assert len([s for s in board.shapes if isinstance(s, Dot)]) == 26   # both machines, 13 nodes each
