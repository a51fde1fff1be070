/**
 * Search over the gram index (SPEC §5 "Search"; issue 6): look the query's
 * 2-grams up in every segment, intersect the posting lists, drop the lines
 * where the grams' recorded positions do not line up, verify the rest
 * against the lines store, and return located hits, best first.
 *
 * Order ("best first"): files whose path names more of the terms first
 * (a file called 見積書 ranks first for 見積), then newer files — the order
 * in which the gram index recorded them: newer segments first, and inside a
 * segment by the folder's mtime (when it was published), newest first; inside
 * a file, in document order. Because line ids follow that order, a search
 * stops as soon as it has `limit` hits, however common the term.
 *
 * A searcher reads one manifest and keeps the files it names open, so an
 * indexing run writing a new generation meanwhile changes nothing it sees.
 *
 * @module
 */
import {
  type Locator,
  type QueryFilter,
  type SearchQuery,
  fileTypeAliases,
  lineMatchesQuery,
  matchLine,
  normalizeForSearch,
  parseSearchQuery,
  passesFilters,
  termsInPath,
  fileTypeOf
} from "@sagasu/domain"
import * as path from "node:path"
import { type SearchHit, hitOf } from "../search_hit.ts"
import { bodyFolderAt, docKey, stagedFolderAt } from "./body_walk.ts"
import { type FreshDoc, freshSearchesAgain, readFreshParts, sieveFresh } from "./fresh_doc.ts"
import { candidatesOf } from "./term_cursor.ts"
import { FileSearch, type FileSearchOptions, type FileSearchOutcome } from "./file_search.ts"
import { lastEntries, readFreshTailSync } from "./fresh_log.ts"
import { type Manifest, isCurrentManifest, readManifestSync } from "./manifest_format.ts"
import { newestFirst } from "./segment_builder.ts"
import { END, SegmentReader } from "./segment_reader.ts"
import { sieveDirName } from "./sieve.ts"

/** Options of a search (the CLI's `--index`, `--type`, `--limit`). */
export interface SearchOptions {
  /** At most this many hits (default 100). */
  readonly limit?: number
  /** Only this index (added to the query's `index:` filters). */
  readonly index?: string
  /** Only this file type: an extension (`xlsx`) or `excel`, `word`, `powerpoint`. */
  readonly type?: string
  /** Only the source file at exactly this path (relative, `/`-separated). */
  readonly path?: string
}

/** The query with the options' filters added. */
export function queryWithOptions(text: string, options: SearchOptions): SearchQuery {
  const query = parseSearchQuery(text)
  const filters: Array<QueryFilter> = [...query.filters]
  if (options.index !== undefined) filters.push({ key: "index", values: [normalizeForSearch(options.index)], negate: false })
  if (options.type !== undefined) {
    const t = normalizeForSearch(options.type).replace(/^\./, "")
    filters.push({ key: "type", values: fileTypeAliases[t] ?? [t], negate: false })
  }
  return { ...query, filters }
}

/** Options of a search beyond the filters: a time budget and a way to cancel (S2). */
export interface SearchControl {
  /** Stop and answer with what was found once `now()` passes this (same clock as `now`). */
  readonly deadline?: number
  /** The clock of `deadline` (default `performance.now`). */
  readonly now?: () => number
  /** Stop and answer with what was found as soon as this returns true (a newer query came). */
  readonly cancelled?: () => boolean
}

/** Hits and whether the search stopped before it looked everywhere (budget or cancel, S2). */
export interface SearchOutcome {
  readonly hits: Array<SearchHit>
  /** The budget ran out or the search was cancelled: there may be hits it did not see. */
  readonly partial: boolean
}

// Candidates between two looks at the clock.
const CHECK_EVERY = 256

// The result of the callback: go on, or stop (enough hits / out of time).
type Go = boolean

/** An open, consistent view of the gram index; see the module doc. */
export class GramSearcher {
  /** The manifest this searcher reads. */
  readonly manifest: Manifest
  private readonly segments: ReadonlyArray<SegmentReader>
  private readonly indexRoot: string
  // Source files of the fresh tail: masked in the segments, read from the body index (S1).
  private readonly fresh: ReadonlySet<string>
  private readonly freshDocs: ReadonlyArray<FreshDoc>
  private constructor(manifest: Manifest, segments: ReadonlyArray<SegmentReader>, indexRoot: string, fresh: ReadonlySet<string>, freshDocs: ReadonlyArray<FreshDoc>) {
    this.manifest = manifest
    this.segments = segments
    this.indexRoot = indexRoot
    this.fresh = fresh
    this.freshDocs = freshDocs
  }

  /**
   * Opens the index of a work folder (`gram` and `index` of its paths) as its
   * manifest names it now, with the fresh log's tail. Returns `undefined`
   * when there is no usable index (none yet, or written by another format or
   * normaliser: the next indexing run rebuilds it). Throws a GramFileError (or an I/O error)
   * when the manifest or a segment is damaged; retries when a newer manifest
   * replaced the one read while its files were being opened.
   */
  static open(paths: { readonly gram: string; readonly index: string }): GramSearcher | undefined {
    return GramSearcher.reopen(paths, undefined)
  }

  /**
   * {@link open}, reusing the open segments of `previous` that the manifest
   * still names as they were (a GUI's search thread between two queries:
   * during a run only the newest segments change): the rest is opened, and
   * the fresh tail read again. `previous` must not be used after; what of it
   * is not reused is closed. Same errors as `open`.
   */
  static reopen(paths: { readonly gram: string; readonly index: string }, previous: GramSearcher | undefined): GramSearcher | undefined {
    // A searcher reopened is a process that searches again and again: the fresh tail's sieves are worth keeping.
    if (previous !== undefined) freshSearchesAgain()
    const gramDir = paths.gram
    let prior = previous
    for (let attempt = 0; ; attempt++) {
      const manifest = readManifestSync(gramDir)
      if (manifest === undefined || !isCurrentManifest(manifest)) {
        prior?.close()
        return undefined
      }
      // A segment named as before (same id, same deletions) is the same: its open reader is kept;
      // what changed since is in the fresh tail, masked there.
      const reusable = new Map<string, SegmentReader>()
      if (prior !== undefined) {
        prior.manifest.segments.forEach((entry, i) => {
          const reader = prior?.segments[i]
          if (reader !== undefined && manifest.segments.some((e) => e.id === entry.id && e.deleted === entry.deleted)) reusable.set(entry.id, reader)
        })
        prior.segments.forEach((r) => {
          if (![...reusable.values()].includes(r)) r.close()
        })
      }
      prior = undefined
      const opened: Array<SegmentReader> = []
      try {
        for (const s of manifest.segments) {
          const kept = reusable.get(s.id)
          reusable.delete(s.id)
          opened.push(kept ?? SegmentReader.open(gramDir, s, paths.index))
        }
        const tail = readFreshTailSync(gramDir, manifest.fresh, manifest.freshFrom)
        if (tail === undefined) throw new Error(`the fresh log ${manifest.fresh} is gone`)
        const last = lastEntries(tail.entries)
        const freshDocs: Array<FreshDoc> = []
        const sieves = path.join(gramDir, sieveDirName)
        for (const e of last.values()) {
          if (e.op === "-") continue
          // A published folder, or a done file's staged one waiting for the rest of its source folder (R14).
          const folder = e.op === "+" ? bodyFolderAt(paths.index, e.index, e.path) : stagedFolderAt(path.dirname(paths.index), e.index, e.path, e.staging ?? "")
          if (folder === undefined) continue
          freshDocs.push({
            index: e.index, path: e.path, normIndex: normalizeForSearch(e.index), normPath: normalizeForSearch(e.path),
            type: fileTypeOf(e.path), mtimeMs: folder.mtimeMs, folder, sieves
          })
        }
        freshDocs.sort((a, b) => newestFirst({ ...a, fingerprint: "" }, { ...b, fingerprint: "" }))
        return new GramSearcher(manifest, opened, paths.index, new Set(last.keys()), freshDocs)
      } catch (e) {
        for (const r of opened) r.close()
        if (attempt >= 3) throw e
      }
    }
  }

  private piecesOf: Map<string, Array<{ readonly segment: SegmentReader; readonly d: number }>> | undefined

  /**
   * The file-level search (S3, S4, S5; file_search.ts): each file holding
   * every word of `text` (search_query.ts syntax) once, with its best
   * located hits, in relevance or date order, the page `offset`/`limit` of
   * them, and the totals. Within `control`'s budget (S2). Throws on I/O errors.
   */
  searchFiles(text: string, options: FileSearchOptions = {}, control: SearchControl = {}): FileSearchOutcome {
    if (this.piecesOf === undefined) {
      // Pieces of big files are flagged in the doc tables: found once per searcher, without decoding every path.
      const pieces = new Map<string, Array<{ readonly segment: SegmentReader; readonly d: number }>>()
      for (const segment of this.segments) {
        for (let d = 0; d < segment.docs.length; d++) {
          if (!segment.docs.isPiece(d) || segment.isDeleted(d)) continue
          const v = segment.view(d)
          const key = docKey(v.index, v.path)
          const list = pieces.get(key) ?? []
          list.push({ segment, d })
          pieces.set(key, list)
        }
      }
      this.piecesOf = pieces
    }
    const search = new FileSearch(
      { segments: this.segments, fresh: this.fresh, freshDocs: this.freshDocs, pieces: this.piecesOf },
      parseSearchQuery(text),
      options,
      control
    )
    return search.run()
  }

  /**
   * Sieves the fresh tail's folders that no query has read yet (a big one's
   * sieve read from the file its worker wrote), newest first,
   * until `deadline` (a `performance.now()` time) or `cancelled()` (S2: the
   * GUI's search thread between queries, so that the next query only asks
   * the sieves); the newest 256 at most (half the sieves kept: a stop's long
   * tail is not read round and round). Returns whether those are all sieved
   * or cached.
   */
  warmFresh(deadline: number, cancelled: () => boolean = () => false): boolean {
    for (const doc of this.freshDocs.slice(0, 256)) {
      if (performance.now() >= deadline || cancelled()) return false
      sieveFresh(doc.folder, doc.sieves)
    }
    return true
  }

  /** Closes the files of the segments. */
  close(): void {
    for (const s of this.segments) s.close()
  }

  /**
   * Source files (docs: pieces of a big file count one each) and lines the
   * searcher sees in segments (deleted and fresh ones excluded), the pieces
   * among those docs, and the fresh tail's files.
   */
  get stats(): { readonly segments: number; readonly docs: number; readonly lines: number; readonly pieces: number; readonly fresh: number } {
    let docs = 0
    let lines = 0
    let pieces = 0
    for (const s of this.segments) {
      for (let d = 0; d < s.docs.length; d++) {
        if (s.isDeleted(d) || this.fresh.has(docKey(s.docs.index(d), s.docs.path(d)))) continue
        docs++
        lines += s.docs.count(d)
        if (s.docs.isPiece(d)) pieces++
      }
    }
    return { segments: this.segments.length, docs, lines, pieces, fresh: this.freshDocs.length }
  }

  /**
   * The hits of `text` (search_query.ts syntax) with the filters of
   * `options`, best first (module doc), at most `limit`. Throws on I/O errors.
   */
  search(text: string, options: SearchOptions = {}): Array<SearchHit> {
    return this.searchWithin(text, options).hits
  }

  /**
   * {@link search} within a time budget and with a way to cancel (S2): the
   * hits found until then, and whether it stopped early.
   */
  searchWithin(text: string, options: SearchOptions = {}, control: SearchControl = {}): SearchOutcome {
    const limit = options.limit ?? 100
    const hits: Array<SearchHit> = []
    if (limit <= 0) return { hits, partial: false }
    const partial = this.forEachMatch(text, options, (m) => {
      const line = m.read()
      if (line === undefined) return true
      const spans = matchLine(line.text, m.query, line.forms)
      if (spans === undefined) return true
      hits.push(hitOf(m.index, m.path, m.part.file, m.part.locator, line.loc, line.text, spans))
      return hits.length < limit
    }, control)
    return { hits, partial }
  }

  /**
   * Calls `f` for every matching line, best first, until `f` returns
   * `false`; `m.read()` reads the line's location and text (`undefined`
   * when its folder changed since it was indexed: skip it). The text is
   * read only when needed: postings are exact for terms of 1 or 2
   * characters, and for longer ones whenever the grams' position tags spell
   * the term; only lines where a gram occurs several times (or past
   * position 254), or when the query excludes terms, are verified against
   * the text. Source files of the fresh tail are read from the body index
   * and matched line by line. Returns `true` when it stopped because of
   * `control` (out of time, cancelled). Throws on I/O errors.
   */
  forEachMatch(text: string, options: SearchOptions, f: (m: MatchedLine) => Go, control: SearchControl = {}): boolean {
    const query = queryWithOptions(text, options)
    if (query.terms.length === 0) return false
    const now = control.now ?? (() => performance.now())
    let ticks = 0
    let stopped = false
    const outOfTime = () => {
      if (++ticks % CHECK_EVERY !== 0) return false
      if (control.cancelled?.() === true || (control.deadline !== undefined && now() > control.deadline)) stopped = true
      return stopped
    }
    // With no exclusions, a line whose gram positions spell every term needs no reading.
    const noExclusions = query.exclude.length === 0
    const newestFirstSegments = [...this.segments].reverse()
    // Per segment: the docs whose path names some terms (their level), from one byte search per term.
    const pathLevels = newestFirstSegments.map((segment) => {
      const levels = new Map<number, number>()
      for (const t of query.terms) {
        for (const d of segment.docs.docsWithNameContaining(t)) if (segment.docs.normPath(d).includes(t)) levels.set(d, (levels.get(d) ?? 0) + 1)
      }
      return levels
    })
    // Per segment: -1 = not searched (deleted, fresh, filtered out), else its level; filled lazily.
    const verdicts = newestFirstSegments.map(() => new Map<number, number>())
    const verdictOf = (i: number, segment: SegmentReader, d: number): number => {
      const known = verdicts[i]!.get(d)
      if (known !== undefined) return known
      let v: number
      if (segment.isDeleted(d)) v = -1
      else {
        const doc = segment.view(d)
        if (this.fresh.has(docKey(doc.index, doc.path))) v = -1
        else if (options.path !== undefined && doc.path !== options.path) v = -1
        else if (!passesFilters(query, { index: doc.normIndex, path: doc.normPath, type: doc.type })) v = -1
        else v = pathLevels[i]!.get(d) ?? 0
      }
      verdicts[i]!.set(d, v)
      return v
    }
    const freshSubjects = this.freshDocs.filter((d) =>
      (options.path === undefined || d.path === options.path) && passesFilters(query, { index: d.normIndex, path: d.normPath, type: d.type })
    )
    for (let level = query.terms.length; level >= 0; level--) {
      // The fresh tail first: its files were published after everything in the segments.
      for (const doc of freshSubjects) {
        if (termsInPath(query, doc.normPath) !== level) continue
        const parts = readFreshParts(doc.folder)
        if (parts === undefined) continue
        for (const part of parts) {
          for (const [n, line] of part.lines.entries()) {
            if (outOfTime()) return true
            if (!lineMatchesQuery(part.norms?.[n] ?? normalizeForSearch(line.text), query, part.formNorms?.[n] ?? normalizeForSearch(line.forms ?? ""))) continue
            const read = () => ({ loc: line.loc, text: line.text, forms: line.forms ?? "" })
            if (!f({ query, index: doc.index, path: doc.path, part: { file: part.file, locator: part.locator }, line: n, read })) return false
          }
        }
      }
      for (const [i, segment] of newestFirstSegments.entries()) {
        const candidates = candidatesOf(segment, query)
        if (candidates === undefined) continue
        const cursor = candidates.cursor
        // Levels above 0 are the few docs whose path names terms: visit just those.
        const only = level > 0 ? [...pathLevels[i]!].filter(([, l]) => l === level).map(([d]) => d).sort((a, b) => a - b) : undefined
        if (only !== undefined && only.length === 0) continue
        let next = 0
        let line = only === undefined ? cursor.advance(0) : cursor.advance(segment.docs.first(only[0]!))
        while (line !== END) {
          if (outOfTime()) return true
          const d = segment.docOfLine(line)
          const docEnd = segment.docs.first(d) + segment.docs.count(d)
          if (only !== undefined) {
            while (next < only.length && only[next]! < d) next++
            if (next >= only.length) break
            if (only[next]! > d) {
              line = cursor.advance(segment.docs.first(only[next]!))
              continue
            }
          }
          if (verdictOf(i, segment, d) !== level) {
            line = cursor.advance(docEnd)
            continue
          }
          const verdict = candidates.positionsAllow()
          if (verdict === "no") {
            line = cursor.advance(line + 1)
            continue
          }
          let cached: { loc: string; text: string; forms: string } | undefined | null = null
          const id = line
          const read = () => (cached === null ? (cached = segment.line(id)) : cached)
          let matches = verdict === "yes" && noExclusions
          if (!matches) {
            const l = read()
            matches = l !== undefined && lineMatchesQuery(normalizeForSearch(l.text), query, l.forms === "" ? "" : normalizeForSearch(l.forms))
          }
          if (matches) {
            const parts = segment.partsOf(d)
            const part = parts.find((p) => id >= p.first && id < p.first + p.count)
            const doc = segment.view(d)
            if (part !== undefined && !f({ query, index: doc.index, path: doc.path, part, line: part.lineBase + id - part.first, read })) return false
          }
          line = cursor.advance(line + 1)
        }
      }
    }
    return stopped
  }
}

/** A line {@link GramSearcher.forEachMatch} found. */
export interface MatchedLine {
  /** The parsed query with the options' filters. */
  readonly query: SearchQuery
  readonly index: string
  readonly path: string
  readonly part: { readonly file: string; readonly locator: Locator }
  /** 0-based position of the line in its part (its TSV's body lines). */
  readonly line: number
  /** Reads the line's location and original text (once); `undefined` when its folder changed since it was indexed. */
  readonly read: () => { readonly loc: string; readonly text: string; readonly forms: string } | undefined
}
