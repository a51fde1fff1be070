/**
 * Lists the body index (`index/<index>/<relative path>/<n>_<part>.tsv`) as
 * source-file folders with a cheap fingerprint, and reads one folder's TSVs.
 *
 * The fingerprint is the folder's inode and mtime and its TSV names. A
 * publish swaps in a freshly staged folder (new inode, new mtime) and a
 * removal deletes its TSVs (new mtime, other names), so comparing
 * fingerprints finds every change the body index can undergo, with one
 * `readdir` per folder and one `stat` per source file — no TSV is opened
 * when nothing changed.
 *
 * Sync `node:fs` here (STYLE 14): the cold search and the round walk the body
 * index and read its TSVs by offset (one read per TSV block; an Effect per
 * read cost more than the read in the cold-search profile, _sync_fs.ts), and
 * the cold search must stay Effect-free.
 *
 * @module
 */
import { type BodyLine, type Locator, type SourceStamp, compareTsvFileNames, parseBodyTsv, parseSourceStamp } from "@sagasu/domain"
import * as fs from "node:fs"
import * as path from "node:path"
import { preadSync } from "../_sync_fs.ts"
import type { DocPart } from "./doc_table.ts"
import type { TsvSource } from "./segment_builder.ts"

/** Name of the file that marks a staging folder as complete, written last (R7: only complete folders are published). */
export const stagingCompleteMark = ".complete"

/** A source file's folder in the body index. */
export interface BodyFolder {
  readonly index: string
  /** Relative to the index folder, `/`-separated, as on disk. */
  readonly path: string
  readonly dir: string
  /** `ino:mtimeMs:name/name/…` of the folder and its TSVs. */
  readonly fingerprint: string
  readonly mtimeMs: number
  /** TSV names in part order (`2_…` before `10_…`). */
  readonly files: ReadonlyArray<string>
}

/** The part of a fingerprint that tells one published folder from another: `ino:mtimeMs` of the folder. */
export function folderIdentityOf(info: { readonly ino: number | bigint; readonly mtimeMs: number }): string {
  return `${info.ino}:${info.mtimeMs}`
}

// publishFolder moves the previous folder aside as `<name>.old-<pid>` for a moment.
const asideFolder = /\.old-\d+$/

/** The key of a source file across segments and rounds. */
export const docKey = (index: string, relPath: string) => `${index}\u0000${relPath}`

/**
 * Every source-file folder (a folder holding at least one `.tsv`) under
 * `indexRoot`, in no particular order. Throws on I/O errors other than a
 * folder vanishing while it is listed.
 */
export function walkBodyIndex(indexRoot: string): Array<BodyFolder> {
  const out: Array<BodyFolder> = []
  let indexes: Array<fs.Dirent>
  try {
    indexes = fs.readdirSync(indexRoot, { withFileTypes: true })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return out
    throw e
  }
  for (const entry of indexes) {
    if (!entry.isDirectory()) continue
    const walk = (dir: string, rel: ReadonlyArray<string>): void => {
      let entries: Array<fs.Dirent>
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true })
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return
        throw e
      }
      const files: Array<string> = []
      for (const e of entries) {
        if (e.isDirectory()) {
          if (!asideFolder.test(e.name)) walk(path.join(dir, e.name), [...rel, e.name])
        } else if (e.name.endsWith(".tsv")) files.push(e.name)
      }
      if (rel.length === 0) return
      const folder = folderOf(entry.name, rel.join("/"), dir, files)
      if (folder !== undefined) out.push(folder)
    }
    walk(path.join(indexRoot, entry.name), [])
  }
  return out
}

// The record of a folder holding `files` (any names; undefined when no TSV or the folder vanished).
function folderOf(index: string, relPath: string, dir: string, names: ReadonlyArray<string>): BodyFolder | undefined {
  const files = names.filter((n) => n.endsWith(".tsv"))
  if (files.length === 0) return undefined
  files.sort(compareTsvFileNames)
  const info = fs.statSync(dir, { throwIfNoEntry: false })
  if (info === undefined) return undefined
  return { index, path: relPath, dir, fingerprint: `${folderIdentityOf(info)}:${files.join("/")}`, mtimeMs: info.mtimeMs, files }
}

/**
 * The folder of one source file (`index`, `relPath` `/`-separated) as
 * {@link walkBodyIndex} would list it, or `undefined` when it holds no TSV or
 * does not exist. Throws on other I/O errors.
 */
export function bodyFolderAt(indexRoot: string, index: string, relPath: string): BodyFolder | undefined {
  const dir = path.join(indexRoot, index, ...relPath.split("/"))
  let names: Array<string>
  try {
    names = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => !e.isDirectory()).map((e) => e.name)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === "ENOENT" || code === "ENOTDIR") return undefined
    throw e
  }
  return folderOf(index, relPath, dir, names)
}

/**
 * The staging folder `staging` (relative to `workRoot`) of a done source
 * file `index`/`relPath`, as {@link bodyFolderAt} would list it once
 * published (the publish is a rename: same inode, mtime and names, so the
 * same fingerprint), or `undefined` when it is gone or not complete (no
 * `.complete` mark: R7). Throws on other I/O errors.
 */
export function stagedFolderAt(workRoot: string, index: string, relPath: string, staging: string): BodyFolder | undefined {
  return completeFolderIn(path.join(workRoot, ...staging.split("/")), index, relPath)
}

/**
 * The complete staging folder `dir` as {@link stagedFolderAt} lists it (its
 * `.complete` mark written, so its fingerprint is the one it will have
 * published), or `undefined` when it is gone or not complete. Throws on
 * other I/O errors.
 */
export function completeFolderIn(dir: string, index: string, relPath: string): BodyFolder | undefined {
  let names: Array<string>
  try {
    names = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => !e.isDirectory()).map((e) => e.name)
  } catch (e) {
    if (isMissing(e)) return undefined
    throw e
  }
  if (!names.includes(stagingCompleteMark)) return undefined
  return folderOf(index, relPath, dir, names)
}

/**
 * Whether the live pieces of one source file (each piece's parts as its doc
 * table holds them, all of `folder`'s fingerprint) hold every body line of
 * the folder's TSVs exactly once (S1): per TSV, the pieces follow one another
 * from its first body line (`lineBase`) and the last ends where the TSV ends
 * (one `stat` per TSV). False for the first pieces a killed round left of a
 * file it was still reading, and for pieces read twice. Throws on I/O errors
 * other than a vanished TSV (then false).
 */
export function piecesCoverFolder(pieces: ReadonlyArray<ReadonlyArray<DocPart>>, folder: BodyFolder): boolean {
  const byFile = new Map<string, Array<DocPart>>()
  for (const parts of pieces) {
    for (const p of parts) {
      const list = byFile.get(p.file)
      if (list === undefined) byFile.set(p.file, [p])
      else list.push(p)
    }
  }
  for (const file of byFile.keys()) if (!folder.files.includes(file)) return false
  for (const file of folder.files) {
    const size = fs.statSync(path.join(folder.dir, file), { throwIfNoEntry: false })?.size
    if (size === undefined) return false
    const parts = (byFile.get(file) ?? []).sort((a, b) => a.lineBase - b.lineBase || a.end - b.end)
    // An empty TSV (no header) gives no part.
    if (parts.length === 0) {
      if (size !== 0) return false
      continue
    }
    let next = 0
    let end = 0
    for (const p of parts) {
      if (p.lineBase !== next || p.end < end) return false
      next = p.lineBase + p.count
      end = p.end
    }
    if (end !== size) return false
  }
  return true
}

/**
 * The TSVs of a source-file folder as sources a {@link DocFeed} reads a
 * block at a time (each read opens, reads and closes the file, so that an
 * abandoned feed holds nothing open). A read throws ENOENT when the folder
 * was replaced or removed meanwhile.
 */
export function tsvSourcesOf(folder: BodyFolder): Array<TsvSource> {
  return folder.files.map((file) => ({
    file,
    read: (position: number, length: number) => {
      const fd = fs.openSync(path.join(folder.dir, file), "r")
      try {
        return preadSync(fd, length, position)
      } finally {
        fs.closeSync(fd)
      }
    }
  }))
}

/**
 * The source file's size and modified time as its folder's `.complete` mark
 * holds them (issue 14), or `undefined` when the mark is missing, empty
 * (written by an older version) or unreadable: the search then shows no
 * date or size for the file and sorts it by when it was published.
 */
export function sourceStampOf(dir: string): SourceStamp | undefined {
  try {
    return parseSourceStamp(fs.readFileSync(path.join(dir, stagingCompleteMark), "utf8"))
  } catch {
    return undefined
  }
}

/**
 * The TSVs of a source-file folder read whole and parsed, in part order
 * (`file` its TSV's name), or `undefined` when the folder or one of its
 * TSVs vanished meanwhile (replaced or removed: read it again). Throws on
 * other I/O errors. What the team server publishes (issue 18).
 */
export function readBodyFolderParts(
  folder: BodyFolder
): Array<{ readonly file: string; readonly locator: Locator; readonly lines: ReadonlyArray<BodyLine> }> | undefined {
  const out: Array<{ readonly file: string; readonly locator: Locator; readonly lines: ReadonlyArray<BodyLine> }> = []
  for (const file of folder.files) {
    let text: string
    try {
      text = fs.readFileSync(path.join(folder.dir, file), "utf8")
    } catch (e) {
      if (isMissing(e)) return undefined
      throw e
    }
    const tsv = parseBodyTsv(text)
    out.push({ file, locator: tsv.locator, lines: tsv.lines })
  }
  return out
}

/** Whether `e` says a file or folder is not there (any more). */
export function isMissing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code
  return code === "ENOENT" || code === "ENOTDIR"
}
