// Test helper: takes the lock of the work folder given as argv[2], prints
// "locked" and waits forever, so a test can kill it with SIGKILL (R3).
import { NodeFileSystem } from "@effect/platform-node"
import { Effect } from "effect"
import { acquireLock } from "../lock.ts"
import { workPaths } from "../work_paths.ts"

const work = process.argv[2]
if (work === undefined) throw new Error("usage: hold_lock.ts WORK")
await Effect.runPromise(
  Effect.scoped(
    Effect.gen(function* () {
      yield* acquireLock(workPaths(work))
      console.log("locked")
      yield* Effect.never
    })
  ).pipe(Effect.provide(NodeFileSystem.layer))
)
