/**
 * `endOffice` on a process group that does not end on SIGTERM (R15, W4): a
 * LibreOffice frozen or hung in its own shutdown. The owner ends its process
 * from a finalizer and from a hand-over, both uninterruptible; there the
 * 2-second wait after SIGTERM must still run out and SIGKILL follow, or the
 * run's end waits for ever. No LibreOffice needed: a shell that ignores
 * SIGTERM stands in for it. The tests' timeouts only end a hang.
 */
import { Command } from "@effect/platform"
import { NodeContext } from "@effect/platform-node"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Scope } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { endOffice, groupMembers, type OfficeProcess } from "./_soffice.ts"
import { tempDir } from "./_test_support.ts"

/** Process groups started here, killed after each test whatever it did. */
const started: Array<number> = []

/** A stand-in LibreOffice: a process group (a shell and its child) in which SIGTERM is ignored. */
const deafGroup = Effect.gen(function* () {
  const dir = tempDir("end")
  fs.writeFileSync(path.join(dir, "keepalive.txt"), "")
  const scope = yield* Scope.make()
  // `trap '' TERM` is inherited by the child sleep: neither process ends on SIGTERM.
  const proc = yield* Command.start(Command.make("sh", "-c", "trap '' TERM; sleep 600 & wait")).pipe(Scope.extend(scope))
  started.push(proc.pid)
  while (groupMembers(proc.pid).length < 2) yield* Effect.sleep("10 millis")
  const office: OfficeProcess = { generation: 1, dir, url: pathToFileURL(dir).href, process: proc, scope, output: [], files: 0 }
  return office
})

describe("endOffice() on a group that ignores SIGTERM (R15)", () => {
  it.live(
    "kills it after the SIGTERM wait, also when called uninterruptibly (a finalizer, a hand-over)",
    () =>
      Effect.gen(function* () {
        const office = yield* deafGroup
        const members = groupMembers(office.process.pid)
        expect(members.length).toBe(2)
        yield* endOffice(office, "SIGTERM").pipe(Effect.uninterruptible)
        expect(groupMembers(office.process.pid), "the group is gone").toEqual([])
        expect(fs.existsSync(office.dir), "its folder is removed").toBe(false)
      }).pipe(Effect.provide(NodeContext.layer)),
    60_000
  )

  it.live(
    "and in a scope's finalizer",
    () =>
      Effect.gen(function* () {
        let pgid = 0
        yield* Effect.scoped(
          Effect.gen(function* () {
            const office = yield* deafGroup
            pgid = office.process.pid
            yield* Effect.addFinalizer(() => endOffice(office, "SIGTERM"))
          })
        )
        expect(pgid).toBeGreaterThan(0)
        expect(groupMembers(pgid), "the group is gone once the scope closed").toEqual([])
      }).pipe(Effect.provide(NodeContext.layer)),
    60_000
  )
})

/** A group a failed or hung test left is killed after it. */
afterEach(() => {
  for (const pgid of started.splice(0)) {
    try {
      process.kill(-pgid, "SIGKILL")
    } catch {
      // gone already
    }
  }
})
