/**
 * The end of the current / last run's log (`indexing_log.txt`, R4) for the
 * page: the last 64 KiB, cut at a line start so no character is split.
 *
 * @module
 */
import type { WorkPaths } from "@sagasu/store"
import { Effect } from "effect"
import * as fs from "node:fs"
import type { LogView } from "./api.ts"

/** Reads the tail of the log (`text` empty when there is no log yet). */
export const readLogTail = (paths: WorkPaths, maxBytes = 64 * 1024): Effect.Effect<LogView> =>
  Effect.sync(() => {
    let fd: number | undefined
    try {
      fd = fs.openSync(paths.log, "r")
      const size = fs.fstatSync(fd).size
      const from = Math.max(0, size - maxBytes)
      const buffer = Buffer.alloc(size - from)
      fs.readSync(fd, buffer, 0, buffer.length, from)
      let text = buffer.toString("utf8").replace(/^\uFEFF/, "")
      if (from > 0) text = text.slice(text.indexOf("\n") + 1)
      return { text, truncated: from > 0 }
    } catch {
      return { text: "", truncated: false }
    } finally {
      if (fd !== undefined) fs.closeSync(fd)
    }
  })
