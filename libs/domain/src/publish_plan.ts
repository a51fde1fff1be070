/**
 * Which staged files to publish now (R14, C2): every source folder that has
 * nothing in flight and nothing left to dispatch.
 *
 * @module
 */
import { fileKey } from "./ingest_list.ts"

/** A file whose TSVs are staged in `staging` (relative to the work folder), waiting to be published. */
export interface StagedFile {
  readonly index: string
  readonly path: string
  readonly staging: string
}

/** The source folder of a file: its index and the `/`-path of its parent folder. */
export function sourceFolderOf(index: string, path: string): string {
  const slash = path.lastIndexOf("/")
  return fileKey(index, slash < 0 ? "" : path.slice(0, slash))
}

/** The result of {@link foldersReadyToPublish}: files to publish now, and files to keep waiting. */
export interface PublishPlan {
  readonly publish: ReadonlyArray<StagedFile>
  readonly wait: ReadonlyArray<StagedFile>
}

/**
 * Splits the staged files into those whose source folder is finished — no
 * file of it in flight (`busy`: in flight or not yet dispatched, as
 * `{index, path}`, or as a test of a source folder's {@link sourceFolderOf}
 * key, for a caller that keeps its busy folders counted) — and those that
 * must wait. `final` publishes everything (R15: the finally step).
 */
export function foldersReadyToPublish(
  staged: ReadonlyArray<StagedFile>,
  busy: Iterable<{ readonly index: string; readonly path: string }> | ((folder: string) => boolean),
  final = false
): PublishPlan {
  if (final) return { publish: staged, wait: [] }
  let isBusy: (folder: string) => boolean
  if (typeof busy === "function") {
    isBusy = busy
  } else {
    const busyFolders = new Set<string>()
    for (const b of busy) busyFolders.add(sourceFolderOf(b.index, b.path))
    isBusy = (folder) => busyFolders.has(folder)
  }
  const publish: Array<StagedFile> = []
  const wait: Array<StagedFile> = []
  for (const s of staged) (isBusy(sourceFolderOf(s.index, s.path)) ? wait : publish).push(s)
  return { publish, wait }
}
