/**
 * The context of the hits on a page (SPEC S5, issue 16): for each located
 * hit of each file, its headings, neighbours or title (the domain's
 * `partContext`), read from the body index at search time — the decision
 * and the rules are in libs/domain/src/hit_context.ts.
 *
 * Reads are bounded by the page, not by the index: one `readdir` per file
 * of the page and one read of each TSV that holds a hit (plus the
 * properties TSV of a presentation, for its slides' titles), each parsed
 * and indexed once however many hits it holds; a TSV larger than
 * {@link maxContextTsvBytes} gives no context. A file whose folder is gone or
 * changed since it was searched, or a TSV that cannot be read, gives none
 * (`undefined`): the context never fails a search. A done file not yet
 * published (read by the search from its staging folder) has none until its
 * folder is published.
 *
 * Effect-free: the cold `sagasu search --context` calls it too.
 *
 * @module
 */
import { type BodyLine, type HitContext, type PartContext, cellContextOfTsv, parseBodyTsv, partContext, partNameOfTsvFileName } from "@sagasu/domain"
import * as fs from "node:fs"
import * as path from "node:path"
import type { FileHit } from "./search_hit.ts"
import { type BodyFolder, bodyFolderAt } from "./gram/body_walk.ts"

/** A TSV larger than this (bytes) is not read for a context: ≈1.5 million cells. */
export const maxContextTsvBytes = 64 * 1024 * 1024

// The part of a file's document properties (extraction.ts `propertiesPartName`; not imported: that module loads Effect's Schema).
const propertiesPart = "properties"

/**
 * The context of every location of every file of a page, in the same shape:
 * `result[i][j]` is the context of `files[i].locations[j]`, `undefined` for
 * a name or property hit, or when the body index cannot give one (module
 * doc). `paths.index` is the work folder's body index; `onRead` is told
 * the path of each TSV read (tests and benchmarks count them).
 */
export function hitContexts(
  paths: { readonly index: string },
  files: ReadonlyArray<FileHit>,
  options: { readonly onRead?: (tsv: string) => void } = {}
): Array<Array<HitContext | undefined>> {
  return files.map((file) => {
    const wanted = file.locations.some((h) => h.locator === "cell" || h.locator === "paragraph" || h.locator === "slide")
    if (!wanted) return file.locations.map(() => undefined)
    let folder: BodyFolder | undefined
    try {
      folder = bodyFolderAt(paths.index, file.index, file.path)
    } catch {
      folder = undefined
    }
    if (folder === undefined) return file.locations.map(() => undefined)
    const dir = folder.dir
    const names = folder.files
    // Within the page: each TSV read once, each part's picker built once.
    const texts = new Map<string, string | undefined>()
    const textOf = (file: string | undefined): string | undefined => {
      if (file === undefined) return undefined
      if (texts.has(file)) return texts.get(file)
      let read: string | undefined
      try {
        const at = path.join(dir, file)
        // Sync: the cold search gives the context too and must stay Effect-free (ARCHITECTURE.md).
        const stat = fs.statSync(at)
        // Only a regular file is read: a FIFO or a device in its place would block the search for good.
        if (!stat.isFile() || stat.size > maxContextTsvBytes) read = undefined
        else {
          options.onRead?.(at)
          read = fs.readFileSync(at, "utf8")
        }
      } catch {
        read = undefined
      }
      texts.set(file, read)
      return read
    }
    const linesOf = (file: string | undefined): ReadonlyArray<BodyLine> | undefined => {
      const text = textOf(file)
      return text === undefined ? undefined : parseBodyTsv(text).lines
    }
    const tsvOf = (part: string) => names.find((n) => partNameOfTsvFileName(n) === part)
    const pickers = new Map<string, PartContext | undefined>()
    return file.locations.map((hit) => {
      if (hit.locator !== "cell" && hit.locator !== "paragraph" && hit.locator !== "slide") return undefined
      const key = `${hit.locator}\u0000${hit.part}`
      let pick = pickers.get(key)
      if (!pickers.has(key)) {
        if (hit.locator === "cell") {
          // A sheet: only its locations are read for every row (domain cellContextOfTsv).
          const text = textOf(tsvOf(hit.part))
          pick = text === undefined ? undefined : cellContextOfTsv(text)
        } else {
          const partLines = linesOf(tsvOf(hit.part))
          pick = partLines === undefined ? undefined : partContext(hit.locator, partLines, hit.locator === "slide" ? (linesOf(tsvOf(propertiesPart)) ?? []) : [])
        }
        pickers.set(key, pick)
      }
      return pick?.({ loc: hit.loc, text: hit.text })
    })
  })
}
