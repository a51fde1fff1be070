/**
 * The writer's side of the fresh log (fresh_log.ts, S1): every change of
 * the body index is noted before it is made, in the log the manifest names.
 * The store's publish and removal go through {@link noteFresh}, so every
 * writer — the indexing run, its recovery (R7), an index removed from the
 * GUI — keeps the guarantee without knowing of it.
 *
 * Sync `node:fs` here (STYLE 14): a note before every publish and removal,
 * once per file (the append measured in journal_store.ts: 10–16 µs against
 * 135–300 µs through the FileSystem).
 *
 * @module
 */
import { searchNormalizerId } from "@sagasu/domain"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import type { WorkPaths } from "../work_paths.ts"
import { walkBodyIndex } from "./body_walk.ts"
import { type FreshEntry, appendFreshSync, formatFreshEntries, freshLogName } from "./fresh_log.ts"
import { GramIndexError, type Manifest, gramFormat, isCurrentManifest, readManifestSync, writeFileDurableSync, writeManifestSync } from "./manifest.ts"

export type { FreshEntry } from "./fresh_log.ts"

/**
 * The manifest with a fresh log to note changes in, made now when there is
 * none: a work folder without a manifest (before the first run), or one
 * written by another format or normaliser, or damaged, gets an empty
 * manifest of this format whose log names every folder of the body index as
 * published — so that everything stays findable (from the body index) while
 * the next round builds the segments anew (S1). Sync; throws a
 * GramIndexError (`write-failed`, `body-index-unreadable`).
 */
export function ensureFreshLogSync(gramDir: string, indexRoot: string): Manifest {
  let read: Manifest | undefined
  try {
    read = readManifestSync(gramDir)
  } catch {
    read = undefined
  }
  if (read !== undefined && isCurrentManifest(read) && read.fresh !== "") return read
  const attempt = <A>(reason: "write-failed" | "body-index-unreadable", file: string, f: () => A): A => {
    try {
      return f()
    } catch (e) {
      throw e instanceof GramIndexError ? e : new GramIndexError({ reason, path: file, detail: e instanceof Error ? e.message : String(e) })
    }
  }
  attempt("write-failed", gramDir, () => fs.mkdirSync(gramDir, { recursive: true }))
  const generation = (read?.generation ?? 0) + 1
  const name = freshLogName(generation)
  const current = read !== undefined && isCurrentManifest(read)
  // Another format or none: the body index as it stands is the tail.
  const entries: Array<FreshEntry> = current
    ? []
    : attempt("body-index-unreadable", indexRoot, () => walkBodyIndex(indexRoot)).map((f) => ({ op: "+" as const, index: f.index, path: f.path }))
  attempt("write-failed", path.join(gramDir, name), () => writeFileDurableSync(path.join(gramDir, name), formatFreshEntries(entries)))
  const manifest: Manifest = current
    ? { ...read!, generation, fresh: name, freshFrom: 0 }
    : { format: gramFormat, normalizer: searchNormalizerId, generation, segments: [], fresh: name, freshFrom: 0 }
  attempt("write-failed", gramDir, () => writeManifestSync(gramDir, manifest))
  return manifest
}

/**
 * Notes `entries` in the fresh log of the work folder `paths` before the
 * body index changes (S1): the folders about to be published (`+`) or
 * removed (`-`). Fails with a GramIndexError when the log cannot be written;
 * the change must then not be made.
 */
export const noteFresh = (paths: WorkPaths, entries: ReadonlyArray<FreshEntry>): Effect.Effect<void, GramIndexError> =>
  Effect.try({
    try: () => {
      if (entries.length === 0) return
      const manifest = ensureFreshLogSync(paths.gram, paths.index)
      appendFreshSync(paths.gram, manifest.fresh, entries)
    },
    catch: (e) =>
      e instanceof GramIndexError ? e : new GramIndexError({ reason: "write-failed", path: paths.gram, detail: e instanceof Error ? e.message : String(e) })
  })

/**
 * Makes sure the work folder has a manifest and a fresh log of this format
 * (see {@link ensureFreshLogSync}); an indexing run calls it once at its start.
 */
export const ensureFreshLog = (paths: WorkPaths): Effect.Effect<Manifest, GramIndexError> =>
  Effect.try({
    try: () => ensureFreshLogSync(paths.gram, paths.index),
    catch: (e) =>
      e instanceof GramIndexError ? e : new GramIndexError({ reason: "write-failed", path: paths.gram, detail: e instanceof Error ? e.message : String(e) })
  })
