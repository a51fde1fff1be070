/**
 * The single-instance lock of a work folder (R3): one indexing run per work
 * folder across processes, freed by the operating system when the process
 * dies (a `kill -9` leaves no stale lock).
 *
 * Linux: a listening abstract Unix socket named from the work folder's
 * identity — its device and inode, so every path that reaches the folder
 * (a symbolic link, a bind mount, `..` forms) names the same lock (issue 15).
 * Windows: a named pipe. Elsewhere: a Unix socket file, whose
 * stale leftover (connection refused) is removed and retaken. Limit: an
 * abstract socket is per network namespace; two runs in different namespaces
 * would not see each other (a pid file is written for diagnostics).
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { inBothLanguages } from "@sagasu/domain"
import { Effect, Schema } from "effect"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import type { WorkPaths } from "./work_paths.ts"

/** The lock is held by another process (`held`), or could not be taken (`failed`). */
export class LockError extends Schema.TaggedError<LockError>()("LockError", {
  reason: Schema.Literal("held", "failed"),
  detail: Schema.String
}) {
  override get message(): string {
    return inBothLanguages((text) => (this.reason === "held" ? text.lockHeldShort : text.lockNotTaken(this.detail)))
  }
}

/**
 * What the lock is named after (R3): the work folder's identity, `dev:<n>:ino:<n>`
 * (the same through a symbolic link or a bind mount), or its resolved real path
 * where the system gives no inode (0) or the folder cannot be stat-ed.
 */
export function lockKey(paths: WorkPaths): string {
  // Sync `node:fs` (STYLE 14): the inode as a bigint, which the platform's FileSystem does not
  // give (its `ino` is a number: 64-bit inodes past 2^53, as on some btrfs and XFS volumes, would
  // round and two folders could name one lock); once per run, and lockAddress stays a plain function.
  try {
    const st = fs.statSync(paths.root, { bigint: true })
    if (st.ino !== 0n) return `dev:${st.dev}:ino:${st.ino}`
  } catch {
    // fall through to the path
  }
  try {
    return `path:${fs.realpathSync.native(paths.root)}`
  } catch {
    return `path:${paths.root}`
  }
}

/** The socket / pipe name of the lock of a work folder, made from {@link lockKey}. */
export function lockAddress(paths: WorkPaths, platform: NodeJS.Platform = process.platform): string {
  const key = createHash("sha256").update(lockKey(paths)).digest("hex").slice(0, 32)
  if (platform === "linux") return `\0sagasu-indexer-${key}`
  if (platform === "win32") return `\\\\.\\pipe\\sagasu-indexer-${key}`
  return path.join(os.tmpdir(), `sagasu-indexer-${key}.sock`)
}

const listen = (address: string) =>
  new Promise<net.Server>((resolve, reject) => {
    const server = net.createServer((socket) => socket.destroy())
    server.once("error", reject)
    server.listen({ path: address, exclusive: true }, () => {
      server.removeListener("error", reject)
      resolve(server)
    })
  })

// A socket file left by a killed process refuses connections: it is stale.
const isStale = (address: string) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ path: address })
    socket.once("connect", () => {
      socket.destroy()
      resolve(false)
    })
    socket.once("error", (e: NodeJS.ErrnoException) => resolve(e.code === "ECONNREFUSED" || e.code === "ENOENT"))
  })

const take = async (address: string): Promise<net.Server> => {
  try {
    return await listen(address)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === "EADDRINUSE" && !address.startsWith("\0") && !address.startsWith("\\\\") && (await isStale(address))) {
      // Sync `node:fs`: inside the socket's promise, between two listens (a stale socket file, not on Linux or Windows).
      fs.rmSync(address, { force: true })
      return await listen(address)
    }
    throw e
  }
}

/**
 * Takes the lock of the work folder for the current scope (R3) and releases
 * it when the scope closes; writes `store/indexer.pid` for diagnostics.
 * Fails with {@link LockError} `held` when another process has it.
 */
export const acquireLock = (paths: WorkPaths) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => take(lockAddress(paths)),
      catch: (e) =>
        new LockError({
          reason: (e as NodeJS.ErrnoException).code === "EADDRINUSE" ? "held" : "failed",
          detail: e instanceof Error ? e.message : String(e)
        })
    }).pipe(
      Effect.tap(() =>
        Effect.flatMap(FileSystem.FileSystem, (files) => files.writeFileString(path.join(paths.store, "indexer.pid"), `${process.pid}\n`)).pipe(
          Effect.ignore // for diagnostics only
        )
      ),
      Effect.withSpan("Store.acquireLock")
    ),
    (server) =>
      Effect.flatMap(FileSystem.FileSystem, (files) => files.remove(path.join(paths.store, "indexer.pid"), { force: true })).pipe(
        Effect.ignore,
        Effect.zipRight(Effect.async<void>((resume) => {
          server.close(() => resume(Effect.void))
        }))
      )
  )

/**
 * Whether another process holds the work folder's lock now (R3): an
 * indexing run started elsewhere (the CLI, another GUI). Connects to the
 * lock's address without taking it; a stale socket file counts as free.
 * For display only (the GUI's "running elsewhere"): a run still takes the
 * lock itself, which is the only guarantee.
 */
export const isLockHeld = (paths: WorkPaths): Effect.Effect<boolean> =>
  Effect.promise(() =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect({ path: lockAddress(paths) })
      socket.once("connect", () => {
        socket.destroy()
        resolve(true)
      })
      socket.once("error", () => resolve(false))
    })
  )
