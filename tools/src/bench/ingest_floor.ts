/**
 * The floor of the ingest benchmark: what reading Office files costs on this
 * machine before Sagasu does anything of its own. Per file: read it whole,
 * find the zip's central directory, inflate every XML part (`*.xml`,
 * `*.rels`) with Node's native zlib, decode it and run it through the same
 * XML parser Sagasu uses (saxes, namespaces on, handlers attached, so every
 * tag and text node is tokenized), and write nothing. Files that are not zip
 * packages (legacy xls/doc/ppt) are skipped and counted.
 *
 * It runs on as many child processes as Sagasu has plain workers, taking
 * files one at a time from a shared queue, as Sagasu's dispatcher does.
 *
 * @module
 */
import { fork } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { inflateRawSync } from "node:zlib"
import { SaxesParser } from "saxes"

/** What the floor did with one file. */
export interface FloorFile {
  readonly file: string
  readonly bytes: number
  /** Inflated XML bytes parsed. */
  readonly xmlBytes: number
  /** Elements opened (a check that the parser really ran). */
  readonly elements: number
  /** Wall time of this file in its process, ms. */
  readonly ms: number
  /** True for a file that is not a zip package (not read). */
  readonly skipped: boolean
  /** Parts that failed to inflate or parse (damaged files of the real corpus): counted, not fatal. */
  readonly broken: number
}

interface Entry {
  readonly name: string
  readonly method: number
  readonly compressedSize: number
  readonly localHeaderOffset: number
}

function centralDirectory(bytes: Buffer): Array<Entry> | undefined {
  if (bytes.length < 22 || bytes.readUInt32LE(0) !== 0x04034b50) return undefined
  let eocd = -1
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) {
      eocd = i
      break
    }
  }
  if (eocd < 0) return undefined
  const count = bytes.readUInt16LE(eocd + 10)
  let p = bytes.readUInt32LE(eocd + 16)
  const entries: Array<Entry> = []
  for (let i = 0; i < count; i++) {
    const nameLength = bytes.readUInt16LE(p + 28)
    entries.push({
      name: bytes.toString("utf8", p + 46, p + 46 + nameLength),
      method: bytes.readUInt16LE(p + 10),
      compressedSize: bytes.readUInt32LE(p + 20),
      localHeaderOffset: bytes.readUInt32LE(p + 42)
    })
    p += 46 + nameLength + bytes.readUInt16LE(p + 30) + bytes.readUInt16LE(p + 32)
  }
  return entries
}

/** Inflates and tokenizes every XML part of the file at `file`; writes nothing. */
export function floorFile(file: string): FloorFile {
  const started = performance.now()
  const bytes = fs.readFileSync(file)
  let entries: Array<Entry> | undefined
  try {
    entries = centralDirectory(bytes)
  } catch {
    return { file, bytes: bytes.length, xmlBytes: 0, elements: 0, ms: performance.now() - started, skipped: false, broken: 1 }
  }
  if (entries === undefined) return { file, bytes: bytes.length, xmlBytes: 0, elements: 0, ms: performance.now() - started, skipped: true, broken: 0 }
  let xmlBytes = 0
  let elements = 0
  let broken = 0
  for (const e of entries) {
    if (!/\.(xml|rels)$/i.test(e.name)) continue
    try {
      const counted = floorPart(bytes, e)
      xmlBytes += counted.xmlBytes
      elements += counted.elements
    } catch {
      broken++
    }
  }
  return { file, bytes: bytes.length, xmlBytes, elements, ms: performance.now() - started, skipped: false, broken }
}

function floorPart(bytes: Buffer, e: Entry): { xmlBytes: number; elements: number } {
  let xmlBytes = 0
  let elements = 0
  {
    const at = e.localHeaderOffset
    const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28)
    const data = bytes.subarray(start, start + e.compressedSize)
    const xml = e.method === 8 ? inflateRawSync(data) : data
    xmlBytes += xml.length
    const decoder = new TextDecoder("utf-8")
    const parser = new SaxesParser({ xmlns: true, position: false })
    parser.on("opentag", () => void elements++)
    parser.on("closetag", () => undefined)
    parser.on("text", () => undefined)
    // The same 1 MB steps Sagasu feeds its parser with.
    for (let i = 0; i < xml.length; i += 1 << 20) parser.write(decoder.decode(xml.subarray(i, i + (1 << 20)), { stream: true }))
    parser.write(decoder.decode())
    parser.close()
  }
  return { xmlBytes, elements }
}

const here = fileURLToPath(import.meta.url)

/**
 * Runs the floor over `files` on `processes` child processes (a shared
 * queue, one file at a time per process) and returns each file's figures in
 * the order they finished. Wall time and CPU time are the caller's to take
 * (run it under `/usr/bin/time`, or time the call).
 */
export async function runFloor(files: ReadonlyArray<string>, processes: number): Promise<Array<FloorFile>> {
  const queue = [...files]
  const done: Array<FloorFile> = []
  await Promise.all(
    Array.from({ length: Math.max(1, processes) }, () =>
      new Promise<void>((resolve, reject) => {
        const child = fork(here, ["--child"], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] })
        const next = () => {
          const file = queue.shift()
          if (file === undefined) child.disconnect()
          else child.send(file)
        }
        child.on("message", (m: FloorFile) => {
          done.push(m)
          next()
        })
        child.on("error", reject)
        child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`floor process exited ${code}`))))
        child.once("spawn", next)
      })
    )
  )
  return done
}

if (process.argv[1] !== undefined && here === path.resolve(process.argv[1]) && process.argv[2] === "--child") {
  process.on("message", (file: string) => process.send?.(floorFile(file)))
}

/** `--run LIST_FILE PROCESSES`: the floor over the files listed one per line, its per-file figures as JSON on stdout. */
if (process.argv[1] !== undefined && here === path.resolve(process.argv[1]) && process.argv[2] === "--run") {
  const list = fs.readFileSync(process.argv[3] ?? "", "utf8").split("\n").filter((l) => l !== "")
  const done = await runFloor(list, Number(process.argv[4] ?? 1))
  process.stdout.write(JSON.stringify(done))
}
