import { formatBodyTsv, normalizeForSearch, seededRandom } from "@sagasu/domain"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { parseSearchQuery } from "@sagasu/domain"
import { decideParts } from "./file_search.ts"
import { filterChars, freshMayHold, readFreshParts, sieveFresh } from "./fresh_doc.ts"
import { sievePairBits } from "./sieve.ts"

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

  it("asked again (a GUI's next query), it answers from the sieve it kept, without reading the text, never a wrong no", () => {
    const big = folder("営業/見積書.xlsx", [
      { name: "明細", lines: Array.from({ length: 2000 }, (_, i) => ({ loc: `A${i + 1}`, text: `品番 K-${i} ﾉｰﾄPC ${i * 7}台` })) }
    ])
    // Read twice (the second keeps the sieve), answered from the text both times.
    expect(freshMayHold(big, terms("ﾉｰﾄPC"))).toBe(true)
    expect(freshMayHold(big, terms("請求"))).toBe(false)
    // The text is gone: a read would say "may"; only the sieve can say no now.
    fs.rmSync(big.dir, { recursive: true })
    for (const words of [["のーとpc"], ["k-1999"], ["見積", "明細"], ["13993台"], ["品番", "台"]]) expect(freshMayHold(big, terms(...words)), words.join(" ")).toBe(true)
    for (const words of [["請求"], ["見積", "請求"], ["𠮷"], ["台品"]]) expect(freshMayHold(big, terms(...words)), words.join(" ")).toBe(false)
  })

  it.each([
    [0, 15],
    [4096, 15],
    [20_000, 18],
    [1_000_000, 23],
    [50_000_000, 24]
  ] as const)("the pair table of a sieve over %i characters has 2^%i bits (8 a character, 2^15 to 2^24)", (chars, bits) => {
    expect(sievePairBits(chars)).toBe(bits)
  })

  it("a big text's sieve is sized to it: a term of units it holds, in pairs it never has, is ruled out (a stop's tail, S2)", () => {
    // 600,000 characters drawn from 3,000 kanji: about 575,000 distinct pairs, which fill a table of 2^18 bits
    // (nearly every bit set) but about 7% of the 2^23 bits it gets. The term's five pairs are none of the text's.
    const random = seededRandom(7)
    const alphabet = Array.from({ length: 3000 }, (_, i) => String.fromCharCode(0x4e00 + i))
    const rows = Array.from({ length: 600 }, (_, r) => ({ loc: `A${r + 1}`, text: Array.from({ length: 1000 }, () => alphabet[Math.floor(random() * 3000)]).join("") }))
    const text = rows.map((r) => r.text).join("\n")
    const has = (pair: string) => text.includes(pair)
    let term = ""
    for (let k = 0; term.length < 6; k = (k + 997) % 3000) {
      const c = alphabet[k]!
      if (term === "" || !has(term.slice(-1) + c)) term += c
    }
    const huge = folder("経理/元帳.xlsx", [{ name: "仕訳", lines: rows }])
    expect(freshMayHold(huge, terms(term))).toBe(false)
    expect(freshMayHold(huge, terms(rows[0]!.text.slice(10, 16)))).toBe(true)
    expect(freshMayHold(huge, terms(term))).toBe(false)
    // The text is gone: only the sieve can say no now, and it does; a term it holds is still a "may".
    fs.rmSync(huge.dir, { recursive: true })
    expect(freshMayHold(huge, terms(term))).toBe(false)
    expect(freshMayHold(huge, terms(rows[599]!.text.slice(500, 508)))).toBe(true)
  })

  it("a code of a common shape is ruled out by its runs of five when all its pairs are in the text (PRB003761 in a file holding PRB000996 and numbers)", () => {
    const random = seededRandom(11)
    const lines = [{ loc: "I2", text: "PRB000996 検索確認000996" }, ...Array.from({ length: 400 }, (_, i) => ({ loc: `B${i + 3}`, text: String(Math.floor(random() * 1e9)) }))]
    const text = lines.map((l) => l.text.toLowerCase()).join("\n")
    // Every pair of the code is in the text; the code is not.
    expect([..."prb003761"].slice(1).every((c, i) => text.includes("prb003761"[i]! + c))).toBe(true)
    expect(text.includes("prb003761")).toBe(false)
    const codes = folder("人事部/見積書_00996.xlsx", [{ name: "集計", lines }])
    expect(sieveFresh(codes)).toBe(true)
    fs.rmSync(codes.dir, { recursive: true })
    expect(freshMayHold(codes, terms("PRB003761"))).toBe(false)
    expect(freshMayHold(codes, terms("PRB000996"))).toBe(true)
    expect(freshMayHold(codes, terms(lines[200]!.text))).toBe(true)
    expect(freshMayHold(codes, terms("検索確認000996"))).toBe(true)
  })

  it("sieved ahead (a GUI's search thread between queries), a folder is ruled out by its first query without a read; escaped text too", () => {
    const plain = folder("総務/議事録.docx", [{ name: "本文", lines: [{ loc: "¶1", text: "ﾉｰﾄPC の購入" }] }])
    const escaped = folder("総務/備品.xlsx", [{ name: "一覧", lines: [{ loc: "A1", text: "前\t後" }, { loc: "B1", text: "¥5,000", forms: "5000" }] }])
    expect([sieveFresh(plain), sieveFresh(escaped)]).toEqual([true, true])
    // Kept: not read again.
    expect([sieveFresh(plain), sieveFresh(escaped)]).toEqual([false, false])
    fs.rmSync(plain.dir, { recursive: true })
    fs.rmSync(escaped.dir, { recursive: true })
    for (const [f, words, expected] of [
      [plain, ["のーとpc"], true], [plain, ["議事録", "購入"], true], [plain, ["請求"], false],
      [escaped, ["前"], true], [escaped, ["5000"], true], [escaped, ["備品", "後"], true], [escaped, ["請求"], false]
    ] as const) expect(freshMayHold(f, terms(...words)), words.join(" ")).toBe(expected)
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

describe("readFreshParts() (S1): each line normalised, the whole TSV at once or line by line alike", () => {
  it.each([
    ["nothing escaped", ["ﾉｰﾄPC", "ＡＢＣ－１２３", "", "ガ\u3099", "Σας"], ["¥1,000", ""]],
    ["a tab and a backslash escaped", ["前\t後", "C:\\データ", "ｶﾞ"], ["", "1000"]]
  ] as const)("%s", (_what, texts, forms) => {
    const lines = texts.map((text, i) => ({ loc: `A${i + 1}`, text, ...(forms[i] ? { forms: forms[i] } : {}) }))
    const f = folder("c.xlsx", [{ name: "S", lines }])
    const parts = readFreshParts(f)!
    expect(parts[0]!.lines.map((l) => l.text)).toEqual(texts)
    expect(parts[0]!.norms).toEqual(texts.map((t) => normalizeForSearch(t)))
    expect(parts[0]!.formNorms).toEqual(texts.map((_, i) => normalizeForSearch(forms[i] ?? "")))
  })
})

describe("readFreshParts() of a big folder for a query (S2): only the lines holding its words, and the same file-level answer", () => {
  // 3 sheets, 12,000 rows (about 400,000 characters): past the size read for a query's lines only.
  const random = seededRandom(5)
  const vocabulary = ["見積", "請求書", "ﾉｰﾄPC", "ノートpc", "株式会社", "合計", "A-1234", "Ａ－１２３４", "納期", "山田", "データ", "2024"]
  const sheet = (name: string) => ({
    name,
    lines: Array.from({ length: 4000 }, (_, i) => {
      const words = Array.from({ length: 1 + Math.floor(random() * 3) }, () => vocabulary[Math.floor(random() * vocabulary.length)])
      return { loc: `B${i + 1}`, text: `${words.join(" ")} ${Math.floor(random() * 1e6)}`, ...(i % 7 === 0 ? { forms: String(i * 11) } : {}) }
    })
  })
  const sheets = [sheet("一"), sheet("二"), sheet("三")]

  it.each(["見積", "のーとpc 合計", "a-1234 -納期", "請求書 山田 データ", "2024 大台帳", "77", "一 見積", "存在しない"])("%s", (q) => {
    const query = parseSearchQuery(q)
    // A folder of its own: not read (nor kept) by another query before.
    const big = folder("営業/大台帳.xlsx", sheets)
    const wanted = [...query.terms, ...query.exclude]
    const only = readFreshParts(big, query.terms, undefined, wanted)
    const full = readFreshParts(big)!
    const chars = full.reduce((n, p) => n + p.lines.reduce((m, l) => m + l.text.length + l.loc.length + 2, 0), 0)
    expect(chars).toBeGreaterThan(filterChars)
    // In its text, its forms or its location (B2024 holds 2024: kept, and decided as before).
    const holds = (l: { readonly loc: string; readonly text: string; readonly forms?: string | undefined }) =>
      wanted.some((w) => [l.text, l.forms ?? "", l.loc].some((x) => normalizeForSearch(x).includes(w)))
    if (only === undefined) {
      // Ruled out: no line holds every term, nor do the names.
      expect(query.terms.every((t) => full.some((p) => p.lines.some((l) => normalizeForSearch(l.text).includes(t))))).toBe(false)
      return
    }
    // Every part, with exactly the lines that hold a word (in document order).
    expect(only.map((p) => p.file)).toEqual(full.map((p) => p.file))
    only.forEach((p, k) => expect(p.lines, p.file).toEqual(full[k]!.lines.filter(holds)))
    const decide = (parts: typeof full) => {
      const d = decideParts(query, "A", big.path, parts, undefined, 0)
      return { matches: d.match.matches, near: d.match.near, hits: d.match.hits, shown: d.show(50).map((h) => `${h.part}|${h.loc}|${h.text}`) }
    }
    expect(decide(only)).toEqual(decide(full))
  })
})
