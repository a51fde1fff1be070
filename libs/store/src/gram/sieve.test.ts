import { formatBodyTsv, normalizeForSearch, seededRandom } from "@sagasu/domain"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { completeFolderIn, stagingCompleteMark } from "./body_walk.ts"
import { freshMayHold, sieveFresh } from "./fresh_doc.ts"
import {
  SieveBuilder, buildSieve, clearSieves, decodeSieve, encodeSieve, readSieveFile, removeFolderSieves, sieveFileMinBytes, sieveFileName, sieveMayHold, sievePairBits,
  writeFolderSieve
} from "./sieve.ts"

const root = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-sieve-"))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

// A complete staged folder as a worker leaves it: its TSVs, then the `.complete` mark (R7).
let n = 0
function staged(rows: ReadonlyArray<string>) {
  const dir = path.join(root, `staged-${n++}`)
  fs.mkdirSync(dir)
  fs.writeFileSync(path.join(dir, "1_明細.tsv"), formatBodyTsv({ name: "明細", locator: "cell", state: "visible", lines: rows.map((text, i) => ({ loc: `A${i + 1}`, text })) }))
  fs.writeFileSync(path.join(dir, stagingCompleteMark), "1\t2\n")
  const folder = completeFolderIn(dir, "共有", `台帳${n}.xlsx`)
  if (folder === undefined) throw new Error("no folder")
  return folder
}

// Rows of numbered codes: about 40 bytes a row, so 4,000 rows pass the size for a sieve file.
const codeRows = (count: number) => Array.from({ length: count }, (_, i) => `見積番号 A-${String(i).padStart(5, "0")} ﾉｰﾄPC`)
const sieveDir = path.join(root, "sieves")

describe("a sieve's file (S2: written once by the worker that staged the folder)", () => {
  it("holds the sieve as built: what it rules out and lets through is the same after a round trip", () => {
    const texts = [normalizeForSearch("見積番号 A-01234\n請求書 ﾉｰﾄPC")]
    const sieve = buildSieve("7:1.5:1_a.tsv", texts)
    const back = decodeSieve(encodeSieve(sieve), "7:1.5:1_a.tsv")
    expect(back).toBeDefined()
    for (const [word, expected] of [["見積番号", true], ["a-01234", true], ["のーとpc", true], ["請求", true], ["納品書", false], ["a-99999", false]] as const) {
      expect(sieveMayHold(back!, normalizeForSearch(word)), word).toBe(expected)
      expect(sieveMayHold(sieve, normalizeForSearch(word)), word).toBe(expected)
    }
  })

  it.each([
    ["another folder's fingerprint", (b: Buffer) => b, "7:1.5:2_b.tsv"],
    ["cut short", (b: Buffer) => b.subarray(0, b.length - 1), "7:1.5:1_a.tsv"],
    ["not a sieve", (b: Buffer) => Buffer.concat([Buffer.from("XXXXX\n"), b.subarray(6)]), "7:1.5:1_a.tsv"],
    ["empty", () => Buffer.alloc(0), "7:1.5:1_a.tsv"]
  ] as const)("is not used when it is %s", (_what, damage, fingerprint) => {
    const bytes = encodeSieve(buildSieve("7:1.5:1_a.tsv", ["見積"]))
    expect(decodeSieve(damage(bytes), fingerprint)).toBeUndefined()
  })

  it("is written for a big folder only, under a name of its fingerprint, and read back by it", () => {
    const small = staged(codeRows(10))
    expect(writeFolderSieve(sieveDir, small)).toBe(false)
    expect(fs.existsSync(path.join(sieveDir, sieveFileName(small.fingerprint)))).toBe(false)
    const big = staged(codeRows(4000))
    expect(fs.statSync(path.join(big.dir, big.files[0]!)).size).toBeGreaterThanOrEqual(sieveFileMinBytes)
    expect(writeFolderSieve(sieveDir, big)).toBe(true)
    expect(fs.readdirSync(sieveDir)).toEqual([sieveFileName(big.fingerprint)])
    const read = readSieveFile(sieveDir, big.fingerprint)
    expect(read === undefined ? undefined : sieveMayHold(read, normalizeForSearch("A-03999"))).toBe(true)
    expect(readSieveFile(sieveDir, small.fingerprint)).toBeUndefined()
  })

  it("lets a search rule a fresh folder out without its text, and never rules out a word it holds", () => {
    const big = staged(codeRows(4000))
    writeFolderSieve(sieveDir, big)
    // The text is gone: a search that read it would say "may" (the reader reports it); only the file can say no.
    const text = fs.readFileSync(path.join(big.dir, big.files[0]!), "utf8")
    fs.rmSync(path.join(big.dir, big.files[0]!))
    const words = (w: string) => [normalizeForSearch(w)]
    expect(freshMayHold(big, words("A-04000"), sieveDir)).toBe(false)
    expect(freshMayHold(big, words("請求書"), sieveDir)).toBe(false)
    // Every row's code, and the names: "may".
    const random = seededRandom(3)
    for (let k = 0; k < 50; k++) {
      const i = Math.floor(random() * 4000)
      const code = `A-${String(i).padStart(5, "0")}`
      expect(text.includes(code)).toBe(true)
      expect(freshMayHold(big, words(code), sieveDir), code).toBe(true)
    }
    expect(freshMayHold(big, words("台帳"), sieveDir)).toBe(true)
    // Without the sieve folder, nothing rules it out.
    const other = staged(codeRows(4000))
    writeFolderSieve(sieveDir, other)
    fs.rmSync(path.join(other.dir, other.files[0]!))
    expect(freshMayHold(other, words("A-04000"))).toBe(true)
  })

  it("sieving ahead takes the written sieve instead of reading the text", () => {
    const big = staged(codeRows(4000))
    writeFolderSieve(sieveDir, big)
    fs.rmSync(path.join(big.dir, big.files[0]!))
    expect(sieveFresh(big, sieveDir)).toBe(true)
    expect(freshMayHold(big, [normalizeForSearch("A-04001")])).toBe(false)
  })

  it("is written a piece at a time (escaped rows too) and folded to the text's size: it never rules out a word of any row", () => {
    // Rows with tabs and backslashes (escaped in the TSV), read in pieces of 300 bytes: about 1,000 pieces.
    const random = seededRandom(9)
    const rows = Array.from({ length: 6000 }, (_, i) => `品番\t${String(i).padStart(5, "0")} C:\\共有\\ﾃﾞｰﾀ${Math.floor(random() * 1000)}`)
    const big = staged(rows)
    expect(writeFolderSieve(sieveDir, big, 300)).toBe(true)
    const sieve = readSieveFile(sieveDir, big.fingerprint)!
    // Sized to the characters, not the bytes it started from.
    const chars = rows.reduce((n, r) => n + normalizeForSearch(r).length, 0)
    expect(32 - sieve.shift).toBe(sievePairBits(chars))
    expect(32 - sieve.shift).toBeLessThan(sievePairBits(fs.statSync(path.join(big.dir, big.files[0]!)).size))
    for (const r of rows) for (const word of [r.slice(0, 8), r.slice(3, 12), r.slice(-9)]) expect(sieveMayHold(sieve, normalizeForSearch(word)), word).toBe(true)
    expect(sieveMayHold(sieve, normalizeForSearch("請求書"))).toBe(false)
    expect(sieveMayHold(sieve, normalizeForSearch("ﾃﾞｰﾀ1000"))).toBe(false)
  })

  it("is not written when a line is longer than a piece (cut there, it could rule out a word across the cut)", () => {
    const long = staged([`${"見積".repeat(40_000)} 末尾`, ...codeRows(4000)])
    expect(writeFolderSieve(sieveDir, long, 64 * 1024)).toBe(false)
    expect(readSieveFile(sieveDir, long.fingerprint)).toBeUndefined()
    expect(writeFolderSieve(sieveDir, long, 512 * 1024)).toBe(true)
  })

  it("is removed by its fingerprint, and all of them when the tail is empty; neither fails when there is nothing", () => {
    const dir = path.join(root, "sieves-2")
    const a = staged(codeRows(4000))
    const b = staged(codeRows(4000))
    writeFolderSieve(dir, a)
    writeFolderSieve(dir, b)
    removeFolderSieves(dir, [a.fingerprint, "no-such:folder"])
    expect(fs.readdirSync(dir)).toEqual([sieveFileName(b.fingerprint)])
    removeFolderSieves(dir, [a.fingerprint])
    removeFolderSieves(path.join(root, "none"), [a.fingerprint])
    clearSieves(dir)
    expect(fs.readdirSync(dir)).toEqual([])
    clearSieves(path.join(root, "none"))
  })
})

describe("a sieve's bits (S2)", () => {
  // The rule written plainly, as the module's docs state it: a bit per unit, per pair of adjacent units and per
  // run of 5 adjacent units of each text, the pair and run hashed onto tables of 2^bits bits (top bits of the hash).
  function reference(texts: ReadonlyArray<string>, bits: number) {
    const shift = 32 - bits
    const pairs = new Uint32Array(2 ** bits / 32)
    const runs = new Uint32Array(2 ** bits / 32)
    const units = new Uint32Array(65536 / 32)
    const set = (t: Uint32Array, b: number) => void (t[b >>> 5]! |= 1 << (b & 31))
    for (const text of texts) {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i)
        set(units, c)
        if (i >= 1) set(pairs, Math.imul((text.charCodeAt(i - 1) << 16) | c, 0x9e3779b1) >>> 0 >>> shift)
        if (i >= 4) {
          let h = 0
          for (let j = i - 4; j <= i; j++) h = (Math.imul(h, 0x01000193) + text.charCodeAt(j)) | 0
          set(runs, Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0 >>> shift)
        }
      }
    }
    return { pairs, runs, units }
  }

  it("are those of the rule for texts of every length from 0 to 12 units and for long ones, surrogates and all", () => {
    const rand = seededRandom(11)
    const alphabet = ["a", "B", "7", "見", "積", "ｰ", "\u{20B9F}", "-", " ", "\t"]
    const texts: Array<string> = []
    for (let length = 0; length <= 12; length++) {
      for (let k = 0; k < 5; k++) texts.push(Array.from({ length }, () => alphabet[Math.floor(rand() * alphabet.length)]).join(""))
    }
    texts.push(codeRows(300).join(" "))
    const bits = 15
    const builder = new SieveBuilder(bits)
    for (const text of texts) builder.add(text)
    const built = builder.finish("x")
    const expected = reference(texts, bits)
    expect(built.shift).toBe(32 - bits)
    expect(Buffer.from(built.units.buffer).equals(Buffer.from(expected.units.buffer))).toBe(true)
    expect(Buffer.from(built.pairs.buffer).equals(Buffer.from(expected.pairs.buffer))).toBe(true)
    expect(Buffer.from(built.runs.buffer).equals(Buffer.from(expected.runs.buffer))).toBe(true)
  })
})
