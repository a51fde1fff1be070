/**
 * Test helpers: a temp work folder and a seeded random body index.
 * Test-only (files starting with `_` are private to the lib).
 *
 * @module
 */
import { NodeContext } from "@effect/platform-node"
import {
  type BodyLine,
  type BodyPart,
  FileMatch,
  type Locator,
  defaultSettings,
  fileNamesOf,
  fileTypeOf,
  holdsExcluded,
  matchLine,
  matchNames,
  normalizeForSearch,
  parseBodyTsv,
  parseSearchQuery,
  partNameOfTsvFileName,
  passesFilters,
  seededRandom,
  termMaskOf
} from "@sagasu/domain"
import { Effect, Layer } from "effect"
import { afterAll } from "vitest"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { WorkStore } from "../work_store.ts"
import { publishSourceFolder, stageExtraction } from "../body_index.ts"
import { removeBodyFolders } from "../pending_remove.ts"
import { formatSettings } from "../settings_store.ts"
import { initWorkFolder } from "../work_folder.ts"
import type { WorkPaths } from "../work_paths.ts"
import { queryWithOptions } from "./searcher.ts"

export const run = <A, E>(effect: Effect.Effect<A, E, NodeContext.NodeContext | WorkStore>) =>
  Effect.runPromise(Effect.provide(effect, Layer.merge(NodeContext.layer, WorkStore.Default)))

/** Folders made by {@link tempFolder}, removed after the test file's tests. */
const made: Array<string> = []
afterAll(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

/** A new folder under the system's temp folder (`<prefix>XXXXXX`), removed once the test file's tests have run. */
export const tempFolder = (prefix: string): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  made.push(dir)
  return dir
}

export const makeWork = (): Promise<WorkPaths> => run(initWorkFolder(tempFolder("sagasu-gram-"), formatSettings(defaultSettings)))

let staging = 0
/** Publishes `parts` as the body-index folder of `index`/`relPath`, as an indexing run does (C2, S1: noted in the fresh log first). */
export const publish = (paths: WorkPaths, index: string, relPath: string, parts: ReadonlyArray<BodyPart>) =>
  run(Effect.gen(function* () {
    const dir = path.join(paths.publish, "t", `w${staging++}`)
    yield* stageExtraction(dir, { parts })
    yield* publishSourceFolder(paths, index, relPath, dir)
  }))

export const remove = (paths: WorkPaths, index: string, relPath: string) => run(removeBodyFolders(paths, [{ index, path: relPath }]))

/** A part of `locator` kind with lines `texts` at locations 1, 2, … (A1, A2, … for cells). */
export const part = (name: string, locator: Locator, texts: ReadonlyArray<string>): BodyPart => ({
  name,
  locator,
  state: "visible",
  lines: texts.map((text, i) => ({ loc: locator === "cell" ? `A${i + 1}` : String(i + 1), text }))
})

/** A small seeded generator: the domain's {@link seededRandom}. */
export const seeded = seededRandom

const words = [
  "見積", "請求書", "株式会社", "サンプル", "さんぷる", "ｻﾝﾌﾟﾙ", "商事", "御中", "合計", "金額", "税込", "納期", "担当",
  "山田", "太郎", "東京都", "千代田区", "データ", "ﾃﾞｰﾀ", "パニック", "ガイド", "カ\u3099イト\u3099", "Invoice", "INVOICE",
  "total", "Ｔｏｔａｌ", "A-1234", "Ａ－１２３４", "Aー1234", "2024", "２０２４", "😀", "𠮷野家", "①", "㈱", "meeting", "note",
  "ΟΔΟΣ", "é", "e\u0301", "한국", "\u1112\u1161\u11AB", "・", "、", "。", " ", "\u3000", "/", "%", "\\", "\t"
]

/** A random line of 1–12 words from a mixed Japanese/ASCII/emoji vocabulary. */
export function randomLine(random: () => number): string {
  let s = ""
  const n = 1 + Math.floor(random() * 12)
  for (let i = 0; i < n; i++) s += words[Math.floor(random() * words.length)]
  return s
}

/**
 * Random parts for one source file. Every fourth line has search-only forms
 * (S4): its text backwards and `円`, made without drawing more numbers, so
 * that grams of the forms sit beside grams of the text.
 */
export function randomParts(random: () => number): Array<BodyPart> {
  const parts: Array<BodyPart> = []
  const count = 1 + Math.floor(random() * 3)
  const locators: ReadonlyArray<Locator> = ["cell", "paragraph", "slide"]
  const locator = locators[Math.floor(random() * 3)] ?? "cell"
  for (let p = 0; p < count; p++) {
    const lines: Array<string> = []
    const n = Math.floor(random() * 15)
    for (let i = 0; i < n; i++) lines.push(randomLine(random))
    const made = part(`シート${p + 1}`, locator, lines)
    parts.push({ ...made, lines: made.lines.map((l, i) => (i % 4 === 1 ? { ...l, forms: Array.from(l.text).reverse().join("") + "円" } : l)) })
  }
  return parts
}

interface BodyFile {
  readonly index: string
  readonly path: string
  readonly part: string
  readonly file: string
  readonly locator: Locator
  readonly lines: ReadonlyArray<BodyLine>
}

/** Every TSV of the body index, read once. */
export function loadBodyIndex(paths: WorkPaths): Array<BodyFile> {
  const out: Array<BodyFile> = []
  for (const index of fs.readdirSync(paths.index)) {
    const root = path.join(paths.index, index)
    for (const rel of fs.readdirSync(root, { recursive: true }) as Array<string>) {
      if (!rel.endsWith(".tsv")) continue
      const source = path.dirname(rel).split(path.sep).join("/")
      const tsv = parseBodyTsv(fs.readFileSync(path.join(root, rel), "utf8"))
      out.push({ index, path: source, part: partNameOfTsvFileName(path.basename(rel)), file: path.basename(rel), locator: tsv.locator, lines: tsv.lines })
    }
  }
  return out
}

/** The keys of the lines matching `text`: a brute-force scan with the domain's matcher. */
export function bruteForce(body: ReadonlyArray<BodyFile>, text: string): Array<string> {
  const query = queryWithOptions(text, {})
  const keys: Array<string> = []
  for (const f of body) {
    if (!passesFilters(query, { index: normalizeForSearch(f.index), path: normalizeForSearch(f.path), type: fileTypeOf(f.path) })) continue
    for (const l of f.lines) if (matchLine(l.text, query, l.forms) !== undefined) keys.push(`${f.index}|${f.path}|${f.part}|${l.loc}|${l.text}`)
  }
  return keys.sort()
}

// `2_b.tsv` before `10_a.tsv`: parts in workbook order.
const byNumber = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true })

/**
 * The files matching `text` at the file level (S3, S4: every word somewhere
 * in the file or its names, no excluded word anywhere) by brute force with
 * the domain's rules, as `index|path|hits`, sorted.
 */
export function bruteForceFiles(body: ReadonlyArray<BodyFile>, text: string): Array<string> {
  const query = parseSearchQuery(text)
  const files = new Map<string, Array<BodyFile>>()
  for (const f of body) {
    const key = `${f.index}|${f.path}`
    files.set(key, [...(files.get(key) ?? []), f])
  }
  const keys: Array<string> = []
  if (query.terms.length === 0) return keys
  for (const [key, tsvs] of files) {
    const first = tsvs[0]!
    if (!passesFilters(query, { index: normalizeForSearch(first.index), path: normalizeForSearch(first.path), type: fileTypeOf(first.path) })) continue
    const ordered = [...tsvs].sort((a, b) => byNumber(a.file, b.file))
    const sheets = [...new Set(ordered.filter((t) => t.locator === "cell").map((t) => t.part))]
    const m = new FileMatch<number>(query, matchNames(query, fileNamesOf(first.path, sheets)))
    for (const t of ordered) {
      for (const l of t.lines) {
        const nt = normalizeForSearch(l.text)
        const nf = normalizeForSearch(l.forms ?? "")
        if (holdsExcluded(query, nt, nf)) m.exclude()
        m.add(termMaskOf(query, nt, nf), 0)
      }
    }
    if (m.matches) keys.push(`${key}|${m.hits}`)
  }
  return keys.sort()
}

