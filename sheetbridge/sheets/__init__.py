"""Sheet backends: they move rectangles of values and know no game.

- model.py: the cells and tabs every backend reads and writes
- store.py: the interface of a store of workbooks (one per player, one master)
- layout.py: game-agnostic drawing of forms and reports into tabs, and reading forms back
- xlsx.py: offline .xlsx files with openpyxl
- google/: Google Sheets with gspread, one layer per file (see its __init__)
"""
