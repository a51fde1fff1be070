/**
 * Whether R16's update must walk the body index (R12, R16; issue 20): the
 * walk compares every source folder's fingerprint with the 2-gram index —
 * one `readdir` per folder, 1.2–1.5 s of a no-change re-run over 20,000
 * files, and tens of seconds when the folders are not in the page cache. It
 * is skipped only when the last update left an *in-line mark* (the 2-gram
 * index then held exactly the body index) and nothing can have changed
 * since: this run changed nothing, the manifest is the very one the mark
 * names (a round or a newer update replaces it), the fresh log it names has
 * not grown (every publish and removal is noted there first, S1 — a stop or
 * a `kill -9` after a change leaves the note), the machine has not been
 * restarted (the notes are not fsynced: after a power loss a change may be
 * on disk without its note), and the work folder is where the mark was
 * written (a copied, restored or moved work folder's body-index folders
 * have other inodes than the 2-gram index recorded: their lines would not
 * be read until a walk indexes them again).
 *
 * @module
 */
import { Schema } from "effect"

/**
 * Which boot of the machine: `id` the system's boot id where it has one
 * (Linux's `/proc/sys/kernel/random/boot_id`, `""` elsewhere), `bootedAtS`
 * the boot time in seconds since the epoch (now − uptime: a second or two
 * of jitter).
 */
export const BootIdentity = Schema.Struct({ id: Schema.String, bootedAtS: Schema.Number })
export type BootIdentity = typeof BootIdentity.Type

/**
 * The in-line mark (`gram/in-line.json`): the update found the 2-gram index
 * equal to the body index when the manifest's text was `manifest`, its
 * fresh log `freshBytes` long, in the boot `boot`, with the gram folder at
 * `place` (its device and inode, `dev:ino`). A mark of an older version
 * without `place` does not decode: the next update walks once.
 */
export const GramInLineMark = Schema.Struct({
  manifest: Schema.String,
  freshBytes: Schema.Number,
  boot: BootIdentity,
  place: Schema.String
})
export type GramInLineMark = typeof GramInLineMark.Type

/** What the update knows before it walks the body index. */
export interface GramCheckFacts {
  /** Folders this run published or removed (R12's removals of vanished files count). */
  readonly changes: number
  /** The manifest could not be read or is of another format: everything is built anew. */
  readonly rebuild: boolean
  /** The mark as read, `undefined` when missing or not readable as one. */
  readonly mark: GramInLineMark | undefined
  /** The manifest's text now. */
  readonly manifest: string
  /** The size in bytes of the fresh log the manifest names, now. */
  readonly freshBytes: number
  readonly boot: BootIdentity
  /** The gram folder's device and inode now (`dev:ino`). */
  readonly place: string
}

/** Why the walk is needed. */
export type GramWalkReason = "changes" | "rebuild" | "no-mark" | "manifest-replaced" | "log-changed" | "restarted" | "moved"

/** {@link decideGramCheck}'s answer: `Skip` the walk (the 2-gram index is in line), or `Walk` it and why. */
export type GramCheck = { readonly _tag: "Skip" } | { readonly _tag: "Walk"; readonly reason: GramWalkReason }

/**
 * Whether `a` and `b` are the same boot: equal boot ids when both have
 * one, else boot times at most 2 s apart (a restart takes longer than that,
 * and a run has to happen in between).
 */
export function sameBoot(a: BootIdentity, b: BootIdentity): boolean {
  if (a.id !== "" && b.id !== "") return a.id === b.id
  return Math.abs(a.bootedAtS - b.bootedAtS) <= 2
}

/** R12, R16: skip the body-index walk only when the mark says the 2-gram index is in line and nothing can have changed since (see the module). */
export function decideGramCheck(facts: GramCheckFacts): GramCheck {
  const walk = (reason: GramWalkReason): GramCheck => ({ _tag: "Walk", reason })
  if (facts.changes > 0) return walk("changes")
  if (facts.rebuild) return walk("rebuild")
  const mark = facts.mark
  if (mark === undefined) return walk("no-mark")
  if (mark.manifest !== facts.manifest) return walk("manifest-replaced")
  if (mark.freshBytes !== facts.freshBytes) return walk("log-changed")
  if (!sameBoot(mark.boot, facts.boot)) return walk("restarted")
  if (mark.place !== facts.place) return walk("moved")
  return { _tag: "Skip" }
}
