/**
 * Which file `POST /api/open` may open (issue 16, SPEC S5 "A hit can be
 * opened"): only a file inside a registered index's folder. The page sends
 * the index and the file's path relative to its folder (`/`-separated, as a
 * search gave it); a path that is empty, absolute or holds a `..` is refused
 * before the disk is touched, and the file's real path (symlinks resolved)
 * must still lie inside the folder's real path — a link out of the folder
 * is refused like `..`. The file must exist and be a file.
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { type TargetFolder, withoutLongPathPrefix } from "@sagasu/domain"
import { Data, Effect } from "effect"
import * as path from "node:path"
import type { UiLanguage } from "./page/ui_text.ts"
import { uiText } from "./page/ui_text.ts"

/** Why a file cannot be opened: `status` the HTTP answer (400 a path that escapes, 404 what is not there). */
export class OpenRefused extends Data.TaggedError("OpenRefused")<{ readonly status: 400 | 404; readonly message: string }> {}

/** The file to open: its real path (what the opener is given). */
export interface OpenTarget {
  readonly file: string
}

/** The path API of `platform`: its separators and its idea of an absolute path. */
const pathOf = (platform: NodeJS.Platform) => (platform === "win32" ? path.win32 : path.posix)

/**
 * The path's pieces when it stays inside its folder by its text alone, else
 * `undefined`: not empty, not absolute (nor `C:…`, `\\server`), no `..`, no
 * NUL. On Windows `\` separates too.
 */
export function relativePieces(relative: string, platform: NodeJS.Platform = process.platform): ReadonlyArray<string> | undefined {
  const p = pathOf(platform)
  if (relative === "" || relative.includes("\u0000")) return undefined
  if (p.isAbsolute(relative) || path.posix.isAbsolute(relative) || (platform === "win32" && /^[A-Za-z]:/.test(relative))) return undefined
  const pieces = relative.split(platform === "win32" ? /[\\/]/ : "/").filter((s) => s !== "" && s !== ".")
  if (pieces.length === 0 || pieces.includes("..")) return undefined
  return pieces
}

/** `child` is `parent` itself or inside it (both real, absolute paths of `platform`). */
export function isInside(parent: string, child: string, platform: NodeJS.Platform = process.platform): boolean {
  const p = pathOf(platform)
  // `\\?\C:\…` (a long path, as a real path may come back) is `C:\…`.
  const plain = (s: string) => (platform === "win32" ? withoutLongPathPrefix(s) : s)
  const rel = p.relative(plain(parent), plain(child))
  // `..name` is a name inside; `..` and `../…` lead out; another drive gives an absolute path.
  return rel === "" || (!p.isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${p.sep}`))
}

/**
 * The real path of the file `relative` of the index `index` among
 * `folders`, or why it may not be opened (messages in `language`).
 */
export const resolveOpenTarget = (
  folders: ReadonlyArray<TargetFolder>,
  index: string,
  relative: string,
  language: UiLanguage
): Effect.Effect<OpenTarget, OpenRefused, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const t = uiText(language)
    const fs = yield* FileSystem.FileSystem
    const folder = folders.find((f) => f.name === index)
    if (folder === undefined) return yield* new OpenRefused({ status: 404, message: t.errOpenIndex(index) })
    const pieces = relativePieces(relative)
    if (pieces === undefined) return yield* new OpenRefused({ status: 400, message: t.errOpenOutside(relative) })
    const joined = path.join(folder.path, ...pieces)
    const realFolder = yield* fs.realPath(folder.path).pipe(
      Effect.mapError(() => new OpenRefused({ status: 404, message: t.errOpenFolder(folder.path) }))
    )
    const realFile = yield* fs.realPath(joined).pipe(
      Effect.mapError(() => new OpenRefused({ status: 404, message: t.errOpenMissing(joined) }))
    )
    if (realFile === realFolder || !isInside(realFolder, realFile)) {
      return yield* new OpenRefused({ status: 400, message: t.errOpenOutside(relative) })
    }
    const info = yield* fs.stat(realFile).pipe(Effect.mapError(() => new OpenRefused({ status: 404, message: t.errOpenMissing(joined) })))
    if (info.type !== "File") return yield* new OpenRefused({ status: 404, message: t.errOpenMissing(joined) })
    return { file: realFile }
  })
