/**
 * The platform's error for a failed `node:fs` sync call, as the
 * `@effect/platform` FileSystem would give it (same reason, method, path and
 * description), for the few hot paths that call `node:fs` directly (STYLE
 * 14): callers see one error type whichever way a file was written.
 *
 * @module
 */
import { SystemError, type SystemErrorReason } from "@effect/platform/Error"
import * as fs from "node:fs"

const reasons: Readonly<Record<string, SystemErrorReason>> = {
  ENOENT: "NotFound",
  EACCES: "PermissionDenied",
  EPERM: "PermissionDenied",
  EEXIST: "AlreadyExists",
  EISDIR: "BadResource",
  ENOTDIR: "BadResource",
  ELOOP: "BadResource",
  EBUSY: "Busy"
}

/** `e` (thrown by a `node:fs` call of `method` on `path`) as a SystemError. */
export function systemError(method: string, path: string, e: unknown): SystemError {
  const err = e as NodeJS.ErrnoException
  return new SystemError({
    reason: reasons[err?.code ?? ""] ?? "Unknown",
    module: "FileSystem",
    method,
    pathOrDescriptor: path,
    ...(err?.syscall !== undefined ? { syscall: err.syscall } : {}),
    description: err instanceof Error ? err.message : String(e),
    cause: e
  })
}

/**
 * Up to `length` bytes of the open file `fd` from byte `position` (fewer at
 * its end), through `node:fs` sync reads: the gram index's and the body
 * walk's reads by offset on a search's hot path (STYLE 14; a read per
 * posting list or TSV block, where an Effect per read cost more than the
 * read in the cold-search profile). Throws the `node:fs` error. The cold
 * search's readers (gram/segment_reader.ts, gram/searcher.ts and what they
 * open) call `node:fs` synchronously for the same reason, and because the
 * cold search must not load Effect (ARCHITECTURE.md).
 */
export function preadSync(fd: number, length: number, position: number): Uint8Array {
  const buf = new Uint8Array(length)
  let done = 0
  while (done < length) {
    const n = fs.readSync(fd, buf, done, length - done, position + done)
    if (n === 0) break
    done += n
  }
  return done === length ? buf : buf.subarray(0, done)
}
