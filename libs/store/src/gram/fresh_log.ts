/**
 * The fresh log (S1: every published folder is findable within seconds, in
 * every state). The commander appends one entry per body-index folder it is
 * about to publish (`+`) or remove (`-`), *before* it does so; the manifest
 * names the log and the byte offset `freshFrom` from which its entries are
 * in no segment yet. A search masks those source files in the segments and
 * reads them from the body index itself — the tail is short, because the
 * 2-gram round turns it into a live segment every few seconds (round.ts).
 *
 * Writing the entry before the folder changes makes every order of crash
 * safe: an entry whose publish never happened names a folder that is as
 * before (or absent), which the search then reads as it is. Entries are
 * appended with one `write` each (O_APPEND) and never fsynced: a killed
 * process loses nothing the page cache holds; after a power loss the next
 * update's fingerprint walk repairs the rest (R16).
 *
 * ```
 * ~\t<index>\t<path>\t<staging>\n   <index>/<path> is done: its TSVs are staged, complete, in
 *                                    <staging> (relative to the work folder), waiting for the rest of
 *                                    its source folder before they are published (R14)
 * +\t<index>\t<path>\n              the folder of <index>/<path> is being published
 * -\t<index>\t<path>\n              … is being removed
 * ```
 * (fields escaped as in the body index's TSVs; a line without its `\n` is
 * one being written and is not read yet.)
 *
 * Sync `node:fs` here (STYLE 14): the cold search reads the tail
 * (Effect-free, ARCHITECTURE.md); a note is appended once per published or
 * done file, where an append through the platform's FileSystem took 135–300
 * µs against 10–16 µs (journal_store.ts).
 *
 * @module
 */
import { escapeTsvField, unescapeTsvField } from "@sagasu/domain"
import * as fs from "node:fs"
import * as path from "node:path"
import { docKey } from "./body_walk.ts"

/** One entry of the fresh log. */
export interface FreshEntry {
  readonly op: "+" | "-" | "~"
  readonly index: string
  /** Relative to the index folder, `/`-separated. */
  readonly path: string
  /** For `~`: the staging folder, relative to the work folder, `/`-separated. */
  readonly staging?: string
}

/** The name of the `n`th fresh log (numbered by the generation that started it). */
export function freshLogName(n: number): string {
  return `fresh-${String(n).padStart(6, "0")}.log`
}

/** The bytes of `entries` as log lines. */
export function formatFreshEntries(entries: ReadonlyArray<FreshEntry>): string {
  let s = ""
  for (const e of entries) {
    s += `${e.op}\t${escapeTsvField(e.index)}\t${escapeTsvField(e.path)}${e.op === "~" ? `\t${escapeTsvField(e.staging ?? "")}` : ""}\n`
  }
  return s
}

/**
 * Appends `entries` to the log `name` of `gramDir` in one write. Sync, a few
 * microseconds; throws on I/O errors (the caller's publish must then not go
 * ahead: a folder no entry names would stay unfindable until R16).
 */
export function appendFreshSync(gramDir: string, name: string, entries: ReadonlyArray<FreshEntry>): void {
  if (entries.length === 0) return
  fs.appendFileSync(path.join(gramDir, name), formatFreshEntries(entries))
}

/** The entries of a log from byte `from` on, and the offset after the last whole line read. */
export interface FreshTail {
  readonly entries: ReadonlyArray<FreshEntry>
  /** Byte offset after the last complete line. */
  readonly end: number
  /** Byte offset after each entry (for a round that consumes them one by one). */
  readonly ends: ReadonlyArray<number>
}

/**
 * Reads the log `name` of `gramDir` from byte `from` (up to byte `to`):
 * its complete lines as entries. `undefined` when the log is missing (a
 * newer manifest replaced it: read that one). Throws on other I/O errors.
 */
export function readFreshTailSync(gramDir: string, name: string, from: number, to = Infinity): FreshTail | undefined {
  if (name === "") return { entries: [], end: from, ends: [] }
  let bytes: Buffer
  const file = path.join(gramDir, name)
  let fd: number
  try {
    fd = fs.openSync(file, "r")
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw e
  }
  try {
    const size = Math.min(to, fs.fstatSync(fd).size)
    if (size <= from) return { entries: [], end: from, ends: [] }
    bytes = Buffer.alloc(size - from)
    let done = 0
    while (done < bytes.length) {
      const n = fs.readSync(fd, bytes, done, bytes.length - done, from + done)
      if (n === 0) break
      done += n
    }
    bytes = bytes.subarray(0, done)
  } finally {
    fs.closeSync(fd)
  }
  const entries: Array<FreshEntry> = []
  const ends: Array<number> = []
  let at = 0
  for (;;) {
    const nl = bytes.indexOf(0x0a, at)
    if (nl < 0) break
    const line = bytes.toString("utf8", at, nl)
    at = nl + 1
    const [op, index, rel, staging] = line.split("\t")
    if ((op === "+" || op === "-") && index !== undefined && rel !== undefined) {
      entries.push({ op, index: unescapeTsvField(index), path: unescapeTsvField(rel) })
      ends.push(from + at)
    } else if (op === "~" && index !== undefined && rel !== undefined && staging !== undefined && staging !== "") {
      entries.push({ op, index: unescapeTsvField(index), path: unescapeTsvField(rel), staging: unescapeTsvField(staging) })
      ends.push(from + at)
    }
  }
  return { entries, end: from + at, ends }
}

/**
 * The source files a tail names, by key, with the last entry of each
 * (a file published then removed is removed; removed then published,
 * published; done and staged then published, published).
 */
export function lastEntries(entries: ReadonlyArray<FreshEntry>): Map<string, FreshEntry> {
  const out = new Map<string, FreshEntry>()
  for (const e of entries) {
    const key = docKey(e.index, e.path)
    out.delete(key)
    out.set(key, e)
  }
  return out
}
