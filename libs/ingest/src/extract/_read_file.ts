/**
 * Reading a source file whole, consistently: a file that is being saved while
 * we read it (Excel writes in place on some shares) would give a zip whose
 * directory and data come from different versions. The size and modification
 * time are taken before and after the read through one open handle; any
 * change fails the file as `unreadable` (the next run retries it) rather
 * than indexing a torn mix.
 *
 * @module
 */
import { open } from "node:fs/promises"
import { ExtractError } from "./extract_error.ts"

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
  const unreadable = (detail: string) => new ExtractError({ reason: "unreadable", detail })
  const handle = await open(path, "r").catch((e: unknown) => {
    throw unreadable(e instanceof Error ? e.message : String(e))
  })
  try {
    const before = await handle.stat()
    if (!before.isFile()) throw unreadable(`${path} is not a regular file`)
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
      throw unreadable(`the file changed while it was being read (${before.size} → ${after.size} bytes); it is retried on the next run`)
    }
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length)
  } catch (e) {
    throw e instanceof ExtractError ? e : unreadable(e instanceof Error ? e.message : String(e))
  } finally {
    await handle.close().catch(() => undefined)
  }
}
