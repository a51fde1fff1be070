/**
 * The log of a real run in the settings' language (R4, issue 16: "No English
 * left in the Japanese UI and log"): standard workers (worker threads, the
 * Office owners when the corpus and LibreOffice are there), the LibreOffice
 * line of the header and the 2-gram round — the run a person starts. Two
 * runs, so the second log also has a removal and no targets, and the first
 * is found rotated into `indexing_log_previous.txt`.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Language, defaultSettings } from "@sagasu/domain"
import { formatSettings } from "@sagasu/store"
import { NodeWithWorkStore, initWorkFolder, writeSettings } from "@sagasu/store/testing"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { corpusFile, haveCorpus } from "./_test_corpus.ts"
import { makeChannel } from "./channel.ts"
import { documentFiles, workbookFiles, worksheet, zipOf } from "./extract/_test_packages.ts"
import { haveSoffice } from "./office/_test_support.ts"
import { runIndexer } from "./run_indexer.ts"
import { standardRunOptions } from "./run_workers.ts"

// Kana, kanji, the Japanese punctuation and the full-width forms.
const japanese = /[\u3000-\u30ff\u3400-\u9fff\uff01-\uff60]/
const japaneseOrLetter = "A-Za-z\\u3000-\\u30ff\\u3400-\\u9fff\\uff01-\\uff60"
// Three lower-case ASCII words with only spaces, digits and ASCII punctuation between them: `new 2, changed 0, pending`.
const threeWords = new RegExp(`(?:^|[^${japaneseOrLetter}])[a-z][a-z]+(?:[^${japaneseOrLetter}]+[a-z][a-z]+){2}`)

/**
 * The lines of `log` that are English: once its marks (`[警告]`, `[WARN]`,
 * `[n/total]`), the paths in it (a token with `/` or `\`) and the system's
 * own words after a code (`（corrupt: …）`, `(unreadable: …)`) are taken
 * out, a line whose words are ASCII letters only (no Japanese at all, and a
 * word of three letters or more: `done`, `ingest phase: 1.2 s`), or one with
 * three lower-case ASCII words in a row (`new 2, changed 0, pending 0`), the
 * English part of a line that also has Japanese. Names, setting keys, codes
 * and numbers in a Japanese line (`Node.js v20`, `cloudFiles skip`, `Linux
 * 6.1.0-18-amd64`) are not sentences.
 */
const englishLines = (log: string): ReadonlyArray<string> =>
  log.replace(/^\uFEFF/, "").split("\n").filter((line) => {
    const bare = line
      .replace(/^\s*(\[[^\]]+\] )*/, "")
      .replace(/[（(][a-z-]+(: [^）)]*)?[）)]/g, "")
      .replace(/\S*[/\\]\S*/g, "")
    if (threeWords.test(bare)) return true
    return !japanese.test(bare) && /[A-Za-z]{3,}/.test(bare)
  })

const tempDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-log-language-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

const withOffice = haveCorpus && haveSoffice

// Two runs over a tree with a good, an empty, a damaged and (when LibreOffice and the corpus are
// here) an Office 2003 XML workbook named .xls (which only LibreOffice reads: the plain worker reroutes it; PowerPoint 4.0,
// the file this was, is read without LibreOffice since W3's reader of it), an Office owner file and a hidden one; the first file goes before the second run.
const twoRuns = (language: Language) =>
  Effect.gen(function* () {
    const base = yield* tempDir
    const source = path.join(base, "src")
    fs.mkdirSync(source)
    const write = (name: string, bytes: Uint8Array | string) => fs.writeFileSync(path.join(source, name), bytes)
    const cell = `<row r="1"><c r="A1" t="inlineStr"><is><t>見積番号</t></is></c></row>`
    write("見積.xlsx", yield* Effect.promise(() => zipOf(workbookFiles({ sheets: [{ name: "見積", xml: worksheet(cell) }] }))))
    write("空.docx", yield* Effect.promise(() => zipOf(documentFiles(`<w:p><w:r><w:t xml:space="preserve"> </w:t></w:r></w:p>`))))
    write("壊れ.xlsx", "this is not a zip")
    write("~$見積.xlsx", "owner")
    write(".隠し.xlsx", "hidden")
    if (withOffice) fs.copyFileSync(corpusFile("phpspreadsheet/excel2003.xml"), path.join(source, "excel2003.xls"))
    const paths = yield* initWorkFolder(path.join(base, "work"), formatSettings(defaultSettings))
    yield* writeSettings(paths, { ...defaultSettings, language, targetFolders: [{ name: "共有", path: source, enabled: true }] })
    const options = yield* standardRunOptions(paths.root, "test")
    expect(yield* runIndexer(yield* makeChannel(), options)).toBe(0)
    fs.rmSync(path.join(source, "見積.xlsx"))
    expect(yield* runIndexer(yield* makeChannel(), options)).toBe(0)
    return { first: fs.readFileSync(paths.logPrevious, "utf8"), second: fs.readFileSync(paths.log, "utf8") }
  })

describe("the run's log in the settings' language (R4, issue 16)", { timeout: 180_000 }, () => {
  it("englishLines() finds the sentences of the old log and leaves paths, codes, numbers and names in Japanese lines alone", () => {
    expect(englishLines([
      "[1/2] 共有/見積.xlsx: done",
      "    corrupt: bad zip",
      "ingest phase: 1.2 s (dispatch, results, publish and the finally step)",
      "skip: 共有/~$見積.xlsx (owner-file)",
      "共有: new 2, changed 0, pending 0, retry 0",
      "    1 part(s), 1 line(s), 7 ms",
      "取り込み済み、but this sentence was left in English"
    ].join("\n"))).toHaveLength(7)
    expect(englishLines([
      "\uFEFFSagasu 0.1.0 — インデックス作成の開始: 2026-12-01 21:40:12 +09:00",
      "環境: Linux 6.1.0-18-amd64 (x64)、Node.js v20.19.0、CPU 2 個、プロセス番号 4242",
      "環境: Linux 5.15.153.1-microsoft-standard-WSL2 (x64)、Node.js v20.19.0、CPU 2 個、プロセス番号 4242",
      "設定: ingestThreads 2（CPU の数）、cloudFiles skip、fileTimeoutMinutes 10、officeRecycleAfter 100、language ja",
      "[警告] [2/3] 共有/壊れ.xlsx: 失敗 — ファイルが壊れています。（corrupt: the file is not a zip archive at all）",
      "飛ばしました: 共有/~$見積.xlsx — Office が開いている間だけある作業用のファイルです（owner-file）",
      "    1 パート、1 行、7 ms",
      "LibreOffice の版: LibreOffice 7.4.7.2 40(Build:2)",
      ""
    ].join("\n"))).toEqual([])
  })

  it.scopedLive("a Japanese run writes no English sentence, from the header to the end line, in either of two runs", () =>
    Effect.gen(function* () {
      const { first, second } = yield* twoRuns("ja")
      expect(englishLines(first)).toEqual([])
      expect(englishLines(second)).toEqual([])
      // What the two logs hold, so the check above saw the lines it is about.
      expect(first).toMatch(/^\uFEFFSagasu test — インデックス作成の開始: /)
      expect(first).toMatch(/\n(LibreOffice の版: .+|LibreOffice が見つかりません。.+)\n/)
      expect(first).toContain("飛ばしました: 共有/~$見積.xlsx — ")
      expect(first).toContain("飛ばしました: 共有/.隠し.xlsx — ")
      expect(first).toMatch(/\[\d\/\d\] 共有\/見積\.xlsx: 取り込みました\n {4}\d+ パート、1 行、\d+ ms\n/)
      expect(first).toMatch(/\[警告\] \[\d\/\d\] 共有\/空\.docx: 取り込みました\n.*\n {4}注意: 文字が見つかりません。/)
      expect(first).toMatch(/\[警告\] \[\d\/\d\] 共有\/壊れ\.xlsx: 失敗 — .+（not-office: .*）\n/)
      if (withOffice) {
        expect(first).toContain("共有/excel2003.xls: Office が無いと読めない内容のため、表計算の担当（LibreOffice）に回しました")
        expect(first).toMatch(/共有\/excel2003\.xls: 取り込みました\n {4}LibreOffice を起動しました（プロセス 1、\d+ ms）。xlsx に変換しました/)
      }
      expect(first).toMatch(/\n取り込み段階: \d+\.\d 秒/)
      expect(first).toMatch(/\ngram 索引を更新しました: /)
      expect(first).toMatch(/\nインデックス作成の終了: .+（所要 \d+:\d\d）\n$/)
      expect(second).toContain("一覧から除きました: 共有/見積.xlsx（元のファイルが無くなりました）")
      expect(second).toContain("取り込みが必要なファイルはありません。")
    }).pipe(Effect.provide(NodeWithWorkStore)))

  it.scopedLive("the same runs in English are caught by the check (it can fail)", () =>
    Effect.gen(function* () {
      const { first } = yield* twoRuns("en")
      const english = englishLines(first)
      expect(english.some((l) => l.startsWith("Work folder: "))).toBe(true)
      expect(english.some((l) => /^\[\d\/\d\] 共有\/見積\.xlsx: done$/.test(l))).toBe(true)
      expect(english.some((l) => l.startsWith("ingest phase: "))).toBe(true)
      expect(english.some((l) => l.startsWith("Indexing run ended "))).toBe(true)
    }).pipe(Effect.provide(NodeWithWorkStore)))
})
