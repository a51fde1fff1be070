/**
 * Cloud-only detection (SPEC §5): a file whose content is not on the local
 * disk, so reading it would trigger a download. A rule per platform behind one
 * small interface.
 *
 * @module
 */
import type { Stats } from "node:fs"

/** Decides from a file's `lstat` and name whether its content is only in the cloud. */
export type CloudOnlyRule = (stats: Pick<Stats, "size" | "blocks">, name: string) => boolean

/**
 * Linux/macOS rule: allocated blocks 0 with size > 0 (a sparse placeholder
 * left by rclone, OneDrive clients and the like), or a known placeholder name
 * (`*.cloud`, `*.cloudf`, `*.icloud`).
 */
export const posixCloudOnlyRule: CloudOnlyRule = (stats, name) =>
  (stats.size > 0 && stats.blocks === 0) || /\.(cloudf?|icloud)$/i.test(name)

/**
 * Windows rule: Node's `lstat` does not expose the recall-on-access
 * attributes, so only placeholder names are recognised there for now.
 */
export const windowsCloudOnlyRule: CloudOnlyRule = (_stats, name) => /\.(cloudf?|icloud)$/i.test(name)

/** The rule for the platform this process runs on. */
export const platformCloudOnlyRule: CloudOnlyRule =
  process.platform === "win32" ? windowsCloudOnlyRule : posixCloudOnlyRule
