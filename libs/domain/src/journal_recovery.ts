/**
 * Journal recovery (R7, C1, C3): what the previous run left unfinished.
 *
 * @module
 */
import { type IngestRow, fileKey } from "./ingest_list.ts"
import type { JournalEntry } from "./journal.ts"
import type { StagedFile } from "./publish_plan.ts"

/**
 * `publish`: files with `start` and no `published` — their staged folders
 * are published now if complete (R7, C3); `inFlight`: keys of those whose
 * ingest-list row is still `pending` (or missing), which the next target list
 * puts last (C1); `ended`: the previous run reached its `end` (a clean run).
 */
export interface Recovery {
  readonly publish: ReadonlyArray<StagedFile>
  readonly inFlight: ReadonlySet<string>
  readonly ended: boolean
}

/** Reads the previous run's journal against the ingest list (R7, C1). */
export function recoverFromJournal(entries: ReadonlyArray<JournalEntry>, rows: ReadonlyArray<IngestRow>): Recovery {
  const open = new Map<string, StagedFile>()
  let ended = false
  for (const entry of entries) {
    switch (entry._tag) {
      case "start":
        open.set(fileKey(entry.index, entry.path), { index: entry.index, path: entry.path, staging: entry.staging })
        ended = false
        break
      case "published":
        open.delete(fileKey(entry.index, entry.path))
        break
      case "end":
        ended = true
        break
    }
  }
  const status = new Map(rows.map((r) => [fileKey(r.index, r.path), r.status]))
  const inFlight = new Set<string>()
  for (const [key] of open) {
    const s = status.get(key)
    if (s === undefined || s === "pending") inFlight.add(key)
  }
  return { publish: [...open.values()], inFlight, ended }
}
