/**
 * The real-file corpus in `../shared/corpus` (or `$SAGASU_CORPUS`): where it is
 * and its `MANIFEST.tsv` rows (see the corpus README).
 *
 * @module
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/** The repository's root folder. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..")

/** The corpus folder: `$SAGASU_CORPUS`, else `../shared/corpus` beside the repository. */
export const corpusDir = process.env.SAGASU_CORPUS ?? path.resolve(repoRoot, "..", "shared", "corpus")

/**
 * One row of MANIFEST.tsv: `path` relative to the corpus folder
 * (`files/<source>/<name>`), `kind` found by content, `traits`, and the
 * strings a correct extractor must find.
 */
export interface ManifestRow {
  readonly path: string
  readonly kind: string
  readonly traits: ReadonlyArray<string>
  readonly expected: ReadonlyArray<string>
}

/** The OOXML kinds a plain reader handles (issue 2's recall bar). */
export const ooxmlKinds: ReadonlySet<string> = new Set([
  "xlsx", "xlsm", "xltx", "xltm", "docx", "docm", "dotx", "dotm", "pptx", "pptm", "ppsx", "potx"
])

/**
 * A Word (97–2003, 6/95, 2) or PowerPoint (97–2003, 95, 4.0) row, which
 * the plain reader reads (W3, issue 20).
 */
export function plainLegacyRow(row: ManifestRow): boolean {
  return row.kind === "doc" || row.kind === "ppt"
}

/** Reads MANIFEST.tsv (header skipped; fields split on tabs, strings on ` | `). */
export function readManifest(dir: string = corpusDir): Array<ManifestRow> {
  const lines = fs.readFileSync(path.join(dir, "MANIFEST.tsv"), "utf8").split("\n").slice(1)
  return lines.filter((l) => l.trim() !== "").map((line) => {
    const f = line.split("\t")
    return {
      path: f[0] ?? "",
      kind: f[5] ?? "",
      traits: (f[6] ?? "").split(",").filter((t) => t !== ""),
      expected: (f[7] ?? "").split(" | ").filter((s) => s !== "")
    }
  })
}
