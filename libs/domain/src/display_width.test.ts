import { describe, expect, it } from "vitest"
import { alignColumns, displayWidth, truncateToWidth, wrapTextToWidth, wrapToWidth } from "./display_width.ts"
import { formatDuration, formatProgressLine, initialPlainProgress, plainProgressDue } from "./progress_line.ts"
import type { Progress } from "./progress.ts"

describe("displayWidth() (issue 16: East Asian wide characters take two columns)", () => {
  it.each([
    ["", 0],
    ["abc", 3],
    ["見積書", 6],
    ["ひらがな カタカナ", 17],
    ["ＡＢＣ１２３", 12], // full-width forms
    ["ｶﾞｲﾄﾞ", 5], // half-width katakana and its sound marks: one each
    ["　", 2], // the ideographic space
    ["「」『』、。", 12],
    ["한국어", 6],
    ["𠮷野家", 6], // outside the BMP (a surrogate pair): one character, two columns
    ["😀", 2],
    ["e\u0301", 1], // a combining mark takes none
    ["カ\u3099", 2], // NFD dakuten (macOS file names)
    ["a\u200db", 2], // ZWJ
    ["a\tb\n", 2], // controls take none
    ["○■█", 3], // ambiguous: one, as xterm and tmux count them
    ["共有/営業部/2024年度/見積書_A-1234.xlsx", 39]
  ])("%j → %i", (text, columns) => {
    expect(displayWidth(text)).toBe(columns)
  })
})

describe("wrapToWidth() (issue 16: a log line wider than the terminal is cut at a comma or a space, not inside a word)", () => {
  it.each([
    { label: "a line that fits comes back alone", line: "取り込み対象: 7 件", columns: 80, lines: ["取り込み対象: 7 件"] },
    {
      label: "the settings line: cut after the last comma that fits, the rest indented",
      line: "設定: ingestThreads 2（CPU の数）、cloudFiles skip、fileTimeoutMinutes 10、officeRecycleAfter 100、language ja",
      columns: 80,
      lines: ["設定: ingestThreads 2（CPU の数）、cloudFiles skip、fileTimeoutMinutes 10、", "  officeRecycleAfter 100、language ja"]
    },
    {
      label: "Japanese counts two columns a character",
      line: "インデックス「書類」: 新規 7、変更 0、未取り込み 0、再試行 0、変更なし 0、前回失敗 0、前回失敗・環境（再試行） 0、削除 0",
      columns: 80,
      lines: [
        "インデックス「書類」: 新規 7、変更 0、未取り込み 0、再試行 0、変更なし 0、",
        "  前回失敗 0、前回失敗・環境（再試行） 0、削除 0"
      ]
    },
    { label: "a space: cut there and left out", line: "aaaa bbbb cccc", columns: 10, lines: ["aaaa bbbb", "  cccc"] },
    {
      label: "a comma before a later space: a label keeps its number",
      line: "環境: Linux 6.18.44-fc-v1147 (x64)、Node.js v20.20.2、CPU 2 個、プロセス番号 61516",
      columns: 79,
      lines: ["環境: Linux 6.18.44-fc-v1147 (x64)、Node.js v20.20.2、CPU 2 個、", "  プロセス番号 61516"]
    },
    { label: "English commas keep their place, the space after goes", line: "new 7, changed 0, pending 0", columns: 12, lines: ["new 7,", "  changed 0,", "  pending 0"] },
    { label: "no place to cut: at the width", line: "abcdefghijklmnop", columns: 6, lines: ["abcdef", "  ghij", "  klmn", "  op"] },
    { label: "no place to cut in wide text: a character never split", line: "見積番号一覧表", columns: 5, lines: ["見積", "  番", "  号", "  一", "  覧", "  表"] },
    { label: "a combining mark stays with its character", line: "abcde\u0301fg", columns: 5, lines: ["abcde\u0301", "  fg"] },
    { label: "too narrow for an indent: as it is", line: "abcdefgh", columns: 3, lines: ["abcdefgh"] },
    {
      label: "an indented line continues further in; its own indent is no place to cut",
      line: "  共有/poi/Divino_Revelado.pptx: ファイルが壊れています。Office で開いて保存し直すと直ることがあります。",
      columns: 40,
      lines: ["  共有/poi/Divino_Revelado.pptx:", "    ファイルが壊れています。", "    Office で開いて保存し直すと直ること", "    があります。"]
    },
    { label: "a space that would leave the line less than half full is passed over", line: "ab cdefghijklmnop", columns: 10, lines: ["ab cdefghi", "  jklmnop"] },
    // The new-user trial at 80 columns (fourteenth session): a number cut from its unit, a command cut in
    // two, a path's verdict cut after its first word, a long file name cut before its extension's last letter.
    // The fifteenth session's trial: a name ending in a digit is no number (「…trial-w2 で表示しま」/「す。」), a size keeps its unit.
    {
      label: "after a command whose last word ends in a digit, not inside the word after it",
      line: "失敗したファイルと原因は sagasu status --failed --work /tmp/trial-w2 で表示します。",
      columns: 79,
      lines: ["失敗したファイルと原因は sagasu status --failed --work /tmp/trial-w2", "  で表示します。"]
    },
    {
      label: "a size stays with its unit",
      line: "(1 件 · 2026-12-03 · 14 KB)",
      columns: 26,
      lines: ["(1 件 · 2026-12-03 ·", "  14 KB)"]
    },
    {
      label: "before an opening bracket rather than between a number and its unit",
      line: "前回中止・中断した実行の続きです（そのとき未取り込みだった 197 件も取り込みます）。",
      columns: 79,
      lines: ["前回中止・中断した実行の続きです", "  （そのとき未取り込みだった 197 件も取り込みます）。"]
    },
    {
      label: "a command stays whole",
      line: "前回失敗した 26 件は取り込み直していません（原因は sagasu status --failed --work /tmp/trial-work）。直したら sagasu index --retry-failed --work /tmp/trial-work で取り込み直します。",
      columns: 79,
      lines: [
        "前回失敗した 26 件は取り込み直していません",
        "  （原因は sagasu status --failed --work /tmp/trial-work）。",
        "  直したら sagasu index --retry-failed --work /tmp/trial-work",
        "  で取り込み直します。"
      ]
    },
    {
      label: "a path's verdict after its colon, its reason before its bracket",
      line: "  コーパス/xlsmapper/no_excel.xlsx: Office のファイルではありません（名前の拡張子と中身が違います）。",
      columns: 60,
      lines: ["  コーパス/xlsmapper/no_excel.xlsx:", "    Office のファイルではありません", "    （名前の拡張子と中身が違います）。"]
    },
    {
      label: "a command holds the names in it; the space before it is a place to cut",
      line: "  ほかのインデックスだけを更新するなら sagasu index --only 書類 --work /tmp/ux1、このインデックスを外すなら sagasu disable 消えた --work /tmp/ux1",
      columns: 79,
      lines: ["  ほかのインデックスだけを更新するなら", "    sagasu index --only 書類 --work /tmp/ux1、", "    このインデックスを外すなら sagasu disable 消えた --work /tmp/ux1"]
    },
    {
      label: "a long file name after a hyphen, not inside a word",
      line: "  コーパス/poi/clusterfuzz-testcase-minimized-POIHSSFFuzzer-5816431116615680.xls: ファイルが壊れています。",
      columns: 79,
      lines: ["  コーパス/poi/clusterfuzz-testcase-minimized-POIHSSFFuzzer-", "    5816431116615680.xls: ファイルが壊れています。"]
    },
    {
      label: "a cut at the width does not start a line with a closing mark",
      line: "見積番号一覧表」です",
      columns: 14,
      lines: ["見積番号一覧", "  表」です"]
    }
  ])("$label", ({ line, columns, lines }) => {
    const wrapped = wrapToWidth(line, columns)
    expect(wrapped).toEqual(lines)
    if (wrapped.length > 1) for (const l of wrapped) expect(displayWidth(l)).toBeLessThanOrEqual(columns)
  })
})

describe("wrapTextToWidth() (a closing message and its list of failed files are several lines)", () => {
  it("cuts each line on its own: a short line stays whole, blank lines stay blank", () => {
    const text = [
      "インデックス作成が完了しました。（成功: 0 件 / 失敗: 25 件）",
      "失敗したファイルと原因:",
      "",
      "  共有/a.pptx: ファイルが壊れています。（corrupt: no zip central directory）"
    ].join("\n")
    expect(wrapTextToWidth(text, 60).split("\n")).toEqual([
      "インデックス作成が完了しました。（成功: 0 件 / 失敗: 25 件）",
      "失敗したファイルと原因:",
      "",
      "  共有/a.pptx: ファイルが壊れています。",
      "    （corrupt: no zip central directory）"
    ])
  })
})

describe("truncateToWidth() (issue 16: a line never exceeds the terminal)", () => {
  it.each([
    ["見積書.xlsx", 20, {}, "見積書.xlsx"],
    ["見積書.xlsx", 5, {}, "見積"], // 見積 = 4; 書 would make 6
    ["見積書.xlsx", 6, {}, "見積書"],
    ["見積書.xlsx", 5, { ellipsis: "..." }, "見..."],
    ["見積書.xlsx", 1, {}, ""], // a wide character is never split
    ["見積書.xlsx", 7, { cut: "start", ellipsis: "..." }, "...xlsx"], // "." would make 8
    ["営業/見積書.xlsx", 11, { cut: "start" }, "見積書.xlsx"],
    ["営業/見積書.xlsx", 12, { cut: "start", ellipsis: "..." }, "...積書.xlsx"],
    ["abc", 2, { ellipsis: "..." }, "ab"], // the ellipsis does not fit: left out
    ["ae\u0301b", 2, {}, "ae\u0301"], // the mark stays with its character
    ["ae\u0301b", 2, { cut: "start" }, "e\u0301b"],
    ["𠮷野家", 3, {}, "𠮷"],
    ["𠮷野家", 3, { cut: "start" }, "家"]
  ] as const)("%j in %i columns %j → %j", (text, columns, options, expected) => {
    const cut = truncateToWidth(text, columns, options)
    expect(cut).toBe(expected)
    expect(displayWidth(cut)).toBeLessThanOrEqual(columns)
  })
})

const ingest = (processed: number, remaining: number, current: string, failed = 0): Progress =>
  ({ phase: "ingest", processed, remaining, failed, current })

describe("formatProgressLine() (P1, issue 16: columns, elapsed time, rate, ETA)", () => {
  it.each([
    [0, "0:00"], [59_999, "0:59"], [61_000, "1:01"], [3_599_000, "59:59"], [3_600_000, "1:00:00"], [36_125_000, "10:02:05"]
  ])("formatDuration(%i) → %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text)
  })

  it("a wide terminal: phase, bar, counts, elapsed time, rate, ETA and the whole path", () => {
    const line = formatProgressLine(ingest(30, 270, "共有/見積/見積書.xlsx", 2), { language: "ja", elapsedMs: 65_000, ingestElapsedMs: 60_000, columns: 200 })
    // 30 files in 60 s = 0.5 files/s; 270 left = 540 s.
    expect(line).toBe("取り込み [##----------------------] 30/300 10% 失敗 2  経過 1:05 0.5 件/秒 残り約 9:00  共有/見積/見積書.xlsx")
  })

  it("English, a fast run: the rate is rounded from 10 files/s on", () => {
    const line = formatProgressLine(ingest(600, 600, "a.xlsx"), { language: "en", elapsedMs: 30_000, ingestElapsedMs: 20_000, columns: 200 })
    expect(line).toBe("ingest [############------------] 600/1200 50%  elapsed 0:30 30 files/s ETA 0:20  a.xlsx")
  })

  it("no rate or ETA before a second of the ingest phase, none in the crawl (count unknown)", () => {
    expect(formatProgressLine(ingest(0, 10, "x"), { language: "ja", elapsedMs: 500, ingestElapsedMs: 500, columns: 80 }))
      .toBe("取り込み [------------------------] 0/10 0%  経過 0:00  x")
    expect(formatProgressLine({ phase: "crawl", processed: 0, remaining: 0, failed: 0, current: "クロール中: 共有（/mnt/共有）" }, { language: "ja", elapsedMs: 3_000, columns: 80 }))
      .toBe("クロール  経過 0:03  クロール中: 共有（/mnt/共有）")
  })

  it.each([80, 60, 40, 30, 20, 10, 1])("a long Japanese path in %i columns takes at most columns - 1 and keeps the file name's end", (columns) => {
    const current = "営業部/２０２４年度/顧客別の見積書と請求書の控え/株式会社サンプル商事_御見積書_第３版_最終.xlsx"
    const line = formatProgressLine(ingest(1234, 28766, current, 17), { language: "ja", elapsedMs: 3_723_000, ingestElapsedMs: 3_600_000, columns })
    expect(displayWidth(line)).toBeLessThanOrEqual(columns - 1)
    // 1234 files in an hour: 0.34 files/s, 28766 left ≈ 23 h 18 min.
    // 80 columns: the rate and the bar make room for the file name (issue 20: a new user saw none once files had failed).
    if (columns >= 80) expect(line).toBe("取り込み 1234/30000 4% 失敗 17  経過 1:02:03 残り約 23:18:40  ...３版_最終.xlsx")
    if (columns === 60) expect(line).toBe("取り込み 1234/30000 4% 失敗 17  ...見積書_第３版_最終.xlsx")
    if (columns >= 40) expect(line).toMatch(/^取り込み 1234\/30000 4% 失敗 17/)
  })

  it.each([
    [120, "取り込み [############------------] 5/10 50%  経過 0:10 0.5 件/秒 残り約 0:10  ...長長長長長長長長長長長長長長長長.xlsx"] as const,
    // The full bar would leave the path 4 columns, the narrow one 12: the rate goes, still 13; the bar goes.
    [80, "取り込み [######------] 5/10 50%  経過 0:10 残り約 0:10  ...長長長長長長長.xlsx"] as const,
    // 100 columns: the full bar leaves the path 21 columns.
    [100, "取り込み [############------------] 5/10 50%  経過 0:10 0.5 件/秒 残り約 0:10  ...長長長長長長.xlsx"] as const
  ])("%i columns: the bar narrows, the rate goes, then the bar, before the path is cut below 16 columns", (columns, expected) => {
    const line = formatProgressLine(ingest(5, 5, "共有/" + "長".repeat(40) + ".xlsx"), { language: "ja", elapsedMs: 10_000, ingestElapsedMs: 10_000, columns })
    expect(line).toBe(expected)
    expect(displayWidth(line)).toBeLessThanOrEqual(columns - 1)
  })

  it("80 columns, files failed: the file name stays (a new-user trial on the corpus saw none)", () => {
    const line = formatProgressLine(ingest(66, 196, "corpus/excel-cellformatter/cell_format_chinese.xlsx", 4), {
      language: "ja", elapsedMs: 4_000, ingestElapsedMs: 4_000, columns: 80
    })
    // The narrow bar would leave the path 13 columns: it goes, the path gets 28.
    expect(line).toBe("取り込み 66/262 25% 失敗 4  経過 0:04 残り約 0:11  .../cell_format_chinese.xlsx")
    expect(displayWidth(line)).toBeLessThanOrEqual(79)
  })

  it("without columns (a log): no bar, the whole line", () => {
    expect(formatProgressLine(ingest(3, 0, "共有/c.xlsx"), { language: "ja", elapsedMs: 4_000, ingestElapsedMs: 2_000 }))
      .toBe("取り込み 3/3 100%  経過 0:04 1.5 件/秒 残り約 0:00  共有/c.xlsx")
  })

  it("a control character in a file name does not break the line", () => {
    expect(formatProgressLine({ phase: "finalize", processed: 1, remaining: 0, failed: 0, current: "a\nb\r.xlsx" }, { language: "en", elapsedMs: 0 }))
      .toBe("finalize 1/1 100%  elapsed 0:00  a?b?.xlsx")
  })
})

describe("plainProgressDue() (issue 16: a log gets a line per tenth, and one a minute in between)", () => {
  it("prints at 0 %, at each new tenth and after a minute with progress, never more", () => {
    const printed: Array<string> = []
    let state = initialPlainProgress
    const feed = (processed: number, total: number, nowMs: number) => {
      const next = plainProgressDue(state, ingest(processed, total - processed, ""), { nowMs })
      if (next !== undefined) {
        state = next
        printed.push(`${processed}@${nowMs}`)
      }
    }
    expect(plainProgressDue(state, { phase: "crawl", processed: 0, remaining: 0, failed: 0, current: "" }, { nowMs: 0 })).toBeUndefined()
    for (let i = 0; i <= 100; i++) feed(i, 100, i * 100) // 100 files, 0.1 s each
    feed(100, 100, 100_000)
    expect(printed).toEqual(["0@0", "10@1000", "20@2000", "30@3000", "40@4000", "50@5000", "60@6000", "70@7000", "80@8000", "90@9000", "100@10000"])
    // A slow run of 1000 files: a minute without a new tenth gives a line, but only if a file was done.
    state = initialPlainProgress
    printed.length = 0
    feed(0, 1000, 0)
    feed(5, 1000, 59_999)
    feed(6, 1000, 60_000)
    feed(6, 1000, 130_000)
    feed(7, 1000, 130_001)
    expect(printed).toEqual(["0@0", "6@60000", "7@130001"])
  })
})

describe("alignColumns() (sagasu list / status)", () => {
  it("pads every column but the last to its widest cell, counting wide characters as two", () => {
    expect(
      alignColumns([
        ["共有", "/mnt/share/営業", "済 2 / 失敗 0 / 未取り込み 0"],
        ["reports（無効）", "/srv/r", "済 10 / 失敗 1 / 未取り込み 3"],
        ["a", "/x", "済 0 / 失敗 0 / 未取り込み 0"]
      ])
    ).toEqual([
      "共有" + " ".repeat(13) + "/mnt/share/営業  済 2 / 失敗 0 / 未取り込み 0",
      "reports（無効）  /srv/r" + " ".repeat(11) + "済 10 / 失敗 1 / 未取り込み 3",
      "a" + " ".repeat(16) + "/x" + " ".repeat(15) + "済 0 / 失敗 0 / 未取り込み 0"
    ])
  })

  it("gives nothing for no rows, and a single column as it is", () => {
    expect(alignColumns([])).toEqual([])
    expect(alignColumns([["見積"], ["a"]])).toEqual(["見積", "a"])
  })
})
