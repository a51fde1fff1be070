import { describe, expect, it } from "vitest"
import { compileFormat, formatNumber, formatText } from "./_format_code.ts"
import { cellFormsOf, numberForms, numberText } from "./_cell_text.ts"
import { builtInFormatCode } from "./_number_format.ts"

const show = (value: number, code: string, date1904 = false) => formatNumber(value, compileFormat(code), date1904)

describe("formatNumber() numbers", () => {
  it.each([
    [1234.5, "0", "1235"],
    [1234.5, "0.00", "1234.50"],
    [1234567.891, "#,##0", "1,234,568"],
    // integers through the `0` / `#,##0` shortcut, and shapes that must not take it
    [1234567, "#,##0", "1,234,567"],
    [-1234567, "0", "-1234567"],
    [999, "#,##0", "999"],
    [1234, "##0", "1234"],
    [12, "000", "012"],
    [1234, "0%", "123400%"],
    [123456789012345, "#,##0", "123,456,789,012,345"],
    [1234567, "#,##0,", "1,235"],
    [1234567.891, "#,##0.00", "1,234,567.89"],
    [-1234, "#,##0", "-1,234"],
    [-1234, '#,##0;"▲"#,##0', "▲1,234"],
    [-1234, '#,##0;[Red]\\-#,##0', "-1,234"],
    [0, '#,##0;-#,##0;"-"', "-"],
    [1234, '#,##0"円"', "1,234円"],
    [1234, '"¥"#,##0', "¥1,234"],
    [1234, "[$¥-411]#,##0", "¥1,234"],
    [-5, '"¥"#,##0', "-¥5"],
    [0.256, "0%", "26%"],
    [0.256, "0.0%", "25.6%"],
    [12345, "0.00E+00", "1.23E+04"],
    [0.00012, "0.00E+00", "1.20E-04"],
    [12345, "##0.0E+0", "12.3E+3"],
    [1.005, "0.00", "1.01"],
    [2.5, "0", "3"],
    [-2.5, "0", "-3"],
    [0.5, "#.00", ".50"],
    [0, "#", ""],
    [1234567, "000-0000", "123-4567"],
    [1234567, "#,##0,", "1,235"],
    [1234567, '#,##0,,"百万"', "1百万"],
    [1.5, "# ?/?", "1 1/2"],
    [0.75, "?/?", "3/4"],
    [3.3333333, "# ??/??", "3 1/3"],
    [0.625, "# ?/8", "5/8"],
    [150, '[>100]"多";"少"', "多"],
    [50, '[>100]"多";"少"', "少"],
    [1234, "[DBNum1]0", "千二百三十四"],
    [1234, "[DBNum2]0", "壱阡弐百参拾四"],
    [1234, "[DBNum3]0", "１２３４"],
    [12.5, "General", "12.5"],
    [12.5, 'General"個"', "12.5個"],
    [1e21, "General", "1E+21"],
    [41, "_ * #,##0_ ;_ * \\-#,##0_ ;_ * \"-\"_ ;_ @_ ", "41"],
    [7, "00", "07"],
    [3, "??0", "3"]
  ] as const)("%d in %s is %s", (value, code, text) => {
    expect(show(value, code)).toBe(text)
  })

  it("built-in ids follow ja-JP: 5 is yen with an escaped minus", () => {
    expect(show(-1234, builtInFormatCode(5) ?? "")).toBe("¥-1,234")
    expect(show(0.5, builtInFormatCode(9) ?? "")).toBe("50%")
  })
})

describe("formatNumber() dates and times", () => {
  it.each([
    [45000, "yyyy/m/d", "2023/3/15"],
    [45000, 'yyyy"年"m"月"d"日"', "2023年3月15日"],
    [45000, "yyyy年m月d日", "2023年3月15日"],
    [45000, '[$-411]ggge"年"m"月"d"日"', "令和5年3月15日"],
    [45000, "[$-ja-JP]ge.m.d", "R5.3.15"],
    [45000, "[$-411]gge.m.d", "令5.3.15"],
    [43585, '[$-411]ggge"年"m"月"d"日"', "平成31年4月30日"],
    [43586, '[$-411]ggge"年"m"月"d"日"', "令和1年5月1日"],
    [43586, '[$-ja-JP-x-gannen]ggge"年"m"月"d"日"', "令和元年5月1日"],
    [32516, '[$-411]ggge"年"', "平成1年"],
    [1, '[$-411]ggge"年"m"月"d"日"', "明治33年1月1日"],
    [45000, "[$-411]ee/mm/dd", "05/03/15"],
    [45000, "yyyy/m/d(aaa)", "2023/3/15(水)"],
    [45000, "aaaa", "水曜日"],
    [45000, "dddd, mmmm d, yyyy", "Wednesday, March 15, 2023"],
    [45000, "d-mmm-yy", "15-Mar-23"],
    [45000, "[$-F800]dddd, mmmm dd, yyyy", "2023年3月15日"],
    [45000.75, "yyyy/m/d h:mm", "2023/3/15 18:00"],
    [45000.75, "h:mm AM/PM", "6:00 PM"],
    // Excel shows the AM/PM letters in the code's case (cell_format_date1904.xls, its expected column).
    [45000.25, "h:mm am/pm", "6:00 am"],
    [45000.75, "h:mm Am/Pm", "6:00 Pm"],
    [45000.75, "h:mm a/p", "6:00 p"],
    [45000.25, "[$-411]AM/PM h:mm", "午前 6:00"],
    [45000.75, "午前/午後h時mm分", "午後6時00分"],
    [0.5, 'h"時"mm"分"', "12時00分"],
    [1.5, "[h]:mm:ss", "36:00:00"],
    [0.000694444, "mm:ss.0", "01:00.0"],
    [45000.999999, "yyyy-mm-dd hh:mm:ss", "2023-03-16 00:00:00"],
    [45000, "[DBNum1][$-411]ggge\"年\"m\"月\"d\"日\"", "令和五年三月十五日"],
    [0, "yyyy/m/d", "1900/1/0"],
    [60, "yyyy-mm-dd", "1900-02-29"]
  ] as const)("%d in %s is %s", (value, code, text) => {
    expect(show(value, code)).toBe(text)
  })

  it("the 1904 system counts from 1904-01-01; a negative date is ####", () => {
    expect(show(0, "yyyy-mm-dd", true)).toBe("1904-01-01")
    expect(show(43538, "yyyy-mm-dd", true)).toBe("2023-03-15")
    expect(show(-1, "yyyy-mm-dd")).toBeUndefined()
  })

  it("past 9999-12-31 any date or time format is #### (a hostile 1e10 or 1e308 gave 0NaN-NaN-NaN and Infinity:NaN)", () => {
    expect(show(2958465, "yyyy-mm-dd")).toBe("9999-12-31")
    expect(show(2958465.5, "[h]:mm")).toBe("71003172:00")
    for (const code of ["yyyy-mm-dd", "hh:mm:ss", "[h]:mm"]) {
      for (const value of [2958466, 1e10, 1e308]) expect(show(value, code), `${value} ${code}`).toBeUndefined()
    }
  })
})

describe("formatNumber() at the ends of the double range", () => {
  it("a denormal in a scientific format is its mantissa and exponent (5e-324 threw: 10 ** -324 is 0)", () => {
    expect(show(5e-324, "0.00E+00")).toBe("4.94E-324")
    expect(show(1e-323, "0.0E+0")).toBe("9.9E-324")
    expect(show(1e-300, "0.00E+00")).toBe("1.00E-300")
    expect(show(1.7e308, "0.00E+00")).toBe("1.70E+308")
    expect(show(Number.POSITIVE_INFINITY, "0.00")).toBeUndefined()
  })
})

describe("numberText() and formatText()", () => {
  it("BUG-07, S4: a date shows what Excel shows; its ISO form is a search-only form", () => {
    expect(numberText(45000, compileFormat('yyyy"年"m"月"d"日"'), false)).toBe("2023年3月15日")
    expect(numberForms(45000, compileFormat('yyyy"年"m"月"d"日"'), false, "2023年3月15日")).toBe("2023/3/15 2023/03/15 2023-03-15")
    expect(numberText(45000, compileFormat("yyyy-mm-dd"), false)).toBe("2023-03-15")
    expect(numberText(45000.5, compileFormat("yyyy/m/d h:mm"), false)).toBe("2023/3/15 12:00")
    expect(numberText(0.5, compileFormat("h:mm"), false)).toBe("12:00")
    expect(numberText(5, compileFormat(";;;"), false)).toBe("5")
    expect(numberText(5, undefined, false)).toBe("5")
  })

  it("a text section wraps strings", () => {
    expect(formatText("山田", compileFormat('@"様"'))).toBe("山田様")
    expect(formatText("山田", compileFormat('0;-0;0;"株式会社"@'))).toBe("株式会社山田")
    expect(formatText("山田", compileFormat("0.00"))).toBe("山田")
  })
})

/**
 * Issue 15 item 9: formats × values with the display Excel's own
 * documentation gives as the expected text. Sources:
 * - `guide`: Microsoft Support, "Review guidelines for customizing a number format" (its tables of codes and displays);
 * - `text`: Microsoft Support, "TEXT function" (its examples of format codes);
 * - `oi`: [MS-OI29500] 2.1.713, Office's notes on ECMA-376 Part 1 §18.8.31 numFmts;
 * - `ecma`: ECMA-376 Part 1 §18.8.31 (sections, text section) and §18.8.30 (the zh-cn built-in formats 55 and 56, `上午/下午h"时"mm"分"`);
 * - `corpus`: ../shared/corpus/files/excel-cellformatter/cell_format_2010.xlsx and cell_format_chinese.xlsx, workbooks made in
 *   Excel whose "テスト結果" column is Excel's display of each test cell (Excel documents no [DBNum] or 上午/下午 display).
 * Where the documentation is silent the row says `unclear:` and what was followed. Sagasu trims the spaces Excel pads
 * with (`?`, `_)`) and reads one run of spaces as one space, so "5   1/4" is "5 1/4".
 */
describe("formatNumber() against Excel's documented display (issue 15 item 9)", () => {
  // 2024-01-07 (a Sunday) 16:36:03, and the same with 0.75 s more, as serials (Excel rounds to what a format shows).
  const sunday = 45298 + (16 * 3600 + 36 * 60 + 3) / 86400
  const subsecond = sunday + 0.75 / 86400
  it.each([
    // decimals, digits and alignment
    [1234.59, "####.#", "1234.6", "guide"],
    [8.9, "#.000", "8.900", "guide"],
    [0.631, "0.#", "0.6", "guide"],
    [12, "#.0#", "12.0", "guide"],
    [1234.568, "#.0#", "1234.57", "guide"],
    [44.398, "???.???", "44.398", "guide"],
    [102.65, "???.???", "102.65", "guide"],
    [2.8, "???.???", "2.8", "guide"],
    [1234, "0000000", "0001234", "text"],
    [123456, "##0° 00' 00''", "12° 34' 56''", "text"],
    // thousands, scaling, percent, scientific
    [12000, "#,###", "12,000", "guide"],
    [12000, "#,", "12", "guide"],
    [12200000, "0.0,,", "12.2", "guide"],
    [1234.567, "$#,##0.00", "$1,234.57", "text"],
    [0.08, "0%", "8%", "guide"],
    [0.028, "0.0%", "2.8%", "guide"],
    [2.8, "0%", "280%", "oi"],
    [0.285, "0.0%", "28.5%", "text"],
    [12200000, "0.00E+00", "1.22E+07", "text"],
    // sections, conditions, literals
    [125.74, '$0.00" Surplus";$-0.00" Shortage"', "$125.74 Surplus", "guide"],
    [-125.74, '$0.00" Surplus";$-0.00" Shortage"', "$-125.74 Shortage", "guide"],
    [0, '0;-0;"zero"', "zero", "oi"],
    [1234567898, "[<=9999999]###-####;(###) ###-####", "(123) 456-7898", "text"],
    [5551234, "[<=9999999]###-####;(###) ###-####", "555-1234", "text"],
    [5, "0&", "5&", "oi"],
    [5, "0/", "5/", "oi"],
    // fractions
    [4.34, "# ?/?", "4 1/3", "text"],
    [0.34, "# ?/?", "1/3", "text"],
    [5.25, "# ???/???", "5 1/4", "guide"],
    [5.3, "# ???/???", "5 3/10", "guide"],
    [-4.34, "# ?/?", "-4 1/3", "unclear: the minus sign stands before the whole number as for any number"],
    [0.125, "# ?/?", "1/8", "corpus"],
    [0.123456, "# ??/??", "10/81", "corpus"],
    [0.25, "#\\ ?/4", "1/4", "corpus"],
    [0.25, "#\\ ?/8", "2/8", "corpus"],
    [0.25, "#\\ ?/100", "25/100", "corpus"],
    [1234.5, "#,##0 ?/?", "1,234 1/2", "unclear: the whole part is shown like an integer section, grouping included"],
    [1.5, '"約"# ?/?', "約1 1/2", "unclear: a literal before the whole part stays before it"],
    [3, '# ?/?"kg"', "3 kg", "unclear: a whole number leaves the fraction's place blank, the unit after it"],
    // dates and times
    [sunday, "m", "1", "guide"],
    [sunday, "mm", "01", "guide"],
    [sunday, "mmm", "Jan", "guide"],
    [sunday, "mmmm", "January", "guide"],
    [sunday, "mmmmm", "J", "guide"],
    [sunday, "d", "7", "guide"],
    [sunday, "dd", "07", "guide"],
    [sunday, "ddd", "Sun", "guide"],
    [sunday, "dddd", "Sunday", "guide"],
    [sunday, "yy", "24", "guide"],
    [sunday, "yyyy", "2024", "guide"],
    [sunday, "h AM/PM", "4 PM", "guide"],
    [sunday, "h:mm AM/PM", "4:36 PM", "guide"],
    [sunday, "h:mm:ss A/P", "4:36:03 P", "guide"],
    [subsecond, "h:mm:ss.00", "16:36:03.75", "guide"],
    [1 + (1 * 3600 + 2 * 60) / 86400, "[h]:mm", "25:02", "guide"],
    [(63 * 60 + 46) / 86400, "[mm]:ss", "63:46", "guide"],
    [0.75, '上午/下午h"时"mm"分"', "下午6时00分", "ecma"],
    [0.25, '上午/下午h"时"mm"分"ss"秒"', "上午6时00分00秒", "ecma"],
    [10 / 24, "[$-zh-CN]hh:mm am/pm", "10:00 上午", "corpus"],
    [22 / 24, "[$-zh-CN]hh:mm am/pm", "10:00 下午", "corpus"],
    // text sections (a number in a cell whose code has a text section)
    [5, '@"様"', "5様", "ecma, unclear: a code that is a text section alone shows a number in General form where @ stands"],
    [-5, '0;@"様"', "-5", "guide: the text section is always the last; numbers use the sections before it"],
    [1234, '#,##0;-#,##0;0;"sales "@', "1,234", "guide"],
    // kanji numerals
    [12345, "[DBNum1][$-411]General", "一万二千三百四十五", "corpus"],
    [-1234.5, "[DBNum1][$-411]General", "-千二百三十四.五", "corpus"],
    [0, "[DBNum1][$-411]General", "〇", "corpus"],
    [12345, "[DBNum2][$-411]General", "壱萬弐阡参百四拾伍", "corpus"],
    [-1234.5, "[DBNum2][$-411]General", "-壱阡弐百参拾四.伍", "corpus"],
    [-12345, "[DBNum3][$-411]#,##0", "-１２,３４５", "corpus"],
    [1234.56, "[DBNum1]General", "千二百三十四.五六", "unclear: decimals read digit by digit, as Japanese writes them"],
    [1234.05, "[DBNum1]0.00", "千二百三十四.〇五", "unclear: decimals read digit by digit, zeros kept"],
    [0.5, "[DBNum2]0.0", "〇.伍", "unclear: decimals read digit by digit"]
  ] as ReadonlyArray<readonly [number, string, string, string]>)("%d in %s is %s (%s)", (value, code, text) => {
    expect(show(value, code)).toBe(text)
  })

  it("a string in a cell whose code has a text section shows it there; a code without one leaves it as it is", () => {
    expect(formatText("山田", compileFormat('0;@"様"'))).toBe("山田様")
    expect(formatText("x", compileFormat('[Blue]#,##0.00_);[Red](#,##0.00);0.00;"sales "@'))).toBe("sales x")
    expect(formatText("山田", compileFormat("0;-0"))).toBe("山田")
  })
})

// S4 (issue 14): a number or a date is found as people type it; the forms are what the text does not hold.
describe("numberForms() and cellFormsOf(): the search-only forms of a number or a date", () => {
  it.each([
    [123350, '"¥"#,##0', "¥123,350", "123350"],
    [-1234.5, "#,##0.00;(#,##0.00)", "(1,234.50)", "-1234.5"],
    [0.125, "0.0%", "12.5%", "0.125"],
    [123350, "0", "123350", ""],
    [1234.5, "0.00", "1234.50", ""],
    [40060, 'yyyy"年"m"月"d"日"', "2009年9月4日", "2009/9/4 2009/09/04 2009-09-04"],
    [40060, "yyyy/m/d", "2009/9/4", "2009/09/04 2009-09-04 2009年9月4日"],
    [40060, "yyyy-mm-dd", "2009-09-04", "2009/9/4 2009/09/04 2009年9月4日"],
    [40060.75, "yyyy/m/d h:mm", "2009/9/4 18:00", "2009/09/04 2009-09-04 2009年9月4日"],
    [0.75, "h:mm", "18:00", ""]
  ])("%d shown through %j as %j has the forms %j", (n, code, shown, forms) => {
    const format = compileFormat(code)
    expect(numberText(n, format, false)).toBe(shown)
    expect(numberForms(n, format, false, shown)).toBe(forms)
  })

  it("gives none for General, strings and booleans; an ISO date cell gets the typed forms", () => {
    expect(numberForms(5, undefined, false, "5")).toBe("")
    const context = { sharedStrings: { get: () => "x" }, formats: [undefined, compileFormat("#,##0")], date1904: false }
    expect(cellFormsOf("n", 1, "1234567", "1,234,567", context)).toBe("1234567")
    expect(cellFormsOf("s", 1, "0", "x", context)).toBe("")
    expect(cellFormsOf("b", 1, "1", "TRUE", context)).toBe("")
    expect(cellFormsOf("n", 0, "1234567", "1234567", context)).toBe("")
    expect(cellFormsOf("d", 0, "2009-09-04T00:00:00", "2009-09-04", context)).toBe("2009/9/4 2009/09/04 2009年9月4日")
  })
})
