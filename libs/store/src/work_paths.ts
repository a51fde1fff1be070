/**
 * The paths of a work folder (ARCHITECTURE.md "The work folder"). Effect-free:
 * on the path of every cold search.
 *
 * @module
 */
import * as path from "node:path"
import { sieveDirName } from "./gram/sieve.ts"

/** The layout this version writes; `store/layout_version` holds it (R2, R6). */
export const currentLayoutVersion = "1"

/**
 * How many runs' logs the work folder keeps (R4, issue 16): `indexing_log.txt`
 * (the current or last run), `indexing_log_previous.txt` (the run before) and
 * `indexing_log_previous_2.txt` … `_4.txt` (older, newest first).
 */
export const keptLogs = 5

/** Absolute paths of everything in a work folder. */
export interface WorkPaths {
  readonly root: string
  readonly settings: string
  readonly log: string
  /** The log of the run before (R4). */
  readonly logPrevious: string
  /** The logs of the runs before that, newest first ({@link keptLogs} runs are kept in all). */
  readonly logOlder: ReadonlyArray<string>
  readonly store: string
  readonly layoutVersion: string
  readonly ingestList: string
  readonly origins: string
  readonly journal: string
  readonly pendingRemove: string
  readonly progress: string
  readonly index: string
  readonly gram: string
  /** The sieves of the fresh tail's big folders (gram/sieves, S2: gram/sieve.ts). */
  readonly sieves: string
  readonly publish: string
  readonly tmp: string
}

/**
 * The paths of the work folder at `root` (made absolute). Pure: touches
 * nothing, so a symbolic link in `root` stays in the paths; `checkWorkFolder`
 * and `initWorkFolder` return the paths of the folder's real path instead.
 */
export function workPaths(root: string): WorkPaths {
  const r = path.resolve(root)
  const store = path.join(r, "store")
  return {
    root: r,
    settings: path.join(r, "setting.config"),
    log: path.join(r, "indexing_log.txt"),
    logPrevious: path.join(r, "indexing_log_previous.txt"),
    logOlder: Array.from({ length: keptLogs - 2 }, (_, i) => path.join(r, `indexing_log_previous_${i + 2}.txt`)),
    store,
    layoutVersion: path.join(store, "layout_version"),
    ingestList: path.join(store, "ingest_list.tsv"),
    origins: path.join(store, "origins.tsv"),
    journal: path.join(store, "journal", "ingest.tsv"),
    pendingRemove: path.join(store, "pending_remove.tsv"),
    progress: path.join(store, "progress.json"),
    index: path.join(r, "index"),
    gram: path.join(r, "gram"),
    sieves: path.join(r, "gram", sieveDirName),
    publish: path.join(r, "publish"),
    tmp: path.join(r, "tmp")
  }
}

