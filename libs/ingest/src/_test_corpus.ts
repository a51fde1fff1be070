/**
 * The shared corpus of real Office files (../shared/corpus, see its README),
 * for tests only: where it is, whether it is there, its manifest's rows and
 * the path of one of its files. `SAGASU_CORPUS` points at another copy.
 * Reading this module starts no process (unlike `office/_test_support.ts`,
 * which asks LibreOffice for its version).
 *
 * @module
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/** The repository root (this file is `libs/ingest/src/_test_corpus.ts`). */
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))

/** The shared corpus: `$SAGASU_CORPUS`, else `../shared/corpus` beside the repository. */
export const corpusDir = process.env["SAGASU_CORPUS"] ?? path.resolve(repoRoot, "..", "shared", "corpus")

/** Is the corpus there at all (the tests that read it skip otherwise)? */
export const haveCorpus = fs.existsSync(path.join(corpusDir, "MANIFEST.tsv"))

/** One MANIFEST.tsv row. */
export interface CorpusRow {
  readonly path: string
  readonly kind: string
  readonly traits: ReadonlySet<string>
  readonly expected: ReadonlyArray<string>
}

/** The corpus manifest (UTF-8 TSV, one header line, expected strings split on ` | `); no rows without the corpus. */
export function readManifest(): ReadonlyArray<CorpusRow> {
  if (!haveCorpus) return []
  return fs
    .readFileSync(path.join(corpusDir, "MANIFEST.tsv"), "utf8")
    .split("\n")
    .slice(1)
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [file = "", , , , , kind = "", traits = "", expected = ""] = line.split("\t")
      return { path: file, kind, traits: new Set(traits.split(",").filter((t) => t !== "")), expected: expected === "" ? [] : expected.split(" | ") }
    })
}

/** The absolute path of a corpus file, given as in the manifest (`files/poi/x.xls`) or without `files/`. */
export const corpusFile = (relative: string): string =>
  path.join(corpusDir, relative.startsWith("files/") ? relative : path.join("files", relative))
