/**
 * Helpers of the Office owner tests: the shared corpus, fixtures written by
 * the tests themselves, and looking at processes by pid (never by name).
 *
 * @module
 */
import type { Extraction } from "@sagasu/domain"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import JSZip from "jszip"
import { ipcPipePath } from "./_soffice.ts"

/** The repository root (this file is `libs/ingest/src/office/_test_support.ts`). */
export const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url))

/** The shared corpus: `$SAGASU_CORPUS`, else `../shared/corpus` beside the repository. */
export const corpusDir = process.env["SAGASU_CORPUS"] ?? path.resolve(repoRoot, "..", "shared", "corpus")

/** Is the corpus there at all (the tests that read it skip otherwise)? */
export const haveCorpus = fs.existsSync(path.join(corpusDir, "MANIFEST.tsv"))

/** Is LibreOffice on PATH (the tests that need it skip otherwise; CI installs it)? */
export const haveSoffice = spawnSync("soffice", ["--version"], { encoding: "utf8" }).status === 0

/** One MANIFEST.tsv row. */
export interface CorpusRow {
  readonly path: string
  readonly kind: string
  readonly traits: ReadonlySet<string>
  readonly expected: ReadonlyArray<string>
}

/** The corpus manifest (UTF-8 TSV, one header line, expected strings split on ` | `). */
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

/** A fresh temporary folder, inside `parent` when given (so one removal cleans a whole test file up). */
export const tempDir = (prefix: string, parent: string = os.tmpdir()): string =>
  fs.mkdtempSync(path.join(parent, `sagasu-office-${prefix}-`))

/** All text of an extraction, one line per body line. */
export const textOf = (extraction: Extraction): string => extraction.parts.flatMap((p) => p.lines.map((l) => l.text)).join("\n")

/** Is `pid` a live process (not gone, not a zombie)? Linux /proc. */
export function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1")
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3)
    return state !== "Z" && state !== "X"
  } catch {
    return false
  }
}

/** The pids whose command line matches `pattern` (`pgrep -f`), e.g. a profile folder. */
export function pgrep(pattern: string): ReadonlyArray<number> {
  const result = spawnSync("pgrep", ["-f", pattern], { encoding: "utf8" })
  return result.stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map(Number)
    .filter((pid) => pid !== process.pid && isAlive(pid))
}

/**
 * Fixtures the tests write themselves (no binary files in the repository):
 * an RTF memo and an HTML table saved as `.xls` (formats LibreOffice reads),
 * a binary file named `.doc`, an empty `.xls`, and an OpenDocument text whose
 * manifest declares encryption.
 */
export async function writeFixtures(dir: string) {
  const file = (name: string) => path.join(dir, name)
  fs.writeFileSync(file("memo.rtf"), "{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Arial;}}\\f0 Sagasu RTF memo \\u35211?\\u31309?\\par}")
  fs.writeFileSync(
    file("table.xls"),
    '<html><head><meta charset="utf-8"></head><body><table><tr><td>HTML売上表</td><td>42</td></tr></table></body></html>'
  )
  fs.writeFileSync(file("random.doc"), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)))
  fs.writeFileSync(file("empty.xls"), new Uint8Array())
  const odt = new JSZip()
  odt.file("mimetype", "application/vnd.oasis.opendocument.text", { compression: "STORE" })
  odt.file(
    "META-INF/manifest.xml",
    '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">' +
      '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>' +
      '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml" manifest:size="1000">' +
      '<manifest:encryption-data manifest:checksum-type="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0#sha256-1k" manifest:checksum="AAAA">' +
      '<manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc" manifest:initialisation-vector="AAAA"/>' +
      '<manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:key-size="32" manifest:iteration-count="100000" manifest:salt="AAAA"/>' +
      "</manifest:encryption-data></manifest:file-entry></manifest:manifest>"
  )
  odt.file("content.xml", Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 31) % 256)))
  fs.writeFileSync(file("locked.odt"), await odt.generateAsync({ type: "nodebuffer" }))
  return {
    rtf: file("memo.rtf"),
    htmlXls: file("table.xls"),
    binaryDoc: file("random.doc"),
    emptyXls: file("empty.xls"),
    encryptedOdt: file("locked.odt")
  }
}

/** A LibreOffice that is not ours: own profile, own keep-alive document, own process group (like a user's). */
export interface Bystander {
  readonly pgid: number
  readonly profile: string
  readonly pids: () => ReadonlyArray<number>
  readonly stop: () => void
}

/** Starts a bystander LibreOffice in `dir` and waits until it has its document open. */
export async function startBystander(dir: string): Promise<Bystander> {
  const profile = path.join(dir, "bystander-profile")
  const tmp = path.join(dir, "bystander-tmp")
  fs.mkdirSync(profile, { recursive: true })
  fs.mkdirSync(tmp, { recursive: true })
  const url = pathToFileURL(profile).href
  const doc = path.join(dir, "bystander.txt")
  fs.writeFileSync(doc, "a LibreOffice the owner must not touch\n")
  const child = spawn(
    "soffice",
    [`-env:UserInstallation=${url}`, "--headless", "--invisible", "--norestore", "--nologo", "--nodefault", doc],
    { detached: true, stdio: "ignore", env: { ...process.env, TMPDIR: tmp } }
  )
  const pgid = child.pid ?? -1
  const lock = path.join(dir, ".~lock.bystander.txt#")
  for (let i = 0; i < 600 && !fs.existsSync(lock); i++) await new Promise((r) => setTimeout(r, 50))
  if (!fs.existsSync(lock)) throw new Error("the bystander LibreOffice did not come up")
  return {
    pgid,
    profile,
    pids: () => pgrep(profile),
    stop: () => {
      try {
        process.kill(-pgid, "SIGKILL")
      } catch {
        // gone already
      }
      const pipe = ipcPipePath(url)
      if (pipe !== undefined) fs.rmSync(pipe, { force: true })
    }
  }
}
