/**
 * The source files of the fresh tail (S1) as a search reads them: straight
 * from the body index (or their staging folder), whole; a process that
 * searches again and again (the GUI's search thread) reads and normalises
 * each folder once while its fingerprint holds (S2). Effect-free: on the
 * path of every cold search.
 *
 * Sync `node:fs` here (STYLE 14): the cold search reads a fresh file's TSVs
 * and must stay Effect-free (ARCHITECTURE.md).
 *
 * @module
 */
import { type BodyLine, type Locator, type SourceStamp, normalizeForSearch, parseBodyTsv, partNameOfTsvFileName } from "@sagasu/domain"
import * as fs from "node:fs"
import * as path from "node:path"
import { type BodyFolder, isMissing, sourceStampOf } from "./body_walk.ts"

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
}

// Fresh folders read lately, by folder, while their fingerprint holds; most recently used last.
const freshCache = new Map<string, CachedParts>()
let freshCacheChars = 0
const FRESH_CACHE_CHARS = 16 * 1024 * 1024

/**
 * The parts of a fresh folder as the body index holds them now (undefined
 * when it vanished), each line normalised. A TSV that cannot be read
 * (damaged by hand, a link loop) is left out: one file never fails a
 * search; the next update reports it.
 */
export function readFreshParts(folder: BodyFolder): Array<FreshPart> | undefined {
  const known = freshCache.get(folder.dir)
  if (known !== undefined && known.fingerprint === folder.fingerprint) {
    freshCache.delete(folder.dir)
    freshCache.set(folder.dir, known)
    return known.parts
  }
  const out: Array<FreshPart> = []
  let chars = 0
  for (const file of folder.files) {
    let text: string
    try {
      text = fs.readFileSync(path.join(folder.dir, file), "utf8")
    } catch (e) {
      if (isMissing(e)) return undefined
      continue
    }
    const tsv = parseBodyTsv(text)
    chars += text.length
    out.push({
      file,
      locator: tsv.locator,
      lines: tsv.lines,
      norms: tsv.lines.map((l) => normalizeForSearch(l.text)),
      formNorms: tsv.lines.map((l) => (l.forms === undefined || l.forms === "" ? "" : normalizeForSearch(l.forms)))
    })
  }
  if (known !== undefined) {
    freshCache.delete(folder.dir)
    freshCacheChars -= known.chars
  }
  if (chars <= FRESH_CACHE_CHARS / 4) {
    freshCache.set(folder.dir, { fingerprint: folder.fingerprint, chars, parts: out })
    freshCacheChars += chars
    for (const [dir, entry] of freshCache) {
      if (freshCacheChars <= FRESH_CACHE_CHARS) break
      freshCache.delete(dir)
      freshCacheChars -= entry.chars
    }
  }
  return out
}

/**
 * Whether the fresh folder may hold every one of `terms` (normalised) in its
 * text, its search-only forms or its names (its path and the names of its
 * parts) — never `false` when it does (S1), so that a search parses and
 * normalises line by line only the files that may match (S2: a file of
 * 50 MB of text in the tail, fed to the round piece by piece, cost every
 * cold search the better part of a second). One read and one normalisation
 * of each TSV's whole text (normalising never joins or makes characters
 * across a tab or a line feed); a folder whose parts are cached answers
 * `true` (they are cheap to decide); a TSV with an escape (`\`) may hide a
 * term behind it: `true`.
 */
export function freshMayHold(folder: BodyFolder, terms: ReadonlyArray<string>): boolean {
  const known = freshCache.get(folder.dir)
  if (known !== undefined && known.fingerprint === folder.fingerprint) return true
  let names = normalizeForSearch(folder.path)
  const texts: Array<string> = []
  for (const file of folder.files) {
    names += `\u0001${normalizeForSearch(partNameOfTsvFileName(file))}`
    let raw: string
    try {
      raw = fs.readFileSync(path.join(folder.dir, file), "utf8")
    } catch {
      // Gone or unreadable: readFreshParts says which.
      return true
    }
    if (raw.includes("\\")) return true
    texts.push(normalizeForSearch(raw))
  }
  return terms.every((t) => names.includes(t) || texts.some((x) => x.includes(t)))
}

/** The size and modified time of a fresh source file (its `.complete` mark), when known. */
export function freshStampOf(doc: FreshDoc): SourceStamp | undefined {
  return sourceStampOf(doc.folder.dir)
}
