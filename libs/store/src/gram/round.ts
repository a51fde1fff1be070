/**
 * The 2-gram round: R16 overlapped with ingesting, and the fresh tail kept
 * short (S1). An indexing run opens a round when it starts handing files to
 * the workers; the commander notes every folder it publishes or removes in
 * the fresh log (fresh.ts) and pings the round, which reads the log's new
 * entries, tokenises the folders on the commander's thread in steps of a
 * few milliseconds (results and a GUI's requests get their turn between
 * them), and every `flushIntervalMs` (or when its builder is full) writes
 * what it built as a segment and replaces the manifest: the segment is live,
 * older versions of its files are deleted, and `freshFrom` moves past the
 * entries it covers. So a search sees a published file at once through the
 * fresh tail, and within seconds through a segment.
 *
 * Small segments are merged as the round goes (four of a size into one, in
 * steps), so a long first run keeps a bounded number of them (24 by
 * default). At the end of a completed run {@link GramRound.finish} catches
 * up and runs the usual
 * update (fingerprint walk, merge policy, a new empty log). A run that will
 * not finish (stopped, a folder lost, an error) calls {@link GramRound.close}:
 * what was built is made live, the rest stays in the tail — a stop never
 * hides a published file (S1); it only skips the final merge (R16).
 *
 * A killed run leaves a manifest that names what was flushed and a tail
 * naming the rest, so the next process finds everything; files written and
 * never named are removed by the next update's garbage collection. Only the
 * commander writes (W1).
 *
 * Sync `node:fs` here (STYLE 14): the round tokenises and writes on the
 * commander's thread in steps of a few milliseconds (docs/benchmarks.md
 * "2-gram"), with the Effect-free readers and writers of the gram index; a
 * segment's pieces are written in 8 MiB steps.
 *
 * @module
 */
import { chooseRoundMerge } from "@sagasu/domain"
import { Clock, Duration, Effect, Fiber, Queue, type Scope } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import type { WorkPaths } from "../work_paths.ts"
import { bodyFolderAt, docKey, isMissing, piecesCoverFolder, sourceStampOf, stagedFolderAt, tsvSourcesOf } from "./body_walk.ts"
import { ensureFreshLogSync } from "./fresh.ts"
import { type FreshEntry, readFreshTailSync } from "./fresh_log.ts"
import {
  GramIndexError,
  type Manifest,
  type SegmentEntry,
  filesOfSegment,
  isCurrentManifest,
  writeAllSync,
  writeManifestSync
} from "./manifest.ts"
import { DocFeed, SegmentBuilder, type SegmentFile, type WrittenSegment } from "./segment_builder.ts"
import { SegmentReader } from "./segment_reader.ts"
import { removeFolderSieves, sieveDirName } from "./sieve.ts"
import {
  type GramUpdateSummary,
  type RoundChanges,
  type UpdateGramOptions,
  applyDeletions,
  collectGarbage,
  letOthersRun,
  mergeGroup,
  updateGramIndexes
} from "./update.ts"

/** An open round; see the module doc. */
export interface GramRound {
  /**
   * The changes noted in the fresh log so far are done (the folders are
   * published or removed): build them in the background. The round never
   * reads an entry before it is told so, because the note comes before the
   * change it names.
   */
  readonly noted: Effect.Effect<void>
  /**
   * {@link noted} from another thread: the log's changes up to byte
   * `logBytes` are done (the size the commander read right after them; the
   * round cannot read it itself later, by then newer notes may name changes
   * not yet made).
   */
  readonly notedUpTo: (logBytes: number) => Effect.Effect<void>
  /** The fresh log the round reads (its path), or undefined when the round only waits for {@link finish}. */
  readonly freshLog: string | undefined
  /**
   * R16: finishes what was noted and brings the gram index in line with the
   * body index, like `updateGramIndexesOfRound(paths, changes)`. Call once,
   * after the last publish.
   */
  readonly finish: (changes: RoundChanges) => Effect.Effect<GramUpdateSummary, GramIndexError>
  /** Stops the background work and makes what it built live; the rest stays in the fresh tail (also done when the scope closes, unless finished). */
  readonly close: Effect.Effect<void>
  /**
   * Waits until everything noted so far is in live segments (the manifest's
   * `freshFrom` at the log's end), or the round stopped or failed. For tests
   * and benchmarks; a run never waits for it.
   */
  readonly awaitLive: Effect.Effect<void>
}

/** Options of {@link openGramRound}: the final update's, and how fresh the segments are kept. */
export interface GramRoundOptions extends UpdateGramOptions {
  /** Make what was built live at most this long after the first file of it was noted (default 2,000 ms). */
  readonly flushIntervalMs?: number
  /** Merge this many neighbouring round segments of one size class into one (default 4; domain `chooseRoundMerge`). */
  readonly mergeFactor?: number
  /** Past this many round segments, merge the `mergeFactor` neighbours with the fewest lines whatever their sizes (default 6 × `mergeFactor`). */
  readonly maxRoundSegments?: number
  /** Make what was built live once it holds this many bytes of TSV rows (default 16 MiB: the tail a search reads stays short). */
  readonly flushTextBytes?: number
  /**
   * Called as the round reads the log, with the byte offset up to which it
   * has taken every entry in (at most every 50 ms, and at each flush): the
   * commander paces its hand-over by it (issue 13: a round that falls
   * behind would let the fresh tail, which every search reads whole, grow).
   */
  readonly onProgress?: (consumedTo: number) => void
}

const MiB = 1024 * 1024

/** The round's builder budget when the options do not set one: small, so that the whole run stays small (issue 20). */
export const defaultRoundBuilderBytes = 96 * MiB

// Bytes written between two steps (page-cache writes of a few milliseconds).
const WRITE_PIECE = 8 * 1024 * 1024

// Segments a merge replaced are removed this long after (a search that read the previous manifest may still open them).
const RETIRE_AFTER_MS = 30_000

/**
 * Opens a round for the gram folder of `paths` (see the module doc). The
 * work folder must have a current manifest with a fresh log (`ensureFreshLog`,
 * which the run calls first); without one the round only waits for
 * {@link GramRound.finish}. The round's background fiber lives in the scope.
 */
export const openGramRound = (
  paths: WorkPaths,
  options: GramRoundOptions = {}
): Effect.Effect<GramRound, never, Scope.Scope> =>
  Effect.gen(function* () {
    const gramDir = paths.gram
    const sieveDir = path.join(gramDir, sieveDirName)
    const limit = options.builderMemoryBytes ?? defaultRoundBuilderBytes
    const flushInterval = options.flushIntervalMs ?? 2000
    const flushText = options.flushTextBytes ?? 16 * MiB
    // Tells the commander how far the round has read (issue 13), at most every 50 ms.
    let progressAt = -Infinity
    const reportProgress = (now: number) => {
      if (options.onProgress === undefined || now - progressAt < 50) return
      progressAt = now
      options.onProgress(state.pos)
    }
    const factor = Math.max(2, options.mergeFactor ?? 4)
    const maxOwn = Math.max(factor, options.maxRoundSegments ?? 6 * factor)
    let manifest: Manifest | undefined
    try {
      // A work folder without a current manifest gets one whose tail names the whole body index.
      const read = ensureFreshLogSync(gramDir, paths.index)
      if (isCurrentManifest(read) && read.fresh !== "") {
        manifest = read
        collectGarbage(gramDir, read)
      }
    } catch {
      // Cannot be written (disk full, permissions): the final update reports it.
    }

    const attempt = <A>(reason: "body-index-unreadable" | "write-failed" | "index-unreadable", file: string, f: () => A) =>
      Effect.try({
        try: f,
        catch: (e) =>
          e instanceof GramIndexError ? e : new GramIndexError({ reason, path: file, detail: e instanceof Error ? e.message : String(e) })
      })

    // Open readers of the manifest's segments, by id, and every live piece of every source file.
    const readers = new Map<string, SegmentReader>()
    const live = new Map<string, Array<{ readonly id: string; readonly doc: number; readonly fingerprint: string }>>()
    const addLive = (id: string, reader: SegmentReader) => {
      for (let d = 0; d < reader.docs.length; d++) {
        if (reader.isDeleted(d)) continue
        const key = docKey(reader.docs.index(d), reader.docs.path(d))
        const place = { id, doc: d, fingerprint: reader.docs.fingerprint(d) }
        const list = live.get(key)
        if (list === undefined) live.set(key, [place])
        else list.push(place)
      }
    }
    const dropLive = (ids: ReadonlySet<string>) => {
      for (const [key, list] of live) {
        const kept = list.filter((p) => !ids.has(p.id))
        if (kept.length === 0) live.delete(key)
        else if (kept.length !== list.length) live.set(key, kept)
      }
    }
    const openReader = (entry: SegmentEntry) =>
      attempt("index-unreadable", path.join(gramDir, entry.id), () => SegmentReader.open(gramDir, entry, paths.index))
    const closeAll = () => {
      for (const r of readers.values()) r.close()
      readers.clear()
      live.clear()
    }

    const state = {
      failed: manifest === undefined,
      closed: false,
      builder: new SegmentBuilder(),
      // The feed under way.
      feed: undefined as { readonly feed: DocFeed; readonly key: string } | undefined,
      // Fingerprints of the versions fed into the builder since the last flush, by key (a second
      // version of a file waits for a flush first).
      builderKeys: new Map<string, string>(),
      // Pieces of the feed under way already in live segments, and pieces of abandoned feeds, which go
      // at the next flush whatever their fingerprint.
      feedPieces: [] as Array<{ readonly id: string; readonly doc: number }>,
      doomedPieces: [] as Array<{ readonly id: string; readonly doc: number }>,
      // Keys whose entries were consumed since the last flush, with the fingerprint of their current
      // version (`null`: removed): every other version of them goes at the flush.
      consumed: new Map<string, string | null>(),
      // Every key this round consumed, with the fingerprint of the version it indexed (`null`:
      // removed): the final update need not read those folders again (issue 20).
      indexed: new Map<string, string | null>(),
      // Keys a removal of this round took something out of (live pieces, or a version it fed): the
      // log's 削除 counts those — a failed new file's removal takes out nothing (a first run of the
      // corpus said 削除 25 for its 25 failed files).
      tookOut: new Set<string>(),
      // How far the log was consumed (entries done) and read.
      pos: manifest?.freshFrom ?? 0,
      queue: [] as Array<{ readonly entry: FreshEntry; readonly start: number; readonly end: number }>,
      readTo: manifest?.freshFrom ?? 0,
      // How far the log holds changes that are done: what was there at open (a previous run's), then
      // what the commander says at each ping.
      safeTo: 0,
      // When the first unflushed work was done (ms), or undefined.
      dirtySince: undefined as number | undefined,
      // Segments of this round (ids), newest last; and replaced ones to remove later.
      own: [] as Array<string>,
      retired: [] as Array<{ readonly files: ReadonlyArray<string>; readonly at: number }>,
      serial: 0,
      built: 0
    }
    if (manifest !== undefined) {
      const opened = yield* Effect.forEach(manifest.segments, (s) => openReader(s).pipe(Effect.map((r) => [s.id, r] as const))).pipe(Effect.either)
      if (opened._tag === "Left") state.failed = true
      else for (const [id, r] of opened.right) {
        readers.set(id, r)
        addLive(id, r)
      }
    }
    const prefix = `r${process.pid}-${Date.now().toString(36)}-`
    const logSize = () => (manifest === undefined ? 0 : fs.statSync(path.join(gramDir, manifest.fresh), { throwIfNoEntry: false })?.size ?? 0)
    state.safeTo = logSize()

    // A segment file written in pieces between which others run, flushed to disk by the thread pool.
    const writeDurably = (file: SegmentFile) =>
      Effect.acquireUseRelease(
        attempt("write-failed", path.join(gramDir, file.name), () => fs.openSync(path.join(gramDir, file.name), "w")),
        (fd) =>
          Effect.gen(function* () {
            const pieces = typeof file.data === "string" ? [new TextEncoder().encode(file.data)] : file.data
            for (const piece of pieces) {
              for (let at = 0; at < piece.length; at += WRITE_PIECE) {
                yield* attempt("write-failed", file.name, () => writeAllSync(fd, piece.subarray(at, at + WRITE_PIECE)))
                yield* letOthersRun
              }
            }
            yield* Effect.uninterruptible(
              Effect.async<void, GramIndexError>((resume) =>
                fs.fsync(fd, (e) =>
                  resume(e === null ? Effect.void : Effect.fail(new GramIndexError({ reason: "write-failed", path: file.name, detail: e.message })))
                )
              )
            )
          }),
        (fd) => Effect.sync(() => fs.closeSync(fd))
      )

    const writeBuilder = (id: string) =>
      Effect.gen(function* () {
        const steps = state.builder.segmentSteps(id)
        for (;;) {
          const step = yield* attempt("write-failed", path.join(gramDir, id), () => steps.next())
          if (step.done === true) return step.value
          if (step.value !== undefined) yield* writeDurably(step.value)
          yield* letOthersRun
        }
      })

    const replaceManifest = (next: Manifest) => attempt("write-failed", gramDir, () => writeManifestSync(gramDir, next))

    const removeRetired = (now: number, all: boolean) => {
      state.retired = state.retired.filter((r) => {
        if (!all && now - r.at < RETIRE_AFTER_MS) return true
        for (const f of r.files) {
          try {
            fs.rmSync(path.join(gramDir, f), { force: true })
          } catch {
            // the next update's garbage collection
          }
        }
        return false
      })
    }

    // Makes what the builder holds live, deletes the older versions of what was consumed, and
    // moves freshFrom to `state.pos` (R16 live, S1).
    const flush = Effect.gen(function* () {
      if (manifest === undefined) return
      let written: WrittenSegment | undefined
      if (state.builder.docCount > 0) written = yield* writeBuilder(`${prefix}${state.serial++}`)
      // From here to the end the manifest and what the round knows of it change together.
      yield* Effect.uninterruptible(
        Effect.gen(function* () {
          const m: Manifest = manifest!
          const generation = m.generation + 1
          // Every version of a consumed file but its current one goes (the pieces of the current
          // version already live, a file spanning segments, share its fingerprint and stay).
          const doomed = new Map<string, Set<number>>()
          for (const p of state.doomedPieces) {
            const set = doomed.get(p.id) ?? new Set<number>()
            set.add(p.doc)
            doomed.set(p.id, set)
          }
          for (const [key, current] of state.consumed) {
            for (const p of live.get(key) ?? []) {
              if (current !== null && p.fingerprint === current) continue
              const set = doomed.get(p.id) ?? new Set<number>()
              set.add(p.doc)
              doomed.set(p.id, set)
            }
          }
          const entries = m.segments
          const byIndex = new Map<number, Set<number>>()
          entries.forEach((e, i) => {
            const set = doomed.get(e.id)
            if (set !== undefined) byIndex.set(i, set)
          })
          const list = entries.map((e) => readers.get(e.id)!)
          const kept = yield* attempt("write-failed", gramDir, () => applyDeletions(gramDir, entries, list, byIndex, generation))
          const segments = written === undefined ? kept : [...kept, { ...written.segment, deleted: "", deletedDocs: 0, deletedLines: 0 }]
          const next: Manifest = { ...m, generation, segments, freshFrom: state.pos }
          yield* replaceManifest(next)
          manifest = next
          // Readers follow the manifest: changed ones reopened, dropped ones closed.
          const changed = new Set<string>()
          for (const e of entries) {
            const after = segments.find((x) => x.id === e.id)
            if (after === undefined || after.deleted !== e.deleted) changed.add(e.id)
          }
          dropLive(changed)
          for (const id of changed) {
            readers.get(id)?.close()
            readers.delete(id)
          }
          for (const x of segments) {
            if (readers.has(x.id)) continue
            const r = yield* openReader(x)
            readers.set(x.id, r)
            addLive(x.id, r)
          }
          const now = yield* Clock.currentTimeMillis
          for (const e of entries) if (!segments.some((x) => x.id === e.id)) state.retired.push({ files: filesOfSegment(e), at: now })
          if (written !== undefined) {
            state.own.push(written.segment.id)
            const feeding = state.feed?.key
            if (feeding !== undefined) {
              for (const p of live.get(feeding) ?? []) if (p.id === written.segment.id) state.feedPieces.push(p)
            }
          }
          // S2: a folder live in a segment is searched there; its sieve is of no more use.
          removeFolderSieves(sieveDir, [...state.consumed.values()].filter((f) => f !== null))
          state.doomedPieces = []
          state.consumed.clear()
          state.builderKeys.clear()
          state.builder = new SegmentBuilder()
          state.dirtySince = undefined
          removeRetired(now, false)
        })
      )
      // A feed under way has pieces in live segments: a merge would give them new numbers.
      if (state.feed === undefined) yield* mergeOwn
    })

    // Merges the round's own segments (the newest, contiguous at the manifest's end) by size class:
    // `factor` neighbours of one level into one, past `maxOwn` the window with the fewest live lines
    // (domain `chooseRoundMerge`), so each line is rewritten about log_factor(n) times over a run.
    const mergeOwn = Effect.gen(function* () {
      for (;;) {
        if (manifest === undefined) return
        const m: Manifest = manifest
        const start = m.segments.findIndex((s) => state.own.includes(s.id))
        if (start < 0) return
        const own = m.segments.slice(start)
        if (!own.every((s) => state.own.includes(s.id))) return
        const best = chooseRoundMerge(own.map((s) => s.lines - s.deletedLines), factor, maxOwn)
        if (best === undefined) return
        const members = own.slice(best, best + factor)
        const merged = yield* mergeGroup(gramDir, paths.index, members, `${prefix}${state.serial++}`)
        yield* Effect.uninterruptible(
          Effect.gen(function* () {
            const at = start + best
            const segments = [...m.segments.slice(0, at), merged, ...m.segments.slice(at + members.length)]
            const next: Manifest = { ...m, generation: m.generation + 1, segments }
            yield* replaceManifest(next)
            manifest = next
            const ids = new Set(members.map((g) => g.id))
            dropLive(ids)
            for (const x of ids) {
              readers.get(x)?.close()
              readers.delete(x)
            }
            const r = yield* openReader(merged)
            readers.set(merged.id, r)
            addLive(merged.id, r)
            state.own = [...state.own.filter((o) => !ids.has(o)), merged.id]
            const now = yield* Clock.currentTimeMillis
            for (const g of members) state.retired.push({ files: filesOfSegment(g), at: now })
          })
        )
      }
    })

    const markDirty = Effect.gen(function* () {
      if (state.dirtySince === undefined) state.dirtySince = yield* Clock.currentTimeMillis
    })

    const flushIfDue = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const due = state.dirtySince !== undefined && now - state.dirtySince >= flushInterval
      if (due || state.builder.memoryBytes >= limit || state.builder.textBytes >= flushText) {
        state.feed?.feed.cut(state.builder)
        yield* flush
      }
    })

    // Reads the log's new entries into the queue.
    const readNew = Effect.gen(function* () {
      if (manifest === undefined) return
      const tail = yield* attempt("index-unreadable", path.join(gramDir, manifest.fresh), () => readFreshTailSync(gramDir, manifest!.fresh, state.readTo, state.safeTo))
      if (tail === undefined) return
      let start = state.readTo
      tail.entries.forEach((entry, i) => {
        const end = tail.ends[i] ?? start
        state.queue.push({ entry, start, end })
        start = end
      })
      state.readTo = tail.end
    })

    // Consumes one queued entry: a publish (or a done file's staged folder) is fed block by block,
    // cut and flushed when due; a folder that is already live under its fingerprint (staged, then
    // published by a rename) is not read again.
    const consume = (item: { readonly entry: FreshEntry; readonly start: number; readonly end: number }) =>
      Effect.gen(function* () {
        const { entry } = item
        const key = docKey(entry.index, entry.path)
        if (entry.op === "-") {
          if ((live.get(key)?.length ?? 0) > 0 || state.builderKeys.has(key) || typeof state.indexed.get(key) === "string") state.tookOut.add(key)
          if (state.builderKeys.has(key)) yield* flush
          state.consumed.set(key, null)
          state.indexed.set(key, null)
          yield* markDirty
          state.pos = item.end
          return
        }
        const folder = yield* attempt("body-index-unreadable", paths.index, () =>
          entry.op === "+"
            ? bodyFolderAt(paths.index, entry.index, entry.path)
            : stagedFolderAt(paths.root, entry.index, entry.path, entry.staging ?? ""))
        if (folder === undefined) {
          // Gone meanwhile (a staged folder published, a folder removed): a later entry says what came of it.
          yield* markDirty
          state.pos = item.end
          return
        }
        const livePlaces = () => (live.get(key) ?? []).filter((p) => !state.doomedPieces.some((x) => x.id === p.id && x.doc === p.doc))
        const places = livePlaces()
        // Live already when its pieces are of this very folder and hold all of it: a round killed
        // while it read the file left only its first pieces (S1).
        const whole = places.length > 0 && places.every((p) => p.fingerprint === folder.fingerprint) &&
          (yield* attempt("body-index-unreadable", folder.dir, () => piecesCoverFolder(places.map((p) => readers.get(p.id)!.docs.parts(p.doc)), folder)))
        const known = state.builderKeys.get(key) ?? (whole ? folder.fingerprint : undefined)
        if (known === folder.fingerprint) {
          state.consumed.set(key, folder.fingerprint)
          state.indexed.set(key, folder.fingerprint)
          yield* markDirty
          state.pos = item.end
          return
        }
        // A second version of a file in one builder would be found twice: make the first live first.
        if (state.builderKeys.has(key)) yield* flush
        // Pieces of this version left live by a killed round go with the older versions at the next
        // flush; kept, their lines would be found twice once this feed is live (S1).
        for (const p of livePlaces()) if (p.fingerprint === folder.fingerprint) state.doomedPieces.push({ id: p.id, doc: p.doc })
        const staging = entry.op === "~" ? (entry.staging ?? "") : ""
        const feed = new DocFeed({ index: folder.index, path: folder.path, fingerprint: folder.fingerprint, mtimeMs: folder.mtimeMs, staging, stamp: sourceStampOf(folder.dir) }, tsvSourcesOf(folder))
        state.feed = { feed, key }
        state.feedPieces = []
        state.builderKeys.set(key, folder.fingerprint)
        yield* markDirty
        for (;;) {
          const step = yield* Effect.try({ try: () => feed.step(state.builder), catch: (e) => e }).pipe(Effect.either)
          if (step._tag === "Left") {
            abandonFeed()
            if (!isMissing(step.left)) {
              return yield* Effect.fail(new GramIndexError({ reason: "body-index-unreadable", path: folder.dir, detail: String(step.left) }))
            }
            // Replaced, published or removed meanwhile: a later entry names what came of it.
            yield* markDirty
            state.pos = item.end
            return
          }
          if (!step.right) break
          yield* flushIfDue
          yield* letOthersRun
        }
        state.feed = undefined
        state.feedPieces = []
        state.built++
        state.consumed.set(key, folder.fingerprint)
        state.indexed.set(key, folder.fingerprint)
        // A flush during the feed made its earlier pieces live; this one makes the end of it live.
        yield* markDirty
        state.pos = item.end
      })

    // The feed under way is dropped: its lines leave the builder, its pieces in live segments become
    // an older version (the entry is still in the tail, and is consumed again).
    const abandonFeed = () => {
      const f = state.feed
      if (f === undefined) return
      f.feed.abandon(state.builder)
      // Its pieces in live segments are incomplete: they go at the next flush (the entry is consumed again or later).
      state.doomedPieces.push(...state.feedPieces)
      state.feedPieces = []
      state.builderKeys.delete(f.key)
      state.feed = undefined
    }

    const pings = yield* Queue.sliding<void>(1)
    const work = Effect.gen(function* () {
      for (;;) {
        yield* readNew
        const item = state.queue.shift()
        if (item !== undefined) {
          yield* consume(item)
          reportProgress(yield* Clock.currentTimeMillis)
          yield* flushIfDue
          yield* letOthersRun
          continue
        }
        // Nothing queued: say how far it got before it waits (a commander pacing on it must hear).
        progressAt = -Infinity
        reportProgress(0)
        if (state.dirtySince !== undefined) {
          const now = yield* Clock.currentTimeMillis
          const wait = Math.max(0, flushInterval - (now - state.dirtySince))
          if (wait === 0) {
            yield* flush
            continue
          }
          yield* Queue.take(pings).pipe(Effect.timeoutTo({ duration: Duration.millis(wait), onTimeout: () => undefined, onSuccess: () => undefined }))
        } else {
          yield* Queue.take(pings)
        }
      }
    })

    let fiber: Fiber.RuntimeFiber<void> | undefined
    const failRound = Effect.sync(() => {
      state.failed = true
      abandonFeed()
      // A failed round reads no more: nothing must wait for it (the final update does it all).
      options.onProgress?.(Number.MAX_SAFE_INTEGER)
    })
    if (!state.failed) {
      fiber = yield* Effect.forkScoped(work.pipe(Effect.catchAll(() => failRound)))
    }

    // Stops the background work and makes the complete part of what was built live.
    const stopWork = Effect.gen(function* () {
      if (fiber !== undefined) {
        yield* Fiber.interrupt(fiber)
        fiber = undefined
      }
      abandonFeed()
      // What was read but not consumed is read again.
      state.queue = []
      state.readTo = state.pos
    })

    const close = Effect.gen(function* () {
      if (state.closed) return
      state.closed = true
      yield* stopWork
      if (!state.failed && (state.builder.docCount > 0 || state.consumed.size > 0 || state.doomedPieces.length > 0)) {
        yield* flush.pipe(Effect.catchAll(() => Effect.void))
      }
      removeRetired(0, true)
      closeAll()
    })
    yield* Effect.addFinalizer(() => close)

    const finish = (changes: RoundChanges) =>
      Effect.gen(function* () {
        if (!state.failed && !state.closed) {
          // Catch up: what is left in the log (every change is done now), then make it live.
          yield* stopWork
          state.safeTo = logSize()
          const drained = yield* Effect.gen(function* () {
            yield* readNew
            for (let item = state.queue.shift(); item !== undefined; item = state.queue.shift()) {
              yield* consume(item)
              if (state.builder.memoryBytes >= limit) yield* flush
            }
            yield* flush
          }).pipe(Effect.either)
          if (drained._tag === "Left") state.failed = true
        }
        state.closed = true
        removeRetired(0, true)
        closeAll()
        // A folder the round indexed is current in its segments under the fingerprint it read: the
        // update's fingerprint walk checks that, so it is not forced to read it again (issue 20: it
        // read every published file a second time). Its builder keeps the round's budget.
        const published = state.failed
          ? changes.published
          : changes.published.filter((c) => typeof state.indexed.get(docKey(c.index, c.path)) !== "string")
        const summary = yield* updateGramIndexes(paths, { ...changes, published }, { ...options, builderMemoryBytes: limit })
        // The files this round took out (its removals are live already, so the update found none of them):
        // counted with the update's own, as its `indexed` counts the round's (the log's 削除 said 0).
        let removedByRound = 0
        if (!state.failed) for (const [key, version] of state.indexed) if (version === null && state.tookOut.has(key)) removedByRound++
        return {
          ...summary,
          prebuilt: state.failed ? 0 : state.built,
          indexed: summary.indexed + (state.failed ? 0 : state.built),
          removed: summary.removed + removedByRound
        }
      })

    const notedUpTo = (logBytes: number) =>
      Effect.suspend(() => {
        state.safeTo = Math.max(state.safeTo, logBytes)
        return Queue.offer(pings, undefined)
      }).pipe(Effect.asVoid)
    const noted = Effect.suspend(() => notedUpTo(logSize()))

    const awaitLive = Effect.gen(function* () {
      if (manifest === undefined) return
      const logEnd = logSize()
      yield* noted
      while (!state.failed && !state.closed && fiber !== undefined && (state.pos < logEnd || state.dirtySince !== undefined)) {
        yield* Effect.sleep(Duration.millis(5))
      }
    })

    return {
      noted,
      notedUpTo,
      freshLog: manifest === undefined ? undefined : path.join(gramDir, manifest.fresh),
      finish,
      close,
      awaitLive
    } satisfies GramRound
  })
