/**
 * Which indexes a run updates (R5): the enabled ones, narrowed by the
 * channel's `onlyNames`; every listed name that cannot be updated is reported,
 * never skipped silently.
 *
 * @module
 */
import { Schema } from "effect"
import type { TargetFolder } from "./settings.ts"

/** A name of `onlyNames` that was not updated, and why (`unknown` or `disabled`). */
export const OnlySkipped = Schema.Struct({
  name: Schema.String,
  reason: Schema.Literal("unknown", "disabled")
})
export type OnlySkipped = typeof OnlySkipped.Type

/**
 * The result of {@link selectIndexes}: `none` when there is no enabled index
 * at all, `noneSelected` when names were listed and none can be updated, else
 * `selected` with the indexes in settings order and the skipped names.
 */
export type IndexSelection =
  | { readonly _tag: "none" }
  | { readonly _tag: "noneSelected"; readonly onlySkipped: ReadonlyArray<OnlySkipped> }
  | { readonly _tag: "selected"; readonly selected: ReadonlyArray<TargetFolder>; readonly onlySkipped: ReadonlyArray<OnlySkipped> }

/**
 * Selects the indexes of a run (R5). `onlyNames` empty = every enabled index.
 * Listed names are matched exactly; duplicates count once.
 */
export function selectIndexes(targetFolders: ReadonlyArray<TargetFolder>, onlyNames: ReadonlyArray<string>): IndexSelection {
  const enabled = targetFolders.filter((t) => t.enabled)
  if (onlyNames.length === 0) return enabled.length === 0 ? { _tag: "none" } : { _tag: "selected", selected: enabled, onlySkipped: [] }
  const wanted = new Set(onlyNames)
  const onlySkipped: Array<OnlySkipped> = []
  for (const name of wanted) {
    const folder = targetFolders.find((t) => t.name === name)
    if (folder === undefined) onlySkipped.push({ name, reason: "unknown" })
    else if (!folder.enabled) onlySkipped.push({ name, reason: "disabled" })
  }
  const selected = enabled.filter((t) => wanted.has(t.name))
  return selected.length === 0 ? { _tag: "noneSelected", onlySkipped } : { _tag: "selected", selected, onlySkipped }
}

/** The first selected index whose folder is not there, and the selected ones whose folders are (the way on: `--only` them). */
export interface MissingTargetFolder {
  readonly missing: TargetFolder
  readonly others: ReadonlyArray<string>
}

/**
 * The first selected index whose target folder is missing, with the names of
 * the selected indexes whose folders are there, or `undefined` when every
 * folder is there (R5: a target folder missing is an error, exit 1; issue 16:
 * the message names the way on). `isFolder` asks the disk.
 */
export function findMissingTargetFolder(
  selected: ReadonlyArray<TargetFolder>,
  isFolder: (path: string) => boolean
): MissingTargetFolder | undefined {
  const missing = selected.find((t) => !isFolder(t.path))
  if (missing === undefined) return undefined
  return { missing, others: selected.filter((t) => t !== missing && isFolder(t.path)).map((t) => t.name) }
}
