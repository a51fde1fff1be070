/**
 * The 2-gram update overlapped with ingesting (R16; issue 9). An indexing
 * run opens a round when it starts handing files to the workers and tells it
 * of every folder it publishes; the round reads that folder's TSVs and
 * tokenises them on the commander's thread while the workers extract (the
 * thread is idle about half the time then), in steps of a few milliseconds
 * so that results and a GUI's requests still get their turn. A segment that
 * reaches the memory budget is written to the gram folder at once, named by
 * no manifest. At the end of a run that was neither stopped nor lost a
 * folder, {@link GramRound.finish} writes the last segment and runs the
 * usual update, which takes these segments as the newest ones for every
 * source file whose folder is still the one that was read (else it reads
 * the folder again), so only the merge and the manifest write are left.
 *
 * Nothing a round writes is visible before that manifest write: a run that
 * is stopped, loses a folder or fails discards the round's files (the scope
 * closing does it), and a killed run leaves them to the garbage collection
 * of the next update, which also repairs what the killed run published
 * (per-folder fingerprints). Only the commander writes (W1).
 *
 * @module
 */
import { Deferred, Effect, Fiber, Queue, type Scope } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import type { WorkPaths } from "../work_folder.ts"
import { bodyFolderAt, readBodyTsvs } from "./body_walk.ts"
import { GramIndexError, isCurrentManifest, readManifestSync, writeAllSync } from "./manifest.ts"
import { SegmentBuilder, type SegmentFile, type WrittenSegment } from "./segment_builder.ts"
import {
  type GramUpdateSummary,
  type RoundChanges,
  type SourceRef,
  type UpdateGramOptions,
  collectGarbage,
  defaultBuilderMemoryBytes,
  updateGramIndexes
} from "./update.ts"

/** An open round; see the module doc. */
export interface GramRound {
  /** A folder of the body index was published: its grams are built in the background. */
  readonly published: (ref: SourceRef) => Effect.Effect<void>
  /**
   * R16: finishes what was built meanwhile and brings the gram index in line
   * with the body index, like `updateGramIndexesOfRound(paths, changes)`.
   * Call once, after the last publish. When the background work failed, its
   * segments are dropped and everything is read here.
   */
  readonly finish: (changes: RoundChanges) => Effect.Effect<GramUpdateSummary, GramIndexError>
  /** Stops the background work and removes what it wrote (also done when the scope closes, unless finished). */
  readonly discard: Effect.Effect<void>
  /**
   * Waits until every folder told so far has been read into the round (or the round failed,
   * finished or was discarded): what a test waits for instead of a time (issue 15).
   */
  readonly settled: Effect.Effect<void>
}

// Lets the event loop run (worker results, a GUI's requests) between two steps of work.
const letOthersRun = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

const segmentExtensions = [".docs.json", ".dict", ".dix", ".post", ".text", ".offs"]

// Bytes written between two steps (page-cache writes of a few milliseconds).
const WRITE_PIECE = 8 * 1024 * 1024

/**
 * Opens a round for the gram folder of `paths` (see the module doc); the
 * options are those of the final update (`builderMemoryBytes` bounds what
 * the round holds in memory). Removes the files a killed run left in the
 * gram folder. The round's background fiber lives in the scope.
 */
export const openGramRound = (
  paths: WorkPaths,
  options: UpdateGramOptions = {}
): Effect.Effect<GramRound, never, Scope.Scope> =>
  Effect.gen(function* () {
    const gramDir = paths.gram
    const limit = options.builderMemoryBytes ?? defaultBuilderMemoryBytes
    let generation = 0
    try {
      const manifest = readManifestSync(gramDir)
      if (manifest !== undefined && isCurrentManifest(manifest)) {
        generation = manifest.generation
        collectGarbage(gramDir, manifest)
      }
    } catch {
      // Damaged: the final update rebuilds and collects.
    }
    // Named apart from the final update's `g<generation>-<n>` segments.
    const prefix = `g${String(generation + 1).padStart(6, "0")}-p${process.pid}-`
    const state = {
      builder: new SegmentBuilder(),
      written: [] as Array<WrittenSegment>,
      // Every segment begun, written or not.
      ids: [] as Array<string>,
      failed: false,
      // Finished (its segments are in a manifest or were handed to the update) or discarded.
      closed: false
    }
    const removeFiles = () => {
      for (const id of state.ids) {
        for (const ext of segmentExtensions) {
          try {
            fs.rmSync(path.join(gramDir, id + ext), { force: true })
          } catch {
            // left to the next update's garbage collection
          }
        }
      }
      state.ids = []
      state.written = []
      state.builder = new SegmentBuilder()
    }

    const attempt = <A>(reason: "body-index-unreadable" | "write-failed", file: string, f: () => A) =>
      Effect.try({
        try: f,
        catch: (e) =>
          e instanceof GramIndexError ? e : new GramIndexError({ reason, path: file, detail: e instanceof Error ? e.message : String(e) })
      })

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

    const spill = Effect.gen(function* () {
      const id = `${prefix}${state.ids.length}`
      state.ids.push(id)
      yield* attempt("write-failed", gramDir, () => fs.mkdirSync(gramDir, { recursive: true }))
      const steps = state.builder.segmentSteps(id)
      for (;;) {
        const step = yield* attempt("write-failed", path.join(gramDir, id), () => steps.next())
        if (step.done === true) {
          state.written.push(step.value)
          break
        }
        if (step.value !== undefined) yield* writeDurably(step.value)
        yield* letOthersRun
      }
      state.builder = new SegmentBuilder()
    })

    const feed = (ref: SourceRef) =>
      Effect.gen(function* () {
        const folder = yield* attempt("body-index-unreadable", paths.index, () => bodyFolderAt(paths.index, ref.index, ref.path))
        if (folder === undefined) return // nothing to read (no TSV, or gone): the final update sees it
        const tsvs = yield* attempt("body-index-unreadable", folder.dir, () => readBodyTsvs(folder))
        if (tsvs === undefined) return
        const doc = { index: folder.index, path: folder.path, fingerprint: folder.fingerprint, mtimeMs: folder.mtimeMs }
        const steps = state.builder.feedDoc(doc, tsvs)
        for (;;) {
          const step = yield* attempt("write-failed", folder.dir, () => steps.next())
          if (step.done === true) break
          yield* letOthersRun
        }
        if (state.builder.memoryBytes >= limit) yield* spill
      })

    // A folder to read, the end (undefined), or a marker completed once everything before it was read.
    const queue = yield* Queue.unbounded<SourceRef | undefined | Deferred.Deferred<void>>()
    const done = yield* Deferred.make<void>()
    let fiber: Fiber.RuntimeFiber<void> | undefined
    const discard = Effect.gen(function* () {
      if (state.closed) return
      state.closed = true
      if (fiber !== undefined) yield* Fiber.interrupt(fiber)
      yield* Deferred.succeed(done, undefined)
      removeFiles()
    })
    // Runs after the fiber below is interrupted (finalizers run last added first).
    yield* Effect.addFinalizer(() => discard)
    fiber = yield* Effect.forkScoped(
      Effect.gen(function* () {
        for (;;) {
          const ref = yield* Queue.take(queue)
          if (ref === undefined) {
            yield* Deferred.succeed(done, undefined)
            return
          }
          if (Deferred.DeferredTypeId in ref) {
            yield* Deferred.succeed(ref, undefined)
            continue
          }
          if (state.failed) continue
          // A failure here is not the run's: the final update reads everything and reports.
          yield* feed(ref).pipe(
            Effect.catchAll(() =>
              Effect.sync(() => {
                state.failed = true
                removeFiles()
              })
            )
          )
          yield* letOthersRun
        }
      })
    )

    const finish = (changes: RoundChanges) =>
      Effect.gen(function* () {
        yield* Queue.offer(queue, undefined)
        if (fiber !== undefined) yield* Fiber.join(fiber)
        if (!state.failed && state.builder.docCount > 0) {
          yield* spill.pipe(
            Effect.catchAll(() =>
              Effect.sync(() => {
                state.failed = true
                removeFiles()
              })
            )
          )
        }
        const summary = yield* updateGramIndexes(paths, changes, options, state.failed ? [] : state.written)
        state.closed = true
        return summary
      })

    const settled = Effect.gen(function* () {
      const marker = yield* Deferred.make<void>()
      yield* Queue.offer(queue, marker)
      yield* Deferred.await(marker).pipe(Effect.raceFirst(Deferred.await(done)))
    })

    return {
      published: (ref: SourceRef) => Queue.offer(queue, ref).pipe(Effect.asVoid),
      finish,
      discard,
      settled
    } satisfies GramRound
  })
