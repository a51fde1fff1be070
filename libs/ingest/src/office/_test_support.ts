/**
 * Helpers of the Office owner tests: fixtures written by the tests
 * themselves, and looking at processes by pid (never by name). The shared
 * corpus is `../_test_corpus.ts`.
 *
 * @module
 */
import type { Extraction } from "@sagasu/domain"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { writeZip } from "../extract/_test_containers.ts"
import { ipcPipePath } from "./_soffice.ts"

/** Is LibreOffice on PATH (the tests that need it skip otherwise; CI installs it)? */
export const haveSoffice = spawnSync("soffice", ["--version"], { encoding: "utf8" }).status === 0

/** A fresh temporary folder, inside `parent` when given (so one removal cleans a whole test file up). */
export const tempDir = (prefix: string, parent: string = os.tmpdir()): string =>
  fs.mkdtempSync(path.join(parent, `sagasu-office-${prefix}-`))

/** All text of an extraction, one line per body line. */
export const textOf = (extraction: Extraction): string => extraction.parts.flatMap((p) => p.lines.map((l) => l.text)).join("\n")

/** The state letter of `pid` in /proc (`R`, `S`, `T` stopped, `Z` zombie, …), or undefined when it is gone. Linux. */
export function processState(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1")
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3)
  } catch {
    return undefined
  }
}

/** Is `pid` a live process (not gone, not a zombie)? Linux /proc. */
export function isAlive(pid: number): boolean {
  const state = processState(pid)
  return state !== undefined && state !== "Z" && state !== "X"
}

/**
 * The live pids whose command line holds `pattern` (as `pgrep -f` of a plain string), e.g. a
 * profile folder. Read from /proc without starting a process: the tests poll it every few
 * milliseconds, and a `spawnSync("pgrep")` at that rate on a loaded machine left an fs callback of
 * the owner under test undelivered for minutes (the hand-over test's hang). `pgrep` elsewhere.
 */
export function pgrep(pattern: string): ReadonlyArray<number> {
  if (!fs.existsSync("/proc/self/cmdline")) {
    const result = spawnSync("pgrep", ["-f", pattern], { encoding: "utf8" })
    return result.stdout.split("\n").filter((l) => l.trim() !== "").map(Number).filter((pid) => pid !== process.pid && isAlive(pid))
  }
  const found: Array<number> = []
  for (const name of fs.readdirSync("/proc")) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").includes(pattern) && isAlive(pid)) found.push(pid)
    } catch {
      // gone meanwhile
    }
  }
  return found.sort((a, b) => a - b)
}

/** A flat OpenDocument text (`.fodt`: one XML file, no zip) of one paragraph: a format only LibreOffice reads. */
export const flatText = (paragraph: string): string =>
  '<?xml version="1.0" encoding="UTF-8"?><office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">' +
  `<office:body><office:text><text:p>${paragraph}</text:p></office:text></office:body></office:document>`

/**
 * Fixtures the tests write themselves (no binary files in the repository):
 * a flat OpenDocument text memo and an HTML table saved as `.xls` (formats
 * only LibreOffice reads: the plain readers read RTF since issue 20),
 * a binary file named `.doc`, an empty `.xls`, and an OpenDocument text whose
 * manifest declares encryption.
 */
export async function writeFixtures(dir: string) {
  const file = (name: string) => path.join(dir, name)
  fs.writeFileSync(file("memo.fodt"), flatText("Sagasu flat memo 見積"))
  fs.writeFileSync(
    file("table.xls"),
    '<html><head><meta charset="utf-8"></head><body><table><tr><td>HTML売上表</td><td>42</td></tr></table></body></html>'
  )
  fs.writeFileSync(file("random.doc"), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)))
  fs.writeFileSync(file("empty.xls"), new Uint8Array())
  const manifest =
    '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">' +
    '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>' +
    '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml" manifest:size="1000">' +
    '<manifest:encryption-data manifest:checksum-type="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0#sha256-1k" manifest:checksum="AAAA">' +
    '<manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc" manifest:initialisation-vector="AAAA"/>' +
    '<manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:key-size="32" manifest:iteration-count="100000" manifest:salt="AAAA"/>' +
    "</manifest:encryption-data></manifest:file-entry></manifest:manifest>"
  fs.writeFileSync(
    file("locked.odt"),
    writeZip([
      { name: "mimetype", data: "application/vnd.oasis.opendocument.text", stored: true },
      { name: "META-INF/manifest.xml", data: manifest },
      { name: "content.xml", data: Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 31) % 256)) }
    ])
  )
  return {
    flatText: file("memo.fodt"),
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
