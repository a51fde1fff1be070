import { formatBodyTsv, normalizeForSearch } from "@sagasu/domain"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { freshMayHold } from "./fresh_doc.ts"

const root = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-fresh-doc-"))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

// A fresh folder as the body index holds it: one TSV per part.
let n = 0
function folder(relPath: string, parts: ReadonlyArray<{ name: string; lines: ReadonlyArray<{ loc: string; text: string; forms?: string }> }>) {
  const dir = path.join(root, String(n++))
  fs.mkdirSync(dir)
  const files = parts.map((p, i) => {
    const file = `${i + 1}_${p.name}.tsv`
    fs.writeFileSync(path.join(dir, file), formatBodyTsv({ name: p.name, locator: "cell", state: "visible", lines: p.lines }))
    return file
  })
  return { index: "A", path: relPath, dir, fingerprint: `${n}:0`, mtimeMs: 0, files }
}
const terms = (...words: ReadonlyArray<string>) => words.map((w) => normalizeForSearch(w))

describe("freshMayHold() (S1, S2: a sieve over the fresh tail that never says no wrongly)", () => {
  const estimate = folder("営業/見積書.xlsx", [
    { name: "明細", lines: [{ loc: "A1", text: "ﾉｰﾄPC 15台" }, { loc: "B2", text: "¥123,350", forms: "123350" }] }
  ])
  it.each([
    ["a word of the text, typed in another width and kana", ["のーとpc"], true],
    ["a search-only form of a number (S4)", ["123350"], true],
    ["a word of the file name", ["見積"], true],
    ["a sheet name", ["明細"], true],
    ["words spread over name and text", ["見積", "15台"], true],
    ["a word it does not hold", ["請求"], false],
    ["one word held, one not", ["見積", "請求"], false]
  ] as const)("%s → %s", (_what, words, expected) => {
    expect(freshMayHold(estimate, terms(...words))).toBe(expected)
  })

  it("a text with an escape may hide a word across it: it is never ruled out", () => {
    const escaped = folder("a.xlsx", [{ name: "S", lines: [{ loc: "A1", text: "前\t後" }] }])
    expect(fs.readFileSync(path.join(escaped.dir, escaped.files[0]!), "utf8")).toContain("\\t")
    expect(freshMayHold(escaped, terms("請求"))).toBe(true)
  })

  it("a folder gone meanwhile is left to the reader, which says so", () => {
    const gone = folder("b.xlsx", [{ name: "S", lines: [{ loc: "A1", text: "x" }] }])
    fs.rmSync(gone.dir, { recursive: true })
    expect(freshMayHold(gone, terms("請求"))).toBe(true)
  })
})
