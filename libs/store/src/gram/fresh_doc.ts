/**
 * The source files of the fresh tail (S1) as a search reads them: straight
 * from the body index (or their staging folder), whole; a process that
 * searches again and again (the GUI's search thread) reads and normalises
 * each folder once while its fingerprint holds (S2), and a big folder not
 * at all unless its sieve (sieve.ts) says it may hold the words searched
 * for. Effect-free: on the path of every cold search.
 *
 * Sync `node:fs` here (STYLE 14): the cold search reads a fresh file's TSVs
 * and must stay Effect-free (ARCHITECTURE.md).
 *
 * @module
 */
import {
  type BodyLine, type Locator, type SourceStamp, normalizeForSearch, parseBodyTsv, parseBodyTsvHead, parseBodyTsvRow, partNameOfTsvFileName
} from "@sagasu/domain"
import * as fs from "node:fs"
import * as path from "node:path"
import { type BodyFolder, isMissing, sourceStampOf } from "./body_walk.ts"
import { type Sieve, buildSieve, readSieveFile, sieveBytes, sieveMayHold, sieveOfTsvTexts, wholeNormalized } from "./sieve.ts"

/** A source file of the fresh tail, read from the body index when a search needs it. */
export interface FreshDoc {
  readonly index: string
  readonly path: string
  readonly normIndex: string
  readonly normPath: string
  readonly type: string
  /** When its folder was published (ms). */
  readonly mtimeMs: number
  readonly folder: BodyFolder
  /** Where its worker wrote its sieve, if it was big (the work folder's `sieves`, sieve.ts). */
  readonly sieves?: string
}

/** One part of a fresh source file: its TSV's name, locator and lines (with their forms, S4). */
export interface FreshPart {
  readonly file: string
  readonly locator: Locator
  readonly lines: ReadonlyArray<BodyLine>
  /** Each line's text normalised for search, when read through {@link readFreshParts}. */
  readonly norms?: ReadonlyArray<string>
  /** Each line's search-only forms normalised (`""`: none), beside {@link norms}. */
  readonly formNorms?: ReadonlyArray<string>
}

interface CachedParts {
  readonly fingerprint: string
  readonly chars: number
  readonly parts: Array<FreshPart>
  /** Its path and parts' names, and every line's text and forms, normalised, each after a line feed: a word not in it is in no line. */
  readonly joined: string
}

// Fresh folders read lately, by folder, while their fingerprint holds; most recently used last.
const freshCache = new Map<string, CachedParts>()
let freshCacheChars = 0
const FRESH_CACHE_CHARS = 16 * 1024 * 1024

/**
 * The parts of a fresh folder as the body index holds them now (undefined
 * when it vanished), each line normalised. A TSV that cannot be read
 * (damaged by hand, a link loop) is left out: one file never fails a
 * search; the next update reports it. Given `terms` (normalised), also
 * undefined when the folder cannot hold every one of them in its text, its
 * forms or its names ({@link freshMayHold}'s sieve: the one its worker
 * wrote in `sieveDir`, or one from the same read): a search reads each fresh
 * folder once. Given `wanted` (normalised words: the query's terms and
 * excluded terms), a big folder's parts hold only the lines that hold one of
 * them in their text, forms or location — all a file-level search looks at
 * (a line holding none adds nothing to a file's match) — and are not kept
 * for the next query: parsing and
 * splitting every line of a few MB of text cost a GUI query that met it
 * 100–270 ms (S2).
 */
export function readFreshParts(
  folder: BodyFolder,
  terms?: ReadonlyArray<string>,
  sieveDir?: string,
  wanted?: ReadonlyArray<string>
): Array<FreshPart> | undefined {
  const known = freshCache.get(folder.dir)
  if (known !== undefined && known.fingerprint === folder.fingerprint) {
    freshCache.delete(folder.dir)
    freshCache.set(folder.dir, known)
    return terms === undefined || terms.every((t) => known.joined.includes(t)) ? known.parts : undefined
  }
  if (terms !== undefined && sieveRulesOut(folder, terms, sieveDir)) return undefined
  const texts = readTexts(folder)
  if (texts === undefined) return undefined
  const normalized = texts.map(({ text }) => wholeNormalized(text))
  if (terms !== undefined && rulesOut(folder, terms, normalized)) return undefined
  if (wanted !== undefined && wanted.length > 0 && texts.reduce((n, t) => n + t.text.length, 0) > filterChars) {
    const filtered = partsHolding(texts, normalized, wanted)
    if (filtered !== undefined) return filtered
  }
  const out: Array<FreshPart> = []
  let chars = 0
  texts.forEach(({ file, text }, k) => {
    const tsv = parseBodyTsv(text)
    chars += text.length
    out.push({ file, locator: tsv.locator, lines: tsv.lines, ...normsOf(text, normalized[k], tsv.lines) })
  })
  if (known !== undefined) {
    freshCache.delete(folder.dir)
    freshCacheChars -= known.chars
  }
  if (chars <= FRESH_CACHE_CHARS / 4) {
    let joined = normalizeForSearch(folder.path)
    for (const part of out) {
      joined += `\n${normalizeForSearch(partNameOfTsvFileName(part.file))}`
      for (const n of part.norms ?? []) joined += `\n${n}`
      for (const f of part.formNorms ?? []) if (f !== "") joined += `\n${f}`
    }
    freshCache.set(folder.dir, { fingerprint: folder.fingerprint, chars, parts: out, joined })
    freshCacheChars += chars
    for (const [dir, entry] of freshCache) {
      if (freshCacheChars <= FRESH_CACHE_CHARS) break
      freshCache.delete(dir)
      freshCacheChars -= entry.chars
    }
  }
  return out
}

/** A fresh folder of more characters than this is read for a query's lines only ({@link readFreshParts}). */
export const filterChars = 256 * 1024

// The parts of a folder with only the lines holding one of `words`; undefined when some TSV is escaped
// (its normalised text is unknown) or its rows do not line up with its normalised rows.
function partsHolding(
  texts: ReadonlyArray<{ readonly file: string; readonly text: string }>,
  normalized: ReadonlyArray<string | undefined>,
  words: ReadonlyArray<string>
): Array<FreshPart> | undefined {
  const out: Array<FreshPart> = []
  for (const [k, { file, text }] of texts.entries()) {
    const norm = normalized[k]
    if (norm === undefined) return undefined
    const rawStarts = rowStarts(text)
    const normStarts = rowStarts(norm)
    if (rawStarts.length !== normStarts.length) return undefined
    const rows = new Set<number>()
    for (const word of words) {
      if (word === "") continue
      for (let at = norm.indexOf(word); at >= 0;) {
        const r = rowAt(normStarts, at)
        rows.add(r)
        at = r + 1 < normStarts.length ? norm.indexOf(word, normStarts[r + 1]!) : -1
      }
    }
    const rowEnd = (starts: ReadonlyArray<number>, s: string, r: number) => (r + 1 < starts.length ? starts[r + 1]! - 1 : s.length)
    const lines: Array<BodyLine> = []
    const norms: Array<string> = []
    const formNorms: Array<string> = []
    // Row 0 is the header; an empty row (the last, after the final line feed) holds no line.
    for (const r of [...rows].sort((a, b) => a - b)) {
      if (r === 0) continue
      const row = text.slice(rawStarts[r]!, rowEnd(rawStarts, text, r))
      if (row === "") continue
      lines.push(parseBodyTsvRow(row))
      const fields = norm.slice(normStarts[r]!, rowEnd(normStarts, norm, r)).split("\t")
      norms.push(fields[1] ?? "")
      formNorms.push(fields[2] ?? "")
    }
    const header = text.slice(0, rowEnd(rawStarts, text, 0))
    out.push({ file, locator: parseBodyTsvHead(header).locator, lines, norms, formNorms })
  }
  return out
}

// Where each row of a text starts (the first at 0).
function rowStarts(text: string): Array<number> {
  const starts = [0]
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) starts.push(at + 1)
  return starts
}

// The row holding offset `at`: the last start at or before it.
function rowAt(starts: ReadonlyArray<number>, at: number): number {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1
    if (starts[mid]! <= at) lo = mid
    else hi = mid - 1
  }
  return lo
}

// The texts of a fresh folder's TSVs; undefined when the folder (or a TSV) is gone, a TSV that cannot be read left out.
function readTexts(folder: BodyFolder): Array<{ readonly file: string; readonly text: string }> | undefined {
  const texts: Array<{ file: string; text: string }> = []
  for (const file of folder.files) {
    try {
      texts.push({ file, text: fs.readFileSync(path.join(folder.dir, file), "utf8") })
    } catch (e) {
      if (isMissing(e)) return undefined
    }
  }
  return texts
}

// Each line's text and forms normalised: the whole TSV's normalisation (`normalized`, given when
// nothing in it is escaped) cut at its line feeds and tabs (it never joins or makes characters across
// them); else line by line. Per line, a TSV of 10,000 rows cost a GUI's query tens of ms (S2).
function normsOf(text: string, normalized: string | undefined, lines: ReadonlyArray<BodyLine>): { norms: Array<string>; formNorms: Array<string> } {
  const byLine = () => ({
    norms: lines.map((l) => normalizeForSearch(l.text)),
    formNorms: lines.map((l) => (l.forms === undefined || l.forms === "" ? "" : normalizeForSearch(l.forms)))
  })
  if (normalized === undefined) return byLine()
  const rows = text.split("\n")
  const normRows = normalized.split("\n")
  if (normRows.length !== rows.length) return byLine()
  const norms: Array<string> = []
  const formNorms: Array<string> = []
  for (let i = 1; i < rows.length; i++) {
    if (rows[i] === "") continue
    const fields = (normRows[i] ?? "").split("\t")
    norms.push(fields[1] ?? "")
    formNorms.push(fields[2] ?? "")
  }
  return norms.length === lines.length ? { norms, formNorms } : byLine()
}

/**
 * Whether the fresh folder may hold every one of `terms` (normalised) in its
 * text, its search-only forms or its names (its path and the names of its
 * parts) — never `false` when it does (S1), so that a search parses and
 * normalises line by line only the files that may match (S2: a file of
 * 50 MB of text in the tail, fed to the round piece by piece, cost every
 * cold search the better part of a second). One read and one normalisation
 * of each TSV's whole text (normalising never joins or makes characters
 * across a tab or a line feed), or none when its worker wrote its sieve in
 * `sieveDir`; a folder whose parts are cached answers from them; a TSV with
 * an escape (`\`) may hide a term behind it: `true`.
 */
export function freshMayHold(folder: BodyFolder, terms: ReadonlyArray<string>, sieveDir?: string): boolean {
  const known = freshCache.get(folder.dir)
  if (known !== undefined && known.fingerprint === folder.fingerprint) return terms.every((t) => known.joined.includes(t))
  if (sieveRulesOut(folder, terms, sieveDir)) return false
  const texts = readTexts(folder)
  if (texts === undefined) return true
  return !rulesOut(folder, terms, texts.map(({ text }) => wholeNormalized(text)))
}

// Whether the sieve kept for the folder (or, kept from now on, the one its worker wrote in `sieveDir`)
// says it holds some term nowhere.
function sieveRulesOut(folder: BodyFolder, terms: ReadonlyArray<string>, sieveDir: string | undefined): boolean {
  let kept: KeptSieve | undefined = sieves.get(folder.dir)
  if (kept === undefined || kept.sieve.fingerprint !== folder.fingerprint) {
    const written = sieveDir === undefined ? undefined : readSieveFile(sieveDir, folder.fingerprint)
    if (written === undefined) return false
    kept = keep(folder, namesOf(folder), written)
  } else {
    sieves.delete(folder.dir)
    sieves.set(folder.dir, kept)
  }
  const { names, sieve } = kept
  return !terms.every((t) => names.includes(t) || sieveMayHold(sieve, t))
}

// Whether the folder's normalised texts (undefined: escaped, unknown) and names hold some term nowhere;
// keeps the folder's sieve when it is worth it.
function rulesOut(folder: BodyFolder, terms: ReadonlyArray<string>, normalized: ReadonlyArray<string | undefined>): boolean {
  if (normalized.some((n) => n === undefined)) return false
  const texts = normalized as ReadonlyArray<string>
  const names = namesOf(folder)
  // A process that searches again and again keeps the sieve at once (a GUI: the tail changes with every
  // flush, most of its folders are read by two or three queries); a cold search keeps one only for a
  // folder it reads a second time.
  // A sieve kept already (it said "may") is not built again.
  const kept = sieves.get(folder.dir)?.sieve.fingerprint === folder.fingerprint
  if (!kept && (searchesAgain || seenOnce.get(folder.dir) === folder.fingerprint)) keep(folder, names, buildSieve(folder.fingerprint, texts))
  else if (!kept) {
    seenOnce.set(folder.dir, folder.fingerprint)
    if (seenOnce.size > 1024) seenOnce.delete(seenOnce.keys().next().value as string)
  }
  return !terms.every((t) => names.includes(t) || texts.some((x) => x.includes(t)))
}

// A fresh folder's names as a sieve holds them: its path and its parts' names, normalised.
function namesOf(folder: BodyFolder): string {
  let names = normalizeForSearch(folder.path)
  for (const file of folder.files) names += `\u0001${normalizeForSearch(partNameOfTsvFileName(file))}`
  return names
}

/**
 * Reads a fresh folder and keeps its sieve ahead of the queries that will
 * ask for it (S2: a GUI's search thread between queries, so that a query
 * during a run finds the newly published folders sieved instead of
 * normalising their text itself): the sieve file its worker wrote in
 * `sieveDir` when there is one, else built from its text (a TSV with an
 * escape parsed and its lines normalised one by one). Nothing when the
 * folder is sieved or cached already, or gone. Returns whether it read the
 * folder (its sieve file or its text).
 */
export function sieveFresh(folder: BodyFolder, sieveDir?: string): boolean {
  if (freshCache.get(folder.dir)?.fingerprint === folder.fingerprint) return false
  if (sieves.get(folder.dir)?.sieve.fingerprint === folder.fingerprint) return false
  const written = sieveDir === undefined ? undefined : readSieveFile(sieveDir, folder.fingerprint)
  if (written !== undefined) {
    keep(folder, namesOf(folder), written)
    return true
  }
  const texts = readTexts(folder)
  if (texts === undefined) return false
  keep(folder, namesOf(folder), sieveOfTsvTexts(folder.fingerprint, texts.map(({ text }) => text)))
  return true
}

// The sieves kept in memory (sieve.ts), by folder, with the folder's names (its path and its parts'
// names, normalised). A table of one size for all (2^18 bits) filled up on the big files a stop leaves
// in the tail (a few MB of text: nearly every bit set), which then said "may" to every query and were
// read and normalised again by each (S2: 0.5 s a GUI query after a stop): the tables are sized to the
// text. 512 kept, at most 96 MiB in all.
interface KeptSieve {
  readonly names: string
  readonly sieve: Sieve
}
const sieves = new Map<string, KeptSieve>()
let sieveTotal = 0
let searchesAgain = false

/** This process searches again and again (the GUI's search thread): fresh folders' sieves are kept from their first read (S2). */
export function freshSearchesAgain(): void {
  searchesAgain = true
}
const SIEVES = 512
const SIEVE_BYTES = 96 * 1024 * 1024
const seenOnce = new Map<string, string>()

function keep(folder: BodyFolder, names: string, sieve: Sieve): KeptSieve {
  const old = sieves.get(folder.dir)
  if (old !== undefined) {
    sieves.delete(folder.dir)
    sieveTotal -= sieveBytes(old.sieve)
  }
  const kept = { names, sieve }
  sieves.set(folder.dir, kept)
  sieveTotal += sieveBytes(sieve)
  for (const [dir, k] of sieves) {
    if (sieves.size <= SIEVES && sieveTotal <= SIEVE_BYTES) break
    sieves.delete(dir)
    sieveTotal -= sieveBytes(k.sieve)
  }
  return kept
}

/** The size and modified time of a fresh source file (its `.complete` mark), when known. */
export function freshStampOf(doc: FreshDoc): SourceStamp | undefined {
  return sourceStampOf(doc.folder.dir)
}
