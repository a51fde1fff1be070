import { describe, expect, it } from "vitest"
import { type CellPosition, nextCellPosition, nextRowNumber } from "./_worksheet.ts"

describe("nextCellPosition() (issue 15, item 7)", () => {
  it.each<[string | undefined, CellPosition, CellPosition]>([
    // A whole A1 reference is the cell's place, wherever the reading stands.
    ["A1", { col: 0, row: 0 }, { col: 1, row: 1 }],
    ["B2", { col: 0, row: 2 }, { col: 2, row: 2 }],
    ["AB12", { col: 3, row: 12 }, { col: 28, row: 12 }],
    ["XFD1048576", { col: 0, row: 1 }, { col: 16_384, row: 1_048_576 }],
    // ASCII case does not matter.
    ["a1", { col: 0, row: 1 }, { col: 1, row: 1 }],
    ["aB7", { col: 0, row: 7 }, { col: 28, row: 7 }],
    // Row jumps: a reference moves the reading to its row, forwards or back, and to its column.
    ["C7", { col: 9, row: 2 }, { col: 3, row: 7 }],
    ["A3", { col: 4, row: 9 }, { col: 1, row: 3 }],
    // No r: the next column of the current row; row 1 before any row.
    [undefined, { col: 0, row: 3 }, { col: 1, row: 3 }],
    [undefined, { col: 4, row: 3 }, { col: 5, row: 3 }],
    [undefined, { col: 0, row: 0 }, { col: 1, row: 1 }],
    ["", { col: 2, row: 5 }, { col: 3, row: 5 }],
    // A bare number (a 0-based column index from some writers) is not a reference.
    ["0", { col: 0, row: 2 }, { col: 1, row: 2 }],
    ["1", { col: 1, row: 2 }, { col: 2, row: 2 }],
    // Odd refs: a column or a row alone, row 0, past Excel's last column or row, absolute, spaces.
    ["A", { col: 1, row: 4 }, { col: 2, row: 4 }],
    ["12", { col: 1, row: 4 }, { col: 2, row: 4 }],
    ["A0", { col: 1, row: 4 }, { col: 2, row: 4 }],
    ["XFE1", { col: 1, row: 4 }, { col: 2, row: 4 }],
    ["AAAA1", { col: 1, row: 4 }, { col: 2, row: 4 }],
    ["A1048577", { col: 1, row: 4 }, { col: 2, row: 4 }],
    ["$A$1", { col: 1, row: 4 }, { col: 2, row: 4 }],
    [" A1", { col: 1, row: 4 }, { col: 2, row: 4 }],
    ["A1 ", { col: 1, row: 4 }, { col: 2, row: 4 }],
    ["A-1", { col: 1, row: 4 }, { col: 2, row: 4 }],
    ["R1C1", { col: 1, row: 4 }, { col: 2, row: 4 }]
  ])("r=%j at %j is %j", (r, at, expected) => {
    expect(nextCellPosition(r, at)).toEqual(expected)
  })

  it("places a row of cells without A1 references after one that has one: B5, C5, D5", () => {
    const places: Array<CellPosition> = []
    let at: CellPosition = { col: 0, row: 3 }
    for (const r of ["B5", undefined, "0"]) {
      at = nextCellPosition(r, at)
      places.push(at)
    }
    expect(places).toEqual([
      { col: 2, row: 5 },
      { col: 3, row: 5 },
      { col: 4, row: 5 }
    ])
  })
})

describe("nextRowNumber()", () => {
  it.each<[string | undefined, number, number]>([
    ["1", 0, 1],
    ["7", 2, 7],
    // A row number jumps forwards or back.
    ["1048576", 3, 1_048_576],
    ["3", 9, 3],
    // No r, 0, a negative, a fraction or junk: the row after the previous one.
    [undefined, 0, 1],
    [undefined, 4, 5],
    ["", 4, 5],
    ["0", 4, 5],
    ["-2", 4, 5],
    ["2.5", 4, 5],
    ["A5", 4, 5]
  ])("r=%j after row %d is row %d", (r, previous, expected) => {
    expect(nextRowNumber(r, previous)).toBe(expected)
  })
})
