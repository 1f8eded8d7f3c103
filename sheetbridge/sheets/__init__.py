"""Sheet backends: they move rectangles of values and know no game.

- model.py: the cells and tabs every backend reads and writes
- store.py: the interface of a store of workbooks (one per player, one master)
- layout.py: game-agnostic drawing of forms and reports into tabs, and reading forms back
- xlsx.py: offline .xlsx files with openpyxl
- google.py: Google Sheets with gspread
"""
