import { describe, expect, it } from "vitest"
import type { CrawlSkipReason } from "./crawl_skip.ts"
import type { FileNote } from "./ingest_result.ts"
import { helpText } from "./help_text.ts"
import { type FileLogOutcome, inBothLanguages, logTimestamp, messages, statusTime } from "./messages.ts"
import { defaultSettings } from "./settings.ts"

// Kana, kanji and the full-width forms: a Japanese text has at least one of them.
const japanese = /[\u3040-\u30ff\u3400-\u9fff\uff01-\uff60]/

// A function's text is checked in its source (any signature, including the structured ones of other
// sections); a string as it is.
const textOf = (value: unknown): string => (typeof value === "function" ? value.toString() : String(value))

// The catalogue's texts by their path: a section of it (the help's, issue 16) and a list are walked to
// each text (`help.search.syntax.0`, `planLabels.3`).
const texts = (value: unknown, at = ""): ReadonlyArray<readonly [string, unknown]> =>
  typeof value === "object" && value !== null
    ? Object.entries(value).flatMap(([key, inner]) => texts(inner, at === "" ? key : `${at}.${key}`))
    : [[at, value]]

describe("the message catalogue (issue 16: one catalogue, Japanese first)", () => {
  // The help's words (help_text.ts, apart so that the cold search's bundle does not carry them) as the catalogue's `help`.
  const ja = new Map(texts({ ...messages("ja"), help: helpText("ja") }))
  const en = new Map(texts({ ...messages("en"), help: helpText("en") }))

  // failureReason looks its sentence up in a table: failure_reason.test.ts walks every reason of it.
  const tables = new Set(["failureReason"])

  it.each([...ja.keys()].filter((k) => !tables.has(k)))("%s has a Japanese text", (key) => {
    expect(textOf(ja.get(key)), key).toMatch(japanese)
  })

  it("every key has an English text of the same kind, and no English key is missing in Japanese", () => {
    expect([...en.keys()].sort()).toEqual([...ja.keys()].sort())
    // The help's sections and lists are walked too (a new key of the help in one language only fails here).
    expect([...ja.keys()].filter((k) => k.startsWith("help.")).length).toBeGreaterThan(90)
    for (const key of ja.keys()) {
      expect(typeof en.get(key), key).toBe(typeof ja.get(key))
      expect(textOf(en.get(key)), key).not.toBe(textOf(ja.get(key)))
    }
  })

  it("inBothLanguages() gives the Japanese line first, then the English one", () => {
    expect(inBothLanguages((t) => t.workFolderUnusable("missing", "/srv/作業"))).toBe(
      "作業フォルダを使えません（/srv/作業）: フォルダがありません。sagasu init で作ってください\n" +
        "The work folder cannot be used (/srv/作業): the folder does not exist; create it with `sagasu init`"
    )
    expect(messages("ja").workFolderUnusable("not-initialised", "/srv/w", " --work /srv/w")).toBe(
      "作業フォルダを使えません（/srv/w）: Sagasu の作業フォルダではありません。先に sagasu init --work /srv/w を実行してください"
    )
  })

  it("init says the work folder is ready and what comes next, in each language", () => {
    expect(messages("ja").workFolderReady("/srv/作業")).toBe("作業フォルダを用意しました: /srv/作業\n次は sagasu add 名前 フォルダ でインデックスを追加します。")
    expect(messages("en").workFolderReady("/srv/work")).toBe("Work folder ready: /srv/work\nNext: sagasu add NAME PATH")
    expect(messages("ja").statusPendingHint(" --work /srv/w")).toBe("未取り込みのファイルがあります。sagasu index --work /srv/w で続きから再開します。")
    expect(messages("ja").statusFailedHint()).toBe("失敗したファイルと原因は sagasu status --failed で表示します。")
    expect(messages("en").indexResumeHint(4, " --work /srv/w")).toBe("The 4 files not ingested yet are taken up by the next sagasu index --work /srv/w.")
    // An ended run shows no phase (a stopped run read 「中止 — 仕上げ」, as if still finishing); one that did not end, where it was.
    const last = { processed: 3, remaining: 5, failed: 1 }
    expect(messages("ja").statusLastRun({ ...last, exitCode: 2, phase: "finalize" })).toBe("前回のインデックス作成: 中止 — 処理済み 3、残り 5、失敗 1")
    expect(messages("ja").statusLastRun({ ...last, exitCode: undefined, phase: "ingest" })).toBe("前回のインデックス作成: 実行中（または強制終了） — 取り込み、処理済み 3、残り 5、失敗 1")
    expect(messages("en").statusLastRun({ ...last, exitCode: 0, phase: "finalize" })).toBe("Last indexing run: completed — processed 3, remaining 5, failed 1")
    expect(messages("en").statusLastRun({ ...last, exitCode: undefined, phase: "crawl" })).toBe("Last indexing run: running (or killed) — crawl, processed 3, remaining 5, failed 1")
    // Knowing whether a run holds the lock (new-user trial: 「前回の」 for the run going on, and a resume hint it would refuse).
    expect(messages("ja").statusLastRun({ ...last, exitCode: undefined, running: true, phase: "ingest" })).toBe("インデックス作成: 実行中 — 取り込み、処理済み 3、残り 5、失敗 1")
    expect(messages("ja").statusLastRun({ ...last, exitCode: undefined, running: false, phase: "ingest" })).toBe("前回のインデックス作成: 強制終了 — 取り込み、処理済み 3、残り 5、失敗 1")
    expect(messages("en").statusLastRun({ ...last, exitCode: undefined, running: true, phase: "ingest" })).toBe("Indexing run: running — ingest, processed 3, remaining 5, failed 1")
    // When it ended, or its last record when it was killed (new-user trial: status did not say when).
    expect(messages("ja").statusLastRun({ ...last, exitCode: 0, phase: "finalize", at: "2026-12-01 21:40" })).toBe("前回のインデックス作成: 完了（2026-12-01 21:40 に終了） — 処理済み 3、残り 5、失敗 1")
    expect(messages("ja").statusLastRun({ ...last, exitCode: undefined, running: false, phase: "ingest", at: "2026-12-01 21:40" })).toBe("前回のインデックス作成: 強制終了（最後の記録 2026-12-01 21:40） — 取り込み、処理済み 3、残り 5、失敗 1")
    expect(messages("en").statusLastRun({ ...last, exitCode: 2, phase: "finalize", at: "2026-12-01 21:40" })).toBe("Last indexing run: stopped (ended 2026-12-01 21:40) — processed 3, remaining 5, failed 1")
    expect(statusTime(Date.UTC(2026, 11, 1, 12, 40, 59), 9 * 60)).toBe("2026-12-01 21:40")
    expect(messages("ja").statusCurrent("共有/見積.xlsx", false)).toBe("最後の記録: 共有/見積.xlsx")
    expect(messages("ja").workFolderReady("/srv/作業", " --work /srv/作業")).toBe("作業フォルダを用意しました: /srv/作業\n次は sagasu add 名前 フォルダ --work /srv/作業 でインデックスを追加します。")
    expect(messages("en").indexAdded("A", "/srv/a", " --work /srv/w")).toBe('Added index "A": /srv/a\nNext: sagasu index --work /srv/w')
  })
})

describe("the log's words (R4, issue 16: every line of indexing_log.txt from the catalogue)", () => {
  // One of each: a Record over the tags, so a new kind of note, outcome or skip fails to compile here until it is added.
  const notes: Record<FileNote["_tag"], FileNote> = {
    Read: { _tag: "Read", parts: 3, lines: 18000, ms: 120 },
    NoText: { _tag: "NoText" },
    ReadWithoutOffice: { _tag: "ReadWithoutOffice" },
    Converted: { _tag: "Converted", ext: "docx", ms: 300, fileOfProcess: 1, started: { process: 1, ms: 900 } },
    OfficeNoText: { _tag: "OfficeNoText", detail: "Word 6.0" }
  }
  const corrupt = { reason: "corrupt", detail: "bad zip" } as const
  const outcomes: Record<FileLogOutcome["_tag"], FileLogOutcome> = {
    done: { _tag: "done" },
    stopped: { _tag: "stopped" },
    folderGone: { _tag: "folderGone" },
    sourceVanished: { _tag: "sourceVanished" },
    notRecorded: { _tag: "notRecorded", failure: { reason: "work-folder", detail: "ENOSPC" } },
    failed: { _tag: "failed", failure: corrupt },
    rerouted: { _tag: "rerouted", app: "document" }
  }
  const skips: Record<CrawlSkipReason, true> = {
    "owner-file": true, temporary: true, hidden: true, "link-outside": true, loop: true, "not-a-file": true, unreadable: true, "invalid-name": true
  }
  const ja = messages("ja")
  const en = messages("en")

  it.each(Object.values(notes))("a file's note $_tag is Japanese in ja, English in en", (note) => {
    expect(ja.logNote(note)).toMatch(japanese)
    expect(en.logNote(note)).not.toMatch(japanese)
  })

  it.each(Object.values(outcomes))("a file's block title $_tag is Japanese in ja, English in en", (outcome) => {
    expect(ja.logFile("共有/見積.xlsx", outcome)).toMatch(/^共有\/見積\.xlsx: /)
    expect(ja.logFile("A/a.xlsx", outcome)).toMatch(japanese)
    expect(en.logFile("A/a.xlsx", outcome)).not.toMatch(japanese)
  })

  it.each(Object.keys(skips) as ReadonlyArray<CrawlSkipReason>)("a skip for %s says why in words, then its code", (reason) => {
    expect(ja.logSkipped("A/x.xlsx", reason, "")).toMatch(new RegExp(`^飛ばしました: A/x\\.xlsx — .*[\\u3040-\\u30ff].*（${reason}）$`))
    expect(en.logSkipped("A/x.xlsx", reason, "")).toMatch(new RegExp(`^skipped: A/x\\.xlsx — [^\\u3040-\\u30ff]+ \\(${reason}\\)$`))
  })

  it("a failed file's block says the failure once: the sentence, then its code and detail", () => {
    expect(ja.logFile("共有/見積.xlsx", outcomes.failed)).toBe(
      "共有/見積.xlsx: 失敗 — ファイルが壊れています。Office で開いて保存し直すと直ることがあります。（corrupt: bad zip）"
    )
    expect(en.logFile("A/a.xlsx", outcomes.failed)).toBe(
      "A/a.xlsx: failed — The file is damaged; open it in Office and save it again (Office often repairs it). (corrupt: bad zip)"
    )
  })

  it("a skip with a detail keeps the system's words after the code", () => {
    expect(ja.logSkipped("A/秘密", "unreadable", "EACCES: permission denied")).toBe("飛ばしました: A/秘密 — 読み取れません（unreadable: EACCES: permission denied）")
  })

  it("the timing lines keep a number the benchmarks read (tools/src/bench)", () => {
    expect(ja.logIngestPhase(12_345)).toMatch(/^取り込み段階: 12\.3 秒/)
    expect(en.logIngestPhase(12_345)).toMatch(/^ingest phase: 12\.3 s/)
    expect(ja.logNote(notes.Read)).toBe("3 パート、18000 行、120 ms")
    expect(ja.logGramUpdated({ indexed: 4, prebuilt: 3, removed: 1, merges: 0, segments: 2 }, 1500)).toBe(
      "gram 索引を更新しました: 4 ファイル（うち取り込み中に 3）、削除 1、マージ 0 回、セグメント 2、1.5 秒"
    )
  })

  it("logTimestamp(): local time with its offset from UTC", () => {
    const at = Date.UTC(2026, 11, 1, 12, 40, 12)
    expect(logTimestamp(at, 540)).toBe("2026-12-01 21:40:12 +09:00")
    expect(logTimestamp(at, -330)).toBe("2026-12-01 07:10:12 -05:30")
    expect(logTimestamp(at, 0)).toBe("2026-12-01 12:40:12 +00:00")
    // Leap days, year ends, before 1970: the same as the platform's calendar (the domain does its own arithmetic).
    for (const t of [Date.UTC(2024, 1, 29, 23, 59, 59), Date.UTC(2023, 11, 31, 23, 0, 0), Date.UTC(2000, 1, 29), Date.UTC(1969, 11, 31, 20), Date.UTC(2100, 2, 1)]) {
      for (const offset of [-600, 0, 540, 345]) {
        const iso = new Date(t + offset * 60_000).toISOString()
        expect(logTimestamp(t + 999, offset).slice(0, 19), `${iso} ${offset}`).toBe(`${iso.slice(0, 10)} ${iso.slice(11, 19)}`)
      }
    }
  })

  it("the first and last lines say when the run started and ended", () => {
    expect(ja.logStarted("0.1.0", "2026-12-01 21:40:12 +09:00")).toBe("Sagasu 0.1.0 — インデックス作成の開始: 2026-12-01 21:40:12 +09:00")
    expect(ja.logEnded("2026-12-01 21:41:15 +09:00", 63_400)).toBe("インデックス作成の終了: 2026-12-01 21:41:15 +09:00（所要 1:03）")
    expect(en.logEnded("2026-12-01 21:41:15 +09:00", 63_400)).toBe("Indexing run ended 2026-12-01 21:41:15 +09:00 (took 1:03)")
  })

  it("the settings line gives the number of plain workers also when ingestThreads is left to the CPU count (R4)", () => {
    const settings = { ...defaultSettings, targetFolders: [] }
    expect(ja.logSettings(settings, 2)).toBe(
      "設定: ingestThreads 2（CPU の数）、cloudFiles skip、fileTimeoutMinutes 10、officeRecycleAfter 100、language ja"
    )
    expect(ja.logSettings({ ...settings, ingestThreads: 3 }, 2)).toMatch(/^設定: ingestThreads 3、cloudFiles/)
    expect(en.logSettings(settings, 8)).toMatch(/^Settings: ingestThreads 8 \(CPU count\), cloudFiles skip/)
  })
})
