/**
 * Reading a source file consistently, whole or piece by piece: a file that is
 * being saved while we read it (Excel writes in place on some shares) would
 * give a zip whose directory and data come from different versions. The size
 * and modification time are taken before and after the read through one open
 * handle; any change fails the file as `unreadable` (the next run retries it)
 * rather than indexing a torn mix.
 *
 * @module
 */
import { fstatSync, openSync, closeSync, readSync } from "node:fs"
import { open } from "node:fs/promises"
import { ExtractError } from "./extract_error.ts"
import type { ZipSource } from "./_zip.ts"

/** An `unreadable` failure in the system's own words (an I/O error's message, or the sentence given). */
export const unreadableError = (e: unknown): ExtractError =>
  new ExtractError({ reason: "unreadable", detail: e instanceof Error ? e.message : String(e) })

/** Opens the file at `path` for synchronous reads; its descriptor. Throws `unreadable` when it cannot be opened. */
export function openForReading(path: string): number {
  try {
    return openSync(path, "r")
  } catch (e) {
    throw unreadableError(e)
  }
}

/**
 * Bytes `start` up to `end` of the file open as `fd`, read synchronously
 * into a buffer of their own (fewer when the file ends first). Throws
 * `unreadable` on an I/O error. The positioned reads of a
 * {@link FileSnapshot} and of an OLE2 file (`_cfb.ts`).
 */
export function readRange(fd: number, start: number, end: number): Uint8Array {
  const bytes = Buffer.allocUnsafe(Math.max(0, end - start))
  let have = 0
  try {
    while (have < bytes.length) {
      const n = readSync(fd, bytes, have, bytes.length - have, start + have)
      if (n === 0) break
      have += n
    }
  } catch (e) {
    throw unreadableError(e)
  }
  return bytes.subarray(0, have)
}

/** Test seam: runs between the read and the second look at the file. */
export interface ReadSnapshotHooks {
  readonly afterRead?: () => Promise<void>
}

/**
 * The bytes of the file at `path`. Fails with `too-large` over `maxBytes`
 * (checked before reading), `unreadable` for I/O errors, a non-regular file,
 * or a file that changed while being read.
 */
export async function readSnapshot(path: string, maxBytes: number, hooks?: ReadSnapshotHooks): Promise<Uint8Array> {
  const handle = await open(path, "r").catch((e: unknown) => {
    throw unreadableError(e)
  })
  try {
    const before = await handle.stat()
    if (!before.isFile()) throw unreadableError(`${path} is not a regular file`)
    if (before.size > maxBytes) {
      throw new ExtractError({ reason: "too-large", detail: `the file has ${before.size} bytes; the limit is ${maxBytes}` })
    }
    const bytes = Buffer.allocUnsafe(before.size)
    let have = 0
    while (have < before.size) {
      const { bytesRead } = await handle.read(bytes, have, before.size - have, have)
      if (bytesRead === 0) break
      have += bytesRead
    }
    // One byte past the end tells a file that grew since stat.
    const { bytesRead: beyond } = await handle.read(Buffer.alloc(1), 0, 1, before.size)
    await hooks?.afterRead?.()
    const after = await handle.stat()
    if (have !== before.size || beyond > 0 || after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
      throw unreadableError(`the file changed while it was being read (${before.size} → ${after.size} bytes); it is retried on the next run`)
    }
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length)
  } catch (e) {
    throw e instanceof ExtractError ? e : unreadableError(e)
  } finally {
    await handle.close().catch(() => undefined)
  }
}

/**
 * A source file open for reading piece by piece ({@link openSnapshot}): a
 * plain worker reads a workbook's parts from it as it inflates them instead
 * of holding the whole file (issue 9).
 */
export interface FileSnapshot {
  /** The file's bytes as they are read; `read` throws `unreadable` on an I/O error. */
  readonly source: ZipSource
  /** Throws `unreadable` when the file changed (size, modification time, or grew) since it was opened. */
  readonly verify: () => void
  /** Closes the file; once only. */
  readonly close: () => void
}

/**
 * Opens the file at `path` for reading piece by piece, with the same checks
 * as {@link readSnapshot}: `too-large` over `maxBytes` (before anything is
 * read), `unreadable` for I/O errors and a non-regular file. Reads are
 * synchronous (a plain worker thread does nothing else meanwhile); call
 * `verify` after the last read, `close` in any case.
 */
export function openSnapshot(path: string, maxBytes: number): FileSnapshot {
  const fd = openForReading(path)
  try {
    const before = fstatSync(fd)
    if (!before.isFile()) throw unreadableError(`${path} is not a regular file`)
    if (before.size > maxBytes) {
      throw new ExtractError({ reason: "too-large", detail: `the file has ${before.size} bytes; the limit is ${maxBytes}` })
    }
    const read = (start: number, end: number): Uint8Array => readRange(fd, start, end)
    const verify = () => {
      let after
      let beyond
      try {
        after = fstatSync(fd)
        // One byte past the end tells a file that grew since it was opened.
        beyond = readSync(fd, Buffer.alloc(1), 0, 1, before.size)
      } catch (e) {
        throw unreadableError(e)
      }
      if (beyond > 0 || after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
        throw unreadableError(`the file changed while it was being read (${before.size} → ${after.size} bytes); it is retried on the next run`)
      }
    }
    let closed = false
    const close = () => {
      if (closed) return
      closed = true
      try {
        closeSync(fd)
      } catch {
        // Nothing was written through it.
      }
    }
    return { source: { size: before.size, read }, verify, close }
  } catch (e) {
    closeSync(fd)
    throw e instanceof ExtractError ? e : unreadableError(e)
  }
}
