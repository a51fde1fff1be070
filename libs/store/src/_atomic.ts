import { FileSystem } from "@effect/platform"
import { Effect } from "effect"
import * as nodeFs from "node:fs"

/**
 * Writes a small file atomically (STYLE rule 7): write `<path>.tmp-<pid>`,
 * flush it to disk (unless `sync: false`), rename it over `path`. A reader sees the old or the new
 * content, never a mix; a crash leaves at most a stray temp file.
 */
export const writeFileAtomic = Effect.fn("Store.writeFileAtomic")(function* (
  file: string,
  data: string | Uint8Array,
  options: { readonly sync?: boolean } = {}
) {
  const fs = yield* FileSystem.FileSystem
  const temp = `${file}.tmp-${process.pid}`
  yield* Effect.scoped(
    Effect.gen(function* () {
      const handle = yield* fs.open(temp, { flag: "w" })
      const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data
      if (bytes.length > 0) yield* handle.writeAll(bytes)
      if (options.sync !== false) yield* handle.sync
    })
  )
  yield* fs.rename(temp, file)
})

/**
 * {@link writeFileAtomic} without the flush, synchronous (STYLE 14): for a small file rewritten
 * often on the run's per-file path (`progress.json`, P2: twice a file). Throws the system's error.
 */
export function writeFileAtomicSync(file: string, data: string): void {
  const temp = `${file}.tmp-${process.pid}`
  nodeFs.writeFileSync(temp, data)
  nodeFs.renameSync(temp, file)
}
