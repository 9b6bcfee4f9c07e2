"""Reads a CSV file as a spreadsheet opens it, with Python's csv module instead of our own
parser: the byte-order mark tells UTF-8, the Excel dialect splits the cells. Prints the cells
as JSON; exits 1, naming the cell, when the file lacks the mark, its rows differ in width, or
a cell would run as a formula.

Usage: python3 spreadsheet_view.py FILE
"""

import codecs
import csv
import io
import json
import sys

# A cell starting with one of these is run as a formula by Excel, LibreOffice and Sheets.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def main(path):
    data = open(path, "rb").read()
    if not data.startswith(codecs.BOM_UTF8):
        fail("no UTF-8 byte-order mark: a spreadsheet would guess the encoding")
    text = data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text, newline=""), dialect="excel"))
    if not rows:
        fail("no rows")
    for r, row in enumerate(rows, start=1):
        if len(row) != len(rows[0]):
            fail(f"row {r} has {len(row)} cells; the header has {len(rows[0])}")
        for c, cell in enumerate(row, start=1):
            if cell.startswith(FORMULA_STARTS):
                fail(f"row {r}, column {c}: {cell!r} would run as a formula")
    json.dump(rows, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main(sys.argv[1])
