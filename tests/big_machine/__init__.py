"""Rules tests for The Big Machine, outcomes computed by hand from the ruleset text.

R and A numbers refer to the team's rulings (shared/rulings/big_machine.md). The default
content (templates/big-machine) is used unless a test builds its own tables; the
half diagrams the tests rely on are copied below so a reader can check the arithmetic:

White half (left side; the right side mirrors it, own nodes prefixed L / R):
    M1-1 allies, M2-2 free, M3-3 allies, 1-2 ">" (1 greater), 2-3 "<" (3 greater),
    1-4 free, 3-5 free, 4-2 enemies.
Colour wheel (M2): allies W-U, U-B, B-R, R-G, G-W; enemies W-B, W-R, U-R, U-G, B-G.
"""
