"""Bugcatcher: information (R63-R68) and pictures."""
from sheetbridge.games import bugcatcher as bc

from .helpers import acts, example_round, names_in, start


# ------------------------------------------------------------------ information (R63-R68)

def test_private_reports_hold_only_the_players_own_information():
    m = start({"Ann": ("A1", "A1", "upper left"), "Bo": ("B1", "C1", "upper left"), "Cy": ("F5", "F5", "bottom right")})
    rec = m.resolve({"Ann": acts("BR", "BR", "CD"), "Bo": acts("BL", "CD", "CD"), "Cy": acts("CU")})
    # Step 1: Ann (0,0)->(1,0) and Bo (2,0)->(1,0): case 2, both border nodes stop; Cy F5->F4.
    # Step 2: Ann's BR invalidated; Bo B1->B2. Step 3: Ann A1->A2; Bo B2->B3. -> 1, 2, 1.
    assert m.state["fireflies"] == {"Ann": 1, "Bo": 2, "Cy": 1}
    for p in m.players:
        text = rec.private[p].text()
        assert f"Your fireflies: {m.state['fireflies'][p]}" in text
        others = [q for q in m.players if q != p]
        assert not names_in(text, others)
        assert not names_in(m.player_report(p).text(), others)
        for q in others:     # no other player's total (R66)
            assert f"Your fireflies: {m.state['fireflies'][q]}" not in text or \
                m.state['fireflies'][q] == m.state['fireflies'][p]
    pub = rec.public.text() + m.game.public_view(m.state).__repr__()
    assert not names_in(pub, m.players)
    assert "Your fireflies" not in pub


def test_public_board_draws_paths_in_colour():
    m = start({"Ann": ("C3", "C1", "bottom right"), "Bo": ("F5", "F5", "bottom right")})
    rec = m.resolve({"Ann": acts("BD", "BL", "CL", "BD", "swap", "BL", "CD")})
    grid = rec.public.blocks[0].grid
    assert len(grid) == 12 and len(grid[0]) == 14          # 13 x 11 board plus labels
    # border BD from (3,1) to (3,2): the edge cell is fine (6,3) -> grid row 3+1, column 6+1
    edge = grid[4][7]
    assert edge.text == "│" and edge.fill == bc.FILL["blue"]
    # central CL C3 -> B3 crosses the edge (2,2)-(2,3) at fine (4,5), where the border BD of step
    # 4 (blue) also runs: the cell keeps the border fill and shows the black central crossing
    cross = grid[6][5]
    assert cross.text == "│═" and cross.fill == bc.FILL["blue"]


# ------------------------------------------------------------------ pictures

def rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (0, 2, 4))


def test_pictures_draw_paths_in_their_colours_and_each_players_own_view():
    from sheetbridge.host.picture_files import round_pictures
    from sheetbridge.host.pictures import draw
    m, _ = example_round()
    pics = round_pictures(m, 1)
    assert set(pics) == {"board", "Ann", "Bo"}
    board = draw(pics["board"])
    # Cells are 64 px from (40, 64); corner (x, y) is at (40 + 64x, 64 + 64y), cell (c, r) at its middle.
    assert board.getpixel((232, 160)) == rgb(bc.FILL["blue"])      # Ann's BD (3,1)->(3,2), blue
    assert board.getpixel((150, 224)) == rgb(bc.FILL["black"])     # Ann's CL C3->B3, black
    assert board.getpixel((392, 320)) == rgb(bc.FILL["black"])     # Bo's CU F5->F4 (y 352 -> 288), black
    assert board.getpixel((392, 128)) == rgb(bc.FILL["blue"])      # Bo's CU F2->F1 (y 160 -> 96), blue
    assert board.getpixel((392, 30)) == (255, 255, 255)            # above the board: background
    assert board.getpixel((72, 96)) == rgb(bc.GRAY)               # cell A1, nothing on it
    assert board.getpixel((133, 192)) == rgb(bc.PIC_LANE)         # the lane of Bo's failed BR: bare
    bo = draw(pics["Bo"])
    assert bo.getpixel((133, 192)) == rgb(bc.PIC_FAILED)           # Bo sees his failed BR, dashed red
    assert bo.getpixel((402, 96)) == rgb(bc.PIC_MINE)              # his central node's end, F1, ringed
    assert board.getpixel((402, 96)) == rgb(bc.GRAY)
    assert draw(pics["Ann"]).getpixel((133, 192)) == rgb(bc.PIC_LANE)   # not Ann's: not drawn for her
    # Legend swatches: every colour distinct, and the legend text sits on white.
    swatches = [s for s in pics["Bo"].shapes if isinstance(s, bc.Box) and s.x == bc.PIC_LEFT and s.w == 22]
    assert len({s.fill for s in swatches}) == len(swatches) == 7
    labels = [s for s in pics["Bo"].shapes if isinstance(s, bc.Label) and s.x == bc.PIC_LEFT + 30]
    assert [s.colour for s in labels] == ["000000"] * 7 and bo.getpixel((bc.PIC_LEFT + 200, int(labels[0].y) + 3)) \
        == (255, 255, 255)


def test_pregame_picture_shows_starting_nodes_in_round_one_colours_and_blocked_cells():
    from sheetbridge.host.picture_files import round_pictures
    from sheetbridge.host.pictures import draw
    m = start({"Ann": ("C3", "C1", "bottom right"), "Bo": ("F5", "A1", "upper left")},
              options={"blocked_cells": "E1"})
    pics = round_pictures(m, 0)
    img = draw(pics["board"])
    assert img.getpixel((200, 224)) == rgb(bc.FILL["black"])       # Ann's central node C3 (R11)
    assert img.getpixel((232, 128)) == rgb(bc.FILL["blue"])        # Ann's border node C1 bottom right
    assert img.getpixel((310, 100)) == rgb(bc.BLOCKED)             # E1 is blocked (A36)
    assert draw(pics["Ann"]).getpixel((200 + 12, 224)) == rgb(bc.PIC_MINE)
