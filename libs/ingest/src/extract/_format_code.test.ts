import { describe, expect, it } from "vitest"
import { compileFormat, formatNumber, formatText } from "./_format_code.ts"
import { numberText } from "./_cell_text.ts"
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
})

describe("numberText() and formatText()", () => {
  it("BUG-07 a date shows its display form and its ISO date; the ISO form alone once", () => {
    expect(numberText(45000, compileFormat('yyyy"年"m"月"d"日"'), false)).toBe("2023年3月15日 2023-03-15")
    expect(numberText(45000, compileFormat("yyyy-mm-dd"), false)).toBe("2023-03-15")
    expect(numberText(45000.5, compileFormat("yyyy/m/d h:mm"), false)).toBe("2023/3/15 12:00 2023-03-15")
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
