/**
 * Which number formats show a date or time, and the ISO text of a date serial.
 *
 * A date is a number in the file; only its format makes it a date. Built-in
 * ids are not written into styles.xml, so a reader must know them, including
 * the Japanese ones a Japanese-locale Excel writes (27–36, 50–58: BUG-07).
 *
 * @module
 */

/** How a date/time format shows its serial. `elapsed` is `[h]:mm:ss` style: hours past 24. */
export type DateKind = "date" | "datetime" | "time" | "elapsed"

/**
 * Built-in number formats (ids the file uses without defining them), as
 * Excel defines them for ja-JP: the ids 5–8 and 41–44 are yen currency and
 * accounting there, 37–40 show a minus sign rather than parentheses, and 27–36, 50–58 are Japanese dates and times (BUG-07;
 * in every CJK locale they are dates or times, in others they are unused).
 */
const builtInCodes: ReadonlyMap<number, string> = new Map([
  [0, "General"],
  [1, "0"],
  [2, "0.00"],
  [3, "#,##0"],
  [4, "#,##0.00"],
  [5, '"¥"#,##0;"¥"\\-#,##0'],
  [6, '"¥"#,##0;[Red]"¥"\\-#,##0'],
  [7, '"¥"#,##0.00;"¥"\\-#,##0.00'],
  [8, '"¥"#,##0.00;[Red]"¥"\\-#,##0.00'],
  [9, "0%"],
  [10, "0.00%"],
  [11, "0.00E+00"],
  [12, "# ?/?"],
  [13, "# ??/??"],
  [14, "yyyy/m/d"],
  [15, "d-mmm-yy"],
  [16, "d-mmm"],
  [17, "mmm-yy"],
  [18, "h:mm AM/PM"],
  [19, "h:mm:ss AM/PM"],
  [20, "h:mm"],
  [21, "h:mm:ss"],
  [22, "yyyy/m/d h:mm"],
  [27, '[$-411]ge.m.d'],
  [28, '[$-411]ggge"年"m"月"d"日"'],
  [29, '[$-411]ggge"年"m"月"d"日"'],
  [30, "m/d/yy"],
  [31, 'yyyy"年"m"月"d"日"'],
  [32, 'h"時"mm"分"'],
  [33, 'h"時"mm"分"ss"秒"'],
  [34, 'yyyy"年"m"月"'],
  [35, 'm"月"d"日"'],
  [36, '[$-411]ge.m.d'],
  [37, "#,##0;-#,##0"],
  [38, "#,##0;[Red]-#,##0"],
  [39, "#,##0.00;-#,##0.00"],
  [40, "#,##0.00;[Red]-#,##0.00"],
  [41, '_ * #,##0_ ;_ * \\-#,##0_ ;_ * "-"_ ;_ @_ '],
  [42, '_ "¥"* #,##0_ ;_ "¥"* \\-#,##0_ ;_ "¥"* "-"_ ;_ @_ '],
  [43, '_ * #,##0.00_ ;_ * \\-#,##0.00_ ;_ * "-"??_ ;_ @_ '],
  [44, '_ "¥"* #,##0.00_ ;_ "¥"* \\-#,##0.00_ ;_ "¥"* "-"??_ ;_ @_ '],
  [45, "mm:ss"],
  [46, "[h]:mm:ss"],
  [47, "mm:ss.0"],
  [48, "##0.0E+0"],
  [49, "@"],
  [50, '[$-411]ge.m.d'],
  [51, '[$-411]ggge"年"m"月"d"日"'],
  [52, 'yyyy"年"m"月"'],
  [53, 'm"月"d"日"'],
  [54, '[$-411]ggge"年"m"月"d"日"'],
  [55, 'yyyy"年"m"月"'],
  [56, 'm"月"d"日"'],
  [57, '[$-411]ge.m.d'],
  [58, '[$-411]ggge"年"m"月"d"日"']
])

/** The code of a built-in number format id, `undefined` for an id Excel does not define. */
export function builtInFormatCode(numFmtId: number): string | undefined {
  return builtInCodes.get(numFmtId)
}

/**
 * The date kind of a format code, or `undefined` for a number format. Only
 * the first section counts (the one positive numbers use). Quoted text,
 * backslash escapes, `_x` / `*x` padding and bracketed locale/colour/condition
 * tags are not tokens; `[h]`, `[m]`, `[s]` are elapsed time.
 */
export function dateKindOfCode(code: string): DateKind | undefined {
  let section = ""
  let elapsed = false
  for (let i = 0; i < code.length; i++) {
    const c = code[i] ?? ""
    if (c === ";") break
    if (c === '"') {
      const end = code.indexOf('"', i + 1)
      i = end < 0 ? code.length : end
    } else if (c === "\\" || c === "_" || c === "*") {
      i++
    } else if (c === "[") {
      const end = code.indexOf("]", i + 1)
      const inside = code.slice(i + 1, end < 0 ? code.length : end)
      if (/^(h+|m+|s+)$/i.test(inside)) {
        elapsed = true
        section += inside
      }
      i = end < 0 ? code.length : end
    } else {
      section += c
    }
  }
  if (/general/i.test(section)) return undefined
  const tokens = section.replace(/AM\/PM|A\/P|午前\/午後|上午\/下午/gi, "h").replace(/e[+-]/gi, "")
  const hasDate = /[ydeg]|aaa/i.test(tokens)
  const hasTime = /[hs]/i.test(tokens)
  // `m` is minutes beside h or s, months otherwise.
  const hasMonth = /m/i.test(tokens) && !hasTime
  if (elapsed) return "elapsed"
  if ((hasDate || hasMonth) && hasTime) return "datetime"
  if (hasDate || hasMonth) return "date"
  if (hasTime) return "time"
  return undefined
}

/** The date kind of a cell style's number format: a custom code when the file defines one for the id, else the built-in table. */
export function dateKindOfFormat(numFmtId: number, customCode: string | undefined): DateKind | undefined {
  const code = customCode ?? builtInCodes.get(numFmtId)
  return code === undefined ? undefined : dateKindOfCode(code)
}

/**
 * A number as Excel's General format shows its value: at most 15 significant
 * digits (Excel's own precision, so a stored 0.30000000000000004 reads 0.3),
 * shortest form, exponents as `1E+21`.
 */
export function formatGeneralNumber(n: number): string {
  // Integers of up to 15 digits are their own shortest form (the common case: counts, amounts, ids).
  if (Number.isInteger(n) && n < 1e15 && n > -1e15) return String(n)
  const rounded = Number(n.toPrecision(15))
  return String(Object.is(rounded, -0) ? 0 : rounded).replace(/e([+-])/, "E$1")
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

const msPerDay = 86_400_000

/**
 * The ISO text of a date serial: `yyyy-mm-dd`, `yyyy-mm-dd hh:mm:ss`,
 * `hh:mm:ss`, or `h:mm:ss` with hours past 24 for `elapsed`. Serials count
 * days from 1900-01-00, with Excel's phantom 1900-02-29 (serial 60), or from
 * 1904-01-01 when the workbook uses the 1904 system (trait `date1904`).
 * `undefined` for a serial no date can have (negative, year 10000 and later),
 * which Excel shows as `####`.
 */
export function formatDateSerial(serial: number, kind: DateKind, date1904: boolean): string | undefined {
  if (!Number.isFinite(serial) || serial < 0) return undefined
  // Excel rounds to the second for display; rounding the whole serial carries 23:59:59.6 into the next day.
  const totalSeconds = Math.round(serial * 86_400)
  const days = Math.floor(totalSeconds / 86_400)
  const seconds = totalSeconds - days * 86_400
  const time = `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`
  if (kind === "elapsed") return `${Math.floor(totalSeconds / 3600)}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`
  if (kind === "time") return time
  let date: string
  if (!date1904 && days === 60) {
    date = "1900-02-29"
  } else {
    const epoch = date1904 ? Date.UTC(1904, 0, 1) : days < 60 ? Date.UTC(1899, 11, 31) : Date.UTC(1899, 11, 30)
    const d = new Date(epoch + days * msPerDay)
    if (d.getUTCFullYear() > 9999) return undefined
    date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
  }
  return kind === "date" ? date : `${date} ${time}`
}
