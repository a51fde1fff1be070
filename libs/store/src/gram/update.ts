/**
 * Brings the gram index in line with the body index at the end of an
 * indexing run (SPEC R12, R16; issue 6): only source files that changed are
 * read and tokenised, into new immutable segments; replaced and removed files
 * become deletions; a merge policy keeps the segment count small; one atomic
 * manifest write makes it all visible at once, and starts a new, empty fresh
 * log (everything the old one named is in the segments now, S1).
 *
 * Sync `node:fs` here (STYLE 14): the update writes segments with the same
 * sync writers as the round (segment_builder.ts, segment_merge.ts) and reads
 * them with the cold search's Effect-free reader; its few directory calls
 * (listing for garbage, the deletion lists) go with them.
 *
 * @module
 */
import { chooseFinalMerges, decideGramCheck } from "@sagasu/domain"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import type { WorkPaths } from "../work_paths.ts"
import { type BodyFolder, docKey, isMissing, piecesCoverFolder, sourceStampOf, tsvSourcesOf, walkBodyIndex } from "./body_walk.ts"
import { freshLogName } from "./fresh_log.ts"
import { freshLogBytes, gramCheckFacts, inLineMarkName, removeInLineMark, writeInLineMark } from "./in_line_mark.ts"
import {
  GramIndexError,
  type Manifest,
  type SegmentEntry,
  emptyManifest,
  filesOfManifest,
  filesOfSegment,
  isCurrentManifest,
  manifestPath,
  readManifestSync,
  writeFileDurableSync,
  writeManifestSync
} from "./manifest.ts"
import { type WrittenSegment, DocFeed, SegmentBuilder, newestFirst } from "./segment_builder.ts"
import { mergeSteps } from "./segment_merge.ts"
import { SegmentReader } from "./segment_reader.ts"
import { clearSieves, sieveDirName } from "./sieve.ts"

/** A source file of the body index: its index and path relative to the index folder (`/`-separated). */
export interface SourceRef {
  readonly index: string
  readonly path: string
}

/** What an indexing run changed in the body index (R16): hints; the body index itself is the truth. */
export interface RoundChanges {
  /** Folders the run published (new or replaced): read again even if they look unchanged. */
  readonly published: ReadonlyArray<SourceRef>
  /** Source files the run removed from the body index. */
  readonly removed: ReadonlyArray<SourceRef>
}

/** Options of {@link updateGramIndexesOfRound} (defaults suit a PC; tests make segments tiny). */
export interface UpdateGramOptions {
  /** Start a new segment when the builder holds about this many bytes (default 384 MiB). */
  readonly builderMemoryBytes?: number
  /** The merge policy keeps at most this many segments (default 8). */
  readonly maxSegments?: number
  /** Never merge into a segment with a lines store larger than this (default 1.5 GiB; offsets are u32). */
  readonly maxSegmentTextBytes?: number
}

/** What an update did. */
export interface GramUpdateSummary {
  /** Source files read and tokenised into new segments. */
  readonly indexed: number
  /** Source files deleted from the index (removed from the body index). */
  readonly removed: number
  /** Of `indexed`, those taken from segments written while the run was ingesting ({@link openGramRound}). */
  readonly prebuilt: number
  /** Of `indexed` + `removed`, those `changes` did not mention: a repair after a run killed before R16. */
  readonly repaired: number
  /** The manifest was missing, damaged or of another format/normaliser: everything was indexed anew. */
  readonly rebuilt: boolean
  /** Merges done by the merge policy. */
  readonly merges: number
  /** Live segments and the manifest generation afterwards. */
  readonly segments: number
  readonly generation: number
}

const MiB = 1024 * 1024

/** The default of {@link UpdateGramOptions.builderMemoryBytes}. */
export const defaultBuilderMemoryBytes = 384 * MiB

// Phases of the update, for the error a failure maps to.
type Phase = "read-index" | "walk" | "write"

function toError(phase: Phase, file: string, e: unknown): GramIndexError {
  if (e instanceof GramIndexError) return e
  const reason = phase === "walk" ? "body-index-unreadable" : phase === "read-index" ? "index-unreadable" : "write-failed"
  return new GramIndexError({ reason, path: file, detail: e instanceof Error ? e.message : String(e) })
}

const attempt = <A>(phase: Phase, file: string, f: () => A) =>
  Effect.try({ try: f, catch: (e) => toError(phase, file, e) })

// Files of the gram folder no manifest names: left by a crash or by an
// earlier generation (the sieves folder stays: its files go with the fresh
// tail, sieve.ts). Removed at the start of an update (never right after a
// manifest write, so a search that read the previous manifest a moment ago
// can still open its files). Failures are ignored: a file in use on Windows
// goes next time.
export function collectGarbage(gramDir: string, manifest: Manifest | undefined, keepIds: ReadonlyArray<string> = []): void {
  const keep = new Set<string>(["manifest.json", inLineMarkName, sieveDirName])
  for (const s of manifest?.segments ?? []) for (const f of filesOfSegment(s)) keep.add(f)
  if (manifest !== undefined) for (const f of filesOfManifest(manifest)) keep.add(f)
  for (const id of keepIds) {
    for (const f of filesOfSegment({ id, docs: 0, lines: 0, textBytes: 0, deleted: "", deletedDocs: 0, deletedLines: 0 })) keep.add(f)
  }
  for (const name of fs.readdirSync(gramDir)) {
    if (keep.has(name)) continue
    try {
      fs.rmSync(path.join(gramDir, name), { force: true, recursive: true })
    } catch {
      // next time
    }
  }
}

// Lets the event loop run (a GUI's requests, worker results) between two steps of work.
export const letOthersRun = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/** Where the pieces of one source file stand in a list of segments. */
export interface DocPlace {
  readonly segment: number
  readonly doc: number
  readonly fingerprint: string
}

/** The live source files of open segments, by key: every piece of each (a big file may span segments). */
export function liveDocsOf(readers: ReadonlyArray<SegmentReader>): Map<string, Array<DocPlace>> {
  const live = new Map<string, Array<DocPlace>>()
  readers.forEach((r, segment) => {
    for (let doc = 0; doc < r.docs.length; doc++) {
      if (r.isDeleted(doc)) continue
      const key = docKey(r.docs.index(doc), r.docs.path(doc))
      const list = live.get(key)
      const place = { segment, doc, fingerprint: r.docs.fingerprint(doc) }
      if (list === undefined) live.set(key, [place])
      else list.push(place)
    }
  })
  return live
}

/**
 * Writes the deletion files of `deletions` (segment number → doc numbers to
 * add) for the segments `entries` opened as `readers`, and returns the
 * entries with them: a segment left with nothing is dropped. `generation`
 * names the files. Sync; throws on I/O errors.
 */
export function applyDeletions(
  gramDir: string,
  entries: ReadonlyArray<SegmentEntry>,
  readers: ReadonlyArray<SegmentReader>,
  deletions: ReadonlyMap<number, ReadonlySet<number>>,
  generation: number
): Array<SegmentEntry> {
  const out: Array<SegmentEntry> = []
  for (const [i, entry] of entries.entries()) {
    const added = deletions.get(i)
    const reader = readers[i]
    if (added === undefined || added.size === 0 || reader === undefined) {
      out.push(entry)
      continue
    }
    const all = new Set<number>(added)
    for (let d = 0; d < reader.docs.length; d++) if (reader.isDeleted(d)) all.add(d)
    if (all.size >= reader.docs.length) continue // nothing left: drop the segment
    const name = `${entry.id}.del-${generation}.json`
    const list = [...all].sort((a, b) => a - b)
    writeFileDurableSync(path.join(gramDir, name), JSON.stringify(list))
    const deletedLines = list.reduce((n, d) => n + reader.docs.count(d), 0)
    out.push({ ...entry, deleted: name, deletedDocs: list.length, deletedLines })
  }
  return out
}

/**
 * Updates the gram index of `paths` (the `gram/` folder) so that it indexes
 * exactly the body index (R12, R16), reading only what changed:
 *
 * 1. reads the manifest (missing, damaged or of another normaliser → rebuild);
 * 2. lists the body index and compares each source folder's fingerprint
 *    (inode, mtime, TSV names) with the one recorded in its segment — so a
 *    run killed between publish and R16 is repaired by the next update, with
 *    or without `changes`; folders in `changes.published` are read again
 *    regardless;
 * 3. writes new segments (newest files first), deletion files for replaced
 *    and removed files, merges (at most `maxSegments` segments; a segment
 *    more than half deleted is rewritten), then replaces the manifest
 *    atomically, naming a new empty fresh log.
 *
 * Fails with {@link GramIndexError}: `body-index-unreadable` (listing or a TSV
 * failed), `write-failed` (disk full, permissions), `index-unreadable` (never:
 * damage is repaired by rebuilding). On failure the previous manifest and its
 * segments are untouched, so searches keep working; files written so far
 * are removed by the next update. The caller logs a warning and goes on (R16).
 */
export const updateGramIndexesOfRound = (paths: WorkPaths, changes: RoundChanges, options: UpdateGramOptions = {}) =>
  updateGramIndexes(paths, changes, options)

/** {@link updateGramIndexesOfRound}; a round (round.ts) calls it at the end with its live segments in the manifest. */
export const updateGramIndexes = Effect.fn("Store.updateGramIndexesOfRound")(function* (
  paths: WorkPaths,
  changes: RoundChanges,
  options: UpdateGramOptions
) {
  const gramDir = paths.gram
  yield* attempt("write", gramDir, () => fs.mkdirSync(gramDir, { recursive: true }))
  const read = yield* attempt("read-index", manifestPath(gramDir), () => readManifestSync(gramDir)).pipe(
    Effect.catchAll(() => Effect.succeed(undefined))
  )
  let rebuilt = read === undefined || !isCurrentManifest(read)
  let base: Manifest = read !== undefined && !rebuilt ? read : { ...emptyManifest, generation: read?.generation ?? 0 }
  yield* attempt("write", gramDir, () => collectGarbage(gramDir, rebuilt ? undefined : base))

  // Open what the manifest names; a segment that cannot be read means rebuild.
  const readers = yield* Effect.acquireRelease(
    attempt("read-index", gramDir, () => {
      const opened: Array<SegmentReader> = []
      try {
        for (const s of base.segments) opened.push(SegmentReader.open(gramDir, s, paths.index))
      } catch (e) {
        for (const r of opened) r.close()
        throw e
      }
      return opened
    }).pipe(Effect.catchAll(() => {
      rebuilt = true
      base = { ...emptyManifest, generation: base.generation }
      return Effect.succeed([] as Array<SegmentReader>)
    })),
    (opened) => Effect.sync(() => opened.forEach((r) => r.close()))
  )

  // Issue 20: a run that changed nothing skips the walk when the last update's mark still holds.
  const check = decideGramCheck({ changes: changes.published.length + changes.removed.length, rebuild: rebuilt, ...gramCheckFacts(gramDir, base.fresh) })
  if (check._tag === "Skip") {
    return {
      indexed: 0, prebuilt: 0, removed: 0, repaired: 0, rebuilt: false, merges: 0,
      segments: base.segments.length, generation: base.generation
    } satisfies GramUpdateSummary
  }
  yield* attempt("write", gramDir, () => removeInLineMark(gramDir))

  const live = liveDocsOf(readers)
  const folders = yield* attempt("walk", paths.index, () => walkBodyIndex(paths.index))
  const mentioned = new Set<string>([...changes.published, ...changes.removed].map((c) => docKey(c.index, c.path)))
  const forced = new Set<string>(changes.published.map((c) => docKey(c.index, c.path)))
  const toIndex: Array<BodyFolder> = []
  const deletions = new Map<number, Set<number>>()
  const deleteDoc = (at: DocPlace) => {
    const set = deletions.get(at.segment) ?? new Set<number>()
    set.add(at.doc)
    deletions.set(at.segment, set)
  }
  let repaired = 0
  let removed = 0
  const seen = new Set<string>()
  for (const folder of folders) {
    const key = docKey(folder.index, folder.path)
    seen.add(key)
    const known = live.get(key)
    // Current only when every piece is of this very folder, and the pieces of a big file hold it
    // exactly once (a killed round may have left some of them: S1) — one piece alone too: a round
    // killed after its first piece went live left a file of 80,000 lines found by its first 8,121
    // through every later completed run (the chaos campaign's crash part).
    const current = known !== undefined && known.every((k) => k.fingerprint === folder.fingerprint) &&
      ((known.length === 1 && !readers[known[0]!.segment]!.docs.isPiece(known[0]!.doc)) ||
        (yield* attempt("walk", folder.dir, () => piecesCoverFolder(known.map((k) => readers[k.segment]!.docs.parts(k.doc)), folder))))
    if (current && !forced.has(key)) continue
    if (known !== undefined) known.forEach(deleteDoc)
    toIndex.push(folder)
    if (!mentioned.has(key) && !rebuilt) repaired++
  }
  for (const [key, places] of live) {
    if (seen.has(key)) continue
    places.forEach(deleteDoc)
    removed++
    if (!mentioned.has(key)) repaired++
  }
  const tailLeft = base.fresh === "" || freshLogBytes(gramDir, base.fresh) > base.freshFrom
  // A round that took every change leaves its own segments (up to 24, issue 20): past `maxSegments`
  // they are merged here, so searches after the run open no more than before.
  const tooMany = base.segments.length > (options.maxSegments ?? 8)
  if (toIndex.length === 0 && deletions.size === 0 && !rebuilt && !tailLeft && !tooMany) {
    clearSieves(path.join(gramDir, sieveDirName))
    // In line: the next update of a run that changes nothing need not walk again (a failed write costs only that walk).
    yield* attempt("write", gramDir, () => writeInLineMark(gramDir, base.fresh)).pipe(Effect.ignore)
    return {
      indexed: 0, prebuilt: 0, removed: 0, repaired: 0, rebuilt: false, merges: 0,
      segments: base.segments.length, generation: base.generation
    } satisfies GramUpdateSummary
  }

  const generation = base.generation + 1
  let serial = 0
  const nextId = () => `g${String(generation).padStart(6, "0")}-${serial++}`

  // New segments, newest files first; the first segment built holds the newest.
  toIndex.sort(newestFirst)
  const built: Array<WrittenSegment> = []
  let builder = new SegmentBuilder()
  const limit = options.builderMemoryBytes ?? defaultBuilderMemoryBytes
  let indexed = 0
  const spill = Effect.gen(function* () {
    const id = nextId()
    built.push(yield* attempt("write", path.join(gramDir, id), () => builder.write(gramDir, id)))
    builder = new SegmentBuilder()
  })
  for (const folder of toIndex) {
    const feed = new DocFeed({ index: folder.index, path: folder.path, fingerprint: folder.fingerprint, mtimeMs: folder.mtimeMs, stamp: sourceStampOf(folder.dir) }, tsvSourcesOf(folder))
    let vanished = false
    for (;;) {
      const step = yield* Effect.try({ try: () => feed.step(builder), catch: (e) => e }).pipe(Effect.either)
      if (step._tag === "Left") {
        feed.abandon(builder)
        if (isMissing(step.left)) {
          vanished = true // vanished meanwhile: the next update sees it
          break
        }
        return yield* Effect.fail(toError("walk", folder.dir, step.left))
      }
      if (!step.right) break
      if (builder.memoryBytes >= limit) {
        feed.cut(builder)
        yield* spill
      }
      yield* letOthersRun
    }
    if (!vanished) indexed++
  }
  if (builder.docCount > 0) yield* spill

  // Deletions: a new immutable file per touched segment.
  const segments = yield* attempt("write", gramDir, () => applyDeletions(gramDir, base.segments, readers, deletions, generation))
  for (const b of [...built].reverse()) segments.push({ ...b.segment, deleted: "", deletedDocs: 0, deletedLines: 0 })

  const merged = yield* applyMergePolicy(gramDir, paths.index, segments, nextId, options)
  const fresh = freshLogName(generation)
  yield* attempt("write", path.join(gramDir, fresh), () => writeFileDurableSync(path.join(gramDir, fresh), ""))
  const manifest: Manifest = { ...emptyManifest, generation, segments: merged.segments, fresh, freshFrom: 0 }
  yield* attempt("write", manifestPath(gramDir), () => writeManifestSync(gramDir, manifest))
  // What the manifest no longer names goes now, not at the next update: segments the merge policy
  // replaced (and its intermediate ones), the old fresh log. Up to 24 round segments merged down to
  // `maxSegments` left 1.2 GB of them after a 4,000-file first run (issue 20: disk). A search that
  // read the previous manifest keeps the files it has open, and one still opening them starts over
  // from the new manifest (GramSearcher.reopen).
  yield* attempt("write", gramDir, () => collectGarbage(gramDir, manifest)).pipe(Effect.ignore)
  // The fresh tail is empty: no folder needs its sieve (S2).
  clearSieves(path.join(gramDir, sieveDirName))
  yield* attempt("write", gramDir, () => writeInLineMark(gramDir, fresh)).pipe(Effect.ignore)
  return {
    indexed, prebuilt: 0, removed, repaired, rebuilt, merges: merged.merges, segments: manifest.segments.length, generation
  } satisfies GramUpdateSummary
}, Effect.scoped)

const liveLines = (s: SegmentEntry) => s.lines - s.deletedLines
const liveText = (s: SegmentEntry) => (s.lines === 0 ? 0 : s.textBytes * (liveLines(s) / s.lines))

/**
 * Merges the segments `group` (oldest first) into the new segment `id`, in
 * steps that let others run; returns its manifest entry.
 */
export const mergeGroup = (gramDir: string, indexRoot: string, group: ReadonlyArray<SegmentEntry>, id: string) =>
  Effect.acquireUseRelease(
    attempt("read-index", gramDir, () => {
      const opened: Array<SegmentReader> = []
      try {
        // Newest first: lines keep their order.
        for (const s of [...group].reverse()) opened.push(SegmentReader.open(gramDir, s, indexRoot))
      } catch (e) {
        for (const r of opened) r.close()
        throw e
      }
      return opened
    }),
    (opened) =>
      Effect.gen(function* () {
        const steps = mergeSteps(gramDir, id, opened)
        for (;;) {
          const step = yield* attempt("write", path.join(gramDir, id), () => steps.next())
          if (step.done === true) return step.value
          yield* letOthersRun
        }
      }),
    (opened) => Effect.sync(() => opened.forEach((r) => r.close()))
  ).pipe(Effect.map((b): SegmentEntry => ({ ...b.segment, deleted: "", deletedDocs: 0, deletedLines: 0 })))

/**
 * The merge policy: a segment more than half deleted is rewritten alone;
 * then, past `maxSegments`, the runs of neighbours domain
 * `chooseFinalMerges` picks (the fewest lines rewritten; neighbours only, so
 * "newest first" order survives), each merged in one pass; were none to fit
 * `maxSegmentTextBytes`, the two neighbours with the fewest live lines,
 * again and again. Returns the new list, oldest first.
 */
const applyMergePolicy = (
  gramDir: string,
  indexRoot: string,
  input: ReadonlyArray<SegmentEntry>,
  nextId: () => string,
  options: UpdateGramOptions
) =>
  Effect.gen(function* () {
    const maxSegments = options.maxSegments ?? 8
    const maxText = options.maxSegmentTextBytes ?? 1536 * MiB
    const segments = [...input]
    let merges = 0
    for (let i = 0; i < segments.length; i++) {
      const s = segments[i]!
      if (s.deletedLines * 2 > s.lines) {
        segments[i] = yield* mergeGroup(gramDir, indexRoot, [s], nextId())
        merges++
      }
    }
    // Down to `maxSegments`: the cheapest runs of neighbours, each merged once (issue 20); pairs
    // only when no cut fits `maxText`.
    const runs = chooseFinalMerges(segments.map(liveLines), segments.map(liveText), maxSegments, maxText)
    for (const run of [...runs].reverse()) {
      const m = yield* mergeGroup(gramDir, indexRoot, segments.slice(run.start, run.start + run.count), nextId())
      segments.splice(run.start, run.count, m)
      merges++
    }
    while (segments.length > maxSegments) {
      let best = -1
      let bestSize = Infinity
      for (let i = 0; i + 1 < segments.length; i++) {
        const a = segments[i]!
        const b = segments[i + 1]!
        if (liveText(a) + liveText(b) > maxText) continue
        const size = liveLines(a) + liveLines(b)
        if (size < bestSize) {
          best = i
          bestSize = size
        }
      }
      if (best < 0) break
      const m = yield* mergeGroup(gramDir, indexRoot, [segments[best]!, segments[best + 1]!], nextId())
      segments.splice(best, 2, m)
      merges++
    }
    return { segments, merges }
  })
