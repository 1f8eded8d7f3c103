"""Bugcatcher rules tests. Every expected value is worked out by hand from the ruleset
(shared/rules/bugcatcher.txt) and the rulings (R/A/E numbers); the arithmetic is in the comments.

Coordinates: columns A-F are x = 0..5, rows 1-5 are y = 0..4 (A1, A2). A border node sits on a
lattice corner (x, y), x = 0..6, y = 0..5, with C1 bottom right = (3, 1) (A3). The engine works
on the doubled "fine" grid: corner (x, y) -> (2x, 2y), cell (c, r) -> (2c+1, 2r+1); a path moves
2 fine units and its midpoint is where a central path crosses a border edge (A4).
"""
