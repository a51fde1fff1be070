/**
 * Index management in one place (issue 16): the decisions behind add, list,
 * enable / disable, rename, remove and move of the settings' target folders.
 * The store performs them (`libs/store/src/index_admin.ts`); the CLI and the
 * GUI only ask and print. A refusal is data ({@link IndexRefusal}); its words
 * are in the catalogue (`messages(language).indexRefused`).
 *
 * A folder equal to, inside, or containing another index's folder is refused:
 * every file in both would be ingested twice and every hit shown twice.
 * Folders are compared by path segments, so `/a/b` and `/a/bc` are
 * neighbours, not one inside the other; trailing separators, `.` and `..`
 * segments do not count; case counts only on a case-sensitive platform.
 *
 * @module
 */
import { Data, Either, ParseResult, Schema } from "effect"
import { IndexName, type TargetFolder } from "./settings.ts"

/** How a platform spells and compares folder paths. */
export type PathStyle = "posix" | "darwin" | "win32"

/** The path style of a Node platform name: Windows and macOS compare names without case. */
export function pathStyleOf(platform: string): PathStyle {
  return platform === "win32" ? "win32" : platform === "darwin" ? "darwin" : "posix"
}

/** How a new folder stands to an index's folder: `same`, `inside` it, or `contains` it. */
export type FolderRelation = "same" | "inside" | "contains"

/** Whether `p` is an absolute path in `style` (`/…`; on Windows `C:\…` or `\\server\share`). */
export function isAbsoluteFolder(p: string, style: PathStyle): boolean {
  if (style === "win32") return /^[A-Za-z]:[\\/]/.test(p) || /^[\\/]{2}[^\\/]/.test(p)
  return p.startsWith("/")
}

/**
 * The segments of the absolute path `p` as `style` compares them: empty and
 * `.` segments dropped, `..` taken back, case folded on Windows and macOS
 * (and Unicode composed, as those file systems do); on Windows a long-path
 * prefix dropped ({@link withoutLongPathPrefix}) and `/` a separator too.
 */
export function folderSegments(p: string, style: PathStyle): ReadonlyArray<string> {
  const plain = style === "win32" ? withoutLongPathPrefix(p) : p
  const out: Array<string> = []
  const unc = style === "win32" && /^[\\/]{2}[^\\/]/.test(plain)
  for (const raw of plain.split(style === "win32" ? /[\\/]/ : "/")) {
    if (raw === "" || raw === ".") continue
    if (raw === "..") {
      // Never above the root (or a drive, or a share's server).
      if (out.length > (unc ? 2 : style === "win32" && /^[A-Za-z]:$/.test(out[0] ?? "") ? 1 : 0)) out.pop()
      continue
    }
    out.push(style === "posix" ? raw : raw.normalize("NFC").toLowerCase())
  }
  return unc ? ["\\\\", ...out] : out
}

/**
 * A Windows path without its long-path (`\\?\`) or device (`\\.\`) prefix:
 * `\\?\C:\…` is `C:\…` and `\\?\UNC\server\share\…` is `\\server\share\…`,
 * the same folders spelled past MAX_PATH.
 */
export function withoutLongPathPrefix(p: string): string {
  const m = /^[\\/]{2}[?.][\\/](?:(unc)[\\/]|[A-Za-z]:)/i.exec(p)
  if (m === null) return p
  return m[1] !== undefined ? `\\\\${p.slice(m[0].length)}` : p.slice(4)
}

/** How the folder `candidate` stands to the folder `other` (both absolute), or `undefined` when apart. */
export function folderRelation(candidate: string, other: string, style: PathStyle): FolderRelation | undefined {
  const a = folderSegments(candidate, style)
  const b = folderSegments(other, style)
  const common = Math.min(a.length, b.length)
  for (let i = 0; i < common; i++) if (a[i] !== b[i]) return undefined
  return a.length === b.length ? "same" : a.length > b.length ? "inside" : "contains"
}

/** A folder as the store saw it: the path as configured and, when it exists, its real path (links resolved). */
export interface FolderSpelling {
  readonly path: string
  readonly realPath?: string | undefined
}

/** The first registered index whose folder the new one overlaps, and how. */
export interface FolderOverlap {
  readonly index: string
  readonly path: string
  readonly relation: FolderRelation
}

/**
 * The first index of `others` whose folder `candidate` is equal to, inside
 * or containing — by the configured paths, and by the real paths when known
 * (a link to a registered folder is that folder).
 */
export function findFolderOverlap(
  candidate: FolderSpelling,
  others: ReadonlyArray<{ readonly name: string } & FolderSpelling>,
  style: PathStyle
): FolderOverlap | undefined {
  const spellings = (f: FolderSpelling) => (f.realPath === undefined || f.realPath === "" ? [f.path] : [f.path, f.realPath])
  for (const other of others) {
    for (const a of spellings(candidate)) {
      for (const b of spellings(other)) {
        const relation = folderRelation(a, b, style)
        if (relation !== undefined) return { index: other.name, path: other.path, relation }
      }
    }
  }
  return undefined
}

/** Why an edit of the indexes was refused; the catalogue words each one. */
export type IndexRefusal = Data.TaggedEnum<{
  NameEmpty: {}
  NameSpaces: {}
  NameTooLong: {}
  NameChars: { readonly name: string }
  NameTaken: { readonly name: string }
  NoSuchIndex: { readonly name: string }
  FolderEmpty: {}
  FolderRelative: { readonly path: string }
  FolderMissing: { readonly path: string }
  /** The path names a file, not a folder. */
  NotAFolder: { readonly path: string }
  FolderOverlap: { readonly path: string; readonly other: string; readonly otherPath: string; readonly relation: FolderRelation }
}>
export const IndexRefusal = Data.taggedEnum<IndexRefusal>()

const decodeName = Schema.decodeUnknownEither(IndexName)

/** Checks a new index name against the settings' rule ({@link IndexName}); the name as given, or why not. */
export function checkIndexName(name: string): Either.Either<string, IndexRefusal> {
  return Either.mapLeft(decodeName(name), (e) => {
    const why = ParseResult.TreeFormatter.formatErrorSync(e)
    return why.includes("spaces")
      ? IndexRefusal.NameSpaces()
      : why.includes("empty")
      ? IndexRefusal.NameEmpty()
      : why.includes("100")
      ? IndexRefusal.NameTooLong()
      : IndexRefusal.NameChars({ name })
  })
}

/** One edit of the indexes (the GUI's `POST /api/indexes` and the CLI's commands). */
export type IndexEdit =
  | { readonly _tag: "add"; readonly name: string; readonly path: string }
  | { readonly _tag: "enable"; readonly name: string; readonly enabled: boolean }
  | { readonly _tag: "rename"; readonly from: string; readonly to: string }
  | { readonly _tag: "remove"; readonly name: string }
  | { readonly _tag: "move"; readonly name: string; readonly path: string }

/** What the store knows of the disk when it asks for a decision. */
export interface IndexEditContext {
  readonly style: PathStyle
  /** For `add` and `move`: whether the new path is a folder (else whether it is a file), and its real path. */
  readonly folder?: { readonly isFolder: boolean; readonly isFile?: boolean; readonly realPath?: string | undefined }
  /** The real paths of the registered indexes' folders that exist, by index name. */
  readonly realPaths?: ReadonlyMap<string, string>
}

/**
 * The decision on an edit: the new target folders and what else the store
 * must carry along — `none` (nothing changes), `settings` (only
 * `setting.config`), `rename` and `remove` (the index's data too: body index,
 * ingest list, origin record, 2-gram index, under the lock).
 */
export type IndexEditDecision =
  | { readonly _tag: "none" }
  | { readonly _tag: "settings"; readonly targetFolders: ReadonlyArray<TargetFolder> }
  | { readonly _tag: "rename"; readonly from: string; readonly to: string; readonly targetFolders: ReadonlyArray<TargetFolder> }
  | { readonly _tag: "remove"; readonly name: string; readonly targetFolders: ReadonlyArray<TargetFolder> }

/**
 * Decides an edit of `folders` (the settings' `targetFolders`, in order).
 * Refusals, in the order they are checked: the name (rules, taken, unknown),
 * then the folder (empty, relative, not a folder, overlapping another
 * index's folder). Moving an index checks its new folder against the other
 * indexes only.
 */
export function decideIndexEdit(
  folders: ReadonlyArray<TargetFolder>,
  edit: IndexEdit,
  context: IndexEditContext
): Either.Either<IndexEditDecision, IndexRefusal> {
  const exists = (name: string) => folders.some((f) => f.name === name)
  const refuse = (r: IndexRefusal) => Either.left(r)
  const checkFolder = (p: string, others: ReadonlyArray<TargetFolder>): IndexRefusal | undefined => {
    if (p.trim() === "") return IndexRefusal.FolderEmpty()
    if (!isAbsoluteFolder(p, context.style)) return IndexRefusal.FolderRelative({ path: p })
    if (context.folder !== undefined && !context.folder.isFolder) {
      return context.folder.isFile === true ? IndexRefusal.NotAFolder({ path: p }) : IndexRefusal.FolderMissing({ path: p })
    }
    const overlap = findFolderOverlap(
      { path: p, realPath: context.folder?.realPath },
      others.map((o) => ({ name: o.name, path: o.path, realPath: context.realPaths?.get(o.name) })),
      context.style
    )
    return overlap === undefined
      ? undefined
      : IndexRefusal.FolderOverlap({ path: p, other: overlap.index, otherPath: overlap.path, relation: overlap.relation })
  }
  switch (edit._tag) {
    case "add": {
      const name = checkIndexName(edit.name)
      if (Either.isLeft(name)) return refuse(name.left)
      if (exists(edit.name)) return refuse(IndexRefusal.NameTaken({ name: edit.name }))
      const bad = checkFolder(edit.path, folders)
      if (bad !== undefined) return refuse(bad)
      return Either.right({ _tag: "settings", targetFolders: [...folders, { name: edit.name, path: edit.path, enabled: true }] })
    }
    case "enable": {
      const current = folders.find((f) => f.name === edit.name)
      if (current === undefined) return refuse(IndexRefusal.NoSuchIndex({ name: edit.name }))
      if (current.enabled === edit.enabled) return Either.right({ _tag: "none" })
      return Either.right({
        _tag: "settings",
        targetFolders: folders.map((f) => (f.name === edit.name ? { ...f, enabled: edit.enabled } : f))
      })
    }
    case "rename": {
      if (!exists(edit.from)) return refuse(IndexRefusal.NoSuchIndex({ name: edit.from }))
      const name = checkIndexName(edit.to)
      if (Either.isLeft(name)) return refuse(name.left)
      if (edit.to === edit.from) return Either.right({ _tag: "none" })
      if (exists(edit.to)) return refuse(IndexRefusal.NameTaken({ name: edit.to }))
      return Either.right({
        _tag: "rename",
        from: edit.from,
        to: edit.to,
        targetFolders: folders.map((f) => (f.name === edit.from ? { ...f, name: edit.to } : f))
      })
    }
    case "remove": {
      if (!exists(edit.name)) return refuse(IndexRefusal.NoSuchIndex({ name: edit.name }))
      return Either.right({ _tag: "remove", name: edit.name, targetFolders: folders.filter((f) => f.name !== edit.name) })
    }
    case "move": {
      const current = folders.find((f) => f.name === edit.name)
      if (current === undefined) return refuse(IndexRefusal.NoSuchIndex({ name: edit.name }))
      const bad = checkFolder(edit.path, folders.filter((f) => f.name !== edit.name))
      if (bad !== undefined) return refuse(bad)
      if (current.path === edit.path) return Either.right({ _tag: "none" })
      return Either.right({
        _tag: "settings",
        targetFolders: folders.map((f) => (f.name === edit.name ? { ...f, path: edit.path } : f))
      })
    }
  }
}
