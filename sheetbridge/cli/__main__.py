"""`python -m sheetbridge.cli`: the same as the `sheetbridge` command."""
from . import main

main(prog_name="sheetbridge")
