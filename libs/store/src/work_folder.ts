/**
 * The work folder and its layout (ARCHITECTURE.md "The work folder", SPEC R2).
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { inBothLanguages } from "@sagasu/domain"
import { Effect, Schema } from "effect"
import * as path from "node:path"
import { writeFileAtomic } from "./_atomic.ts"
import { type WorkPaths, currentLayoutVersion, workPaths } from "./work_paths.ts"


/**
 * The work folder cannot be used (R2): `missing`, `not-a-folder`,
 * `not-writable`, `not-initialised` (no layout mark: run `sagasu init`),
 * `unknown-layout` (made by another version of Sagasu).
 */
export class WorkFolderError extends Schema.TaggedError<WorkFolderError>()("WorkFolderError", {
  reason: Schema.Literal("missing", "not-a-folder", "not-writable", "not-initialised", "unknown-layout"),
  path: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    return this.messageFor()
  }

  /**
   * The message, Japanese then English (issue 16: no language setting can be read from an unusable
   * work folder); `work` is the ` --work DIR` the `sagasu init` it suggests repeats (the CLI's hint).
   */
  messageFor(work = ""): string {
    const detail = this.detail === "" ? "" : ` (${this.detail})`
    return inBothLanguages((text) => text.workFolderUnusable(this.reason, this.path, work) + detail)
  }
}

/**
 * Creates the work folder's layout at `root` (idempotent): the folders, the
 * layout mark, and `setting.config` with `initialSettings` when it is absent.
 * Fails with WorkFolderError when `root` is a file or holds a foreign layout.
 * Returns the paths of its real path (symbolic links resolved, R3).
 */
export const initWorkFolder = Effect.fn("Store.initWorkFolder")(function* (root: string, initialSettings: string) {
  const fs = yield* FileSystem.FileSystem
  const paths = workPaths(root)
  const fail = (reason: WorkFolderError["reason"], detail = "") =>
    new WorkFolderError({ reason, path: paths.root, detail })
  const info = yield* fs.stat(paths.root).pipe(Effect.option)
  if (info._tag === "Some" && info.value.type !== "Directory") return yield* fail("not-a-folder")
  const mark = yield* fs.readFileString(paths.layoutVersion).pipe(Effect.option)
  if (mark._tag === "Some" && mark.value.trim() !== currentLayoutVersion) {
    return yield* fail("unknown-layout", `layout_version ${mark.value.trim()}`)
  }
  yield* Effect.forEach(
    [paths.root, paths.store, path.dirname(paths.journal), paths.index, paths.gram, paths.publish, paths.tmp],
    (dir) => fs.makeDirectory(dir, { recursive: true }),
    { discard: true }
  ).pipe(Effect.mapError((e) => fail("not-writable", e.message)))
  const real = yield* realPathsOf(paths)
  if (mark._tag === "None") {
    yield* writeFileAtomic(paths.layoutVersion, currentLayoutVersion + "\n").pipe(
      Effect.mapError((e) => fail("not-writable", e.message))
    )
  }
  if (!(yield* fs.exists(paths.settings).pipe(Effect.orElseSucceed(() => false)))) {
    yield* writeFileAtomic(paths.settings, initialSettings).pipe(Effect.mapError((e) => fail("not-writable", e.message)))
  }
  return real
})

/**
 * Checks that `root` is a usable work folder of this layout (R2): it exists,
 * is a folder, carries the layout mark and can be written. Returns the paths
 * of its real path (symbolic links resolved, R3).
 */
export const checkWorkFolder = Effect.fn("Store.checkWorkFolder")(function* (root: string) {
  const fs = yield* FileSystem.FileSystem
  const paths = workPaths(root)
  const fail = (reason: WorkFolderError["reason"], detail = "") =>
    new WorkFolderError({ reason, path: paths.root, detail })
  const info = yield* fs.stat(paths.root).pipe(Effect.mapError(() => fail("missing")))
  if (info.type !== "Directory") return yield* fail("not-a-folder")
  const mark = yield* fs.readFileString(paths.layoutVersion).pipe(Effect.mapError(() => fail("not-initialised")))
  if (mark.trim() !== currentLayoutVersion) return yield* fail("unknown-layout", `layout_version ${mark.trim()}`)
  yield* fs.access(paths.store, { writable: true }).pipe(Effect.mapError((e) => fail("not-writable", e.message)))
  return yield* realPathsOf(paths)
})

// R3 (issue 15): everything named after the work folder — the LibreOffice profiles in its work
// area, the leftover-process marker, the log header — uses one spelling of it, its real path, so
// a run through a symbolic link is the same work folder as a run through the folder itself.
const realPathsOf = (paths: WorkPaths) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.realPath(paths.root)).pipe(
    Effect.map(workPaths),
    Effect.orElseSucceed(() => paths)
  )
