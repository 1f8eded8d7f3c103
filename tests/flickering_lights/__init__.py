"""Flickering Lights: rules tests with outcomes computed by hand from the ruleset
(shared/rules/flickering_lights.txt) and the rulings (R/A numbers).

Coordinates: A1 = column A, row 1 (A1). Distances are Manhattan unless said (A2).
Players: Ann, Bo, Cy are Red, Dee, Eli, Fay Blue and Gus White in every fixed round
unless a test says otherwise.
"""
