"""`python -m sheetbridge.cli`: the same as the `sheetbridge` command."""
from . import main

if __name__ == "__main__":
    main(prog_name="sheetbridge")
