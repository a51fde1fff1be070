import { describe, expect, it } from "vitest"
import { dateKindOfCode, dateKindOfFormat, formatDateSerial } from "./_number_format.ts"

describe("dateKindOfCode()", () => {
  it.each([
    ["yyyy/m/d", "date"],
    ['yyyy"年"m"月"d"日"', "date"],
    ["[$-411]ggge\"年\"m\"月\"d\"日\"", "date"],
    ["mmm-yy", "date"],
    ["yyyy/mm/dd hh:mm:ss", "datetime"],
    ["m/d h:mm AM/PM", "datetime"],
    ["h:mm", "time"],
    ["mm:ss", "time"],
    ["[h]:mm:ss", "elapsed"],
    ["[$-F800]dddd, mmmm dd, yyyy", "date"],
    ["yyyy-mm-dd;@", "date"],
    ["General", undefined],
    ["0.00E+00", undefined],
    ['#,##0"円";[Red]\\-#,##0"円"', undefined],
    ['0"days"', undefined],
    ["[$€-407] #,##0.00", undefined],
    ["@", undefined]
  ] as const)("%s is %s", (code, kind) => {
    expect(dateKindOfCode(code)).toBe(kind)
  })

  it("BUG-07 knows the Japanese built-in ids the file does not define, and custom codes override ids", () => {
    for (const id of [14, 22, 27, 31, 36, 50, 55, 57, 58]) expect(dateKindOfFormat(id, undefined), `id ${id}`).toMatch(/date/)
    expect(dateKindOfFormat(32, undefined)).toBe("time")
    expect(dateKindOfFormat(0, undefined)).toBeUndefined()
    expect(dateKindOfFormat(14, "0.00")).toBeUndefined()
  })
})

describe("formatDateSerial()", () => {
  it.each([
    [45000, "date", false, "2023-03-15"],
    [1, "date", false, "1900-01-01"],
    [59, "date", false, "1900-02-28"],
    [60, "date", false, "1900-02-29"],
    [61, "date", false, "1900-03-01"],
    [0, "date", true, "1904-01-01"],
    [45000.75, "datetime", false, "2023-03-15 18:00:00"],
    [45000.999999, "datetime", false, "2023-03-16 00:00:00"],
    [0.5, "time", false, "12:00:00"],
    [1.5, "elapsed", false, "36:00:00"],
    [-1, "date", false, undefined],
    [3e6, "date", false, undefined]
  ] as const)("%d as %s (1904: %s) is %s", (serial, kind, date1904, text) => {
    expect(formatDateSerial(serial, kind, date1904)).toBe(text)
  })
})
