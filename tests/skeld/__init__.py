"""Skeld rules tests. Every expected outcome is computed by hand from the ruleset
(shared/rules/skeld.txt, copied where needed) and the rulings' R/A numbers.

The default board (templates/skeld/board.csv), row 1 north, column 1 west:

    r1: 1A  2A  3A  S   11A 12B 13C
    r2: 1B  2B  5A  4C  6A  7B  8C
    r3: 1C  2C  3C  4B  P   9A  10C
    r4: R   T   3B  V   4A  W   10B
    r5: 5B  6B  7A  8A  U   9B  10A
    r6: 5C  6C  7C  8B  X   9C  11B
    r7: Y   Z   11C 12A 12C 13A 13B
"""
