/**
 * The in-line mark (`gram/in-line.json`, issue 20): written by R16's update
 * once the 2-gram index holds exactly the body index, read by the next
 * update to skip the body-index walk when nothing can have changed since
 * (the domain's `decideGramCheck` says when). Losing it only costs a walk.
 *
 * Sync `node:fs` here (STYLE 14): the update around it is sync (update.ts);
 * the mark is a few hundred bytes read once per update.
 *
 * @module
 */
import { type BootIdentity, GramInLineMark, type GramCheckFacts } from "@sagasu/domain"
import { Option, Schema } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { manifestPath } from "./manifest.ts"

/** The mark's file name in the gram folder (kept by the garbage collection). */
export const inLineMarkName = "in-line.json"

const decodeMark = Schema.decodeUnknownOption(Schema.parseJson(GramInLineMark))

/**
 * This boot of the machine: Linux's boot id (`""` where there is none) and
 * the boot time in seconds (now − uptime).
 */
export function bootIdentity(): BootIdentity {
  let id = ""
  try {
    id = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim()
  } catch {
    // not Linux: the boot time alone
  }
  return { id, bootedAtS: Math.round(Date.now() / 1000 - os.uptime()) }
}

// The text of a file, "" when it cannot be read (then nothing matches it).
function textOf(file: string): string {
  try {
    return fs.readFileSync(file, "utf8")
  } catch {
    return ""
  }
}

/** Where the gram folder `gramDir` is: its device and inode (`dev:ino`; `""` when it cannot be read). A copy, a restore or a move to another disk gives another. */
export function gramPlace(gramDir: string): string {
  const info = fs.statSync(gramDir, { throwIfNoEntry: false })
  return info === undefined ? "" : `${info.dev}:${info.ino}`
}

/** The size of the fresh log `name` of `gramDir` (0 when missing or unnamed). */
export function freshLogBytes(gramDir: string, name: string): number {
  if (name === "") return 0
  return fs.statSync(path.join(gramDir, name), { throwIfNoEntry: false })?.size ?? 0
}

/**
 * What `decideGramCheck` needs of the gram folder `gramDir` whose manifest
 * names the fresh log `fresh`, besides the run's changes and `rebuild`: the
 * mark (undefined when missing or unreadable), the manifest's text, the
 * log's size, this boot and the folder's place. Never throws.
 */
export function gramCheckFacts(gramDir: string, fresh: string): Omit<GramCheckFacts, "changes" | "rebuild"> {
  return {
    mark: Option.getOrUndefined(decodeMark(textOf(path.join(gramDir, inLineMarkName)))),
    manifest: textOf(manifestPath(gramDir)),
    freshBytes: freshLogBytes(gramDir, fresh),
    boot: bootIdentity(),
    place: gramPlace(gramDir)
  }
}

/**
 * Writes the mark: the 2-gram index of `gramDir` holds exactly the body
 * index now, with the manifest as it is on disk and its log `fresh` as long
 * as it is. Temp file and rename, not fsynced (a restart makes the mark
 * void anyway). Throws on I/O errors.
 */
export function writeInLineMark(gramDir: string, fresh: string): void {
  const mark: GramInLineMark = { manifest: textOf(manifestPath(gramDir)), freshBytes: freshLogBytes(gramDir, fresh), boot: bootIdentity(), place: gramPlace(gramDir) }
  const file = path.join(gramDir, inLineMarkName)
  const temp = `${file}.tmp-${process.pid}`
  fs.writeFileSync(temp, JSON.stringify(mark))
  fs.renameSync(temp, file)
}

/** Removes the mark (before an update that walks: a failed update must leave none). Throws on I/O errors other than a missing mark. */
export function removeInLineMark(gramDir: string): void {
  fs.rmSync(path.join(gramDir, inLineMarkName), { force: true })
}
