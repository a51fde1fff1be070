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
 * @module
 */
import { type Locator, type PartState, parseBodyTsv } from "@sagasu/domain"
import * as fs from "node:fs"
import * as path from "node:path"
import type { PartInput } from "./segment_builder.ts"

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

// `2_b.tsv` before `10_a.tsv`: parts in workbook order.
const byNumber = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true })

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
      if (files.length === 0 || rel.length === 0) return
      files.sort(byNumber)
      const info = fs.statSync(dir, { throwIfNoEntry: false })
      if (info === undefined) return
      out.push({
        index: entry.name,
        path: rel.join("/"),
        dir,
        fingerprint: `${info.ino}:${info.mtimeMs}:${files.join("/")}`,
        mtimeMs: info.mtimeMs,
        files
      })
    }
    walk(path.join(indexRoot, entry.name), [])
  }
  return out
}

/**
 * Reads the TSVs of a source-file folder as parts in order, or `undefined`
 * when the folder or a TSV vanished meanwhile. Throws on other I/O errors.
 */
export function readBodyFolder(folder: BodyFolder): Array<PartInput> | undefined {
  const parts: Array<PartInput> = []
  for (const file of folder.files) {
    let text: string
    try {
      text = fs.readFileSync(path.join(folder.dir, file), "utf8")
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined
      throw e
    }
    const tsv = parseBodyTsv(text)
    parts.push({ file, locator: tsv.locator as Locator, state: tsv.state as PartState, lines: tsv.lines })
  }
  return parts
}
