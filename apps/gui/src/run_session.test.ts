/**
 * The server's close and its run (R15, W5): `stopAndWait` asks the run to
 * stop and gives it `closeGrace`; it runs in a scope's finalizer, which is
 * uninterruptible, and there a run that never ends must not hold the close.
 * Time is the TestClock's: nothing here waits on the wall clock.
 */
import { describe, expect, it } from "@effect/vitest"
import { makeChannel } from "@sagasu/ingest"
import { Deferred, Duration, Effect, Fiber, Option, Stream, SubscriptionRef, TestClock } from "effect"
import { closeGrace, stopAndWait } from "./run_session.ts"

describe("stopAndWait() at the server's close (R15, W5)", () => {
  it.effect("a run that never ends: the stop is asked for, and the wait ends after the grace though the finalizer is uninterruptible", () =>
    Effect.gen(function* () {
      const channel = yield* makeChannel()
      // A daemon: were the wait not interruptible, this fiber could never be interrupted at the test's end either.
      const closing = yield* Effect.forkDaemon(Effect.scoped(Effect.addFinalizer(() => stopAndWait(channel, closeGrace))))
      yield* TestClock.adjust(Duration.seconds(119))
      expect(yield* SubscriptionRef.get(channel.stop), "the run was asked to stop").toBe(true)
      expect(Option.isNone(yield* Fiber.poll(closing)), "still within the grace").toBe(true)
      yield* TestClock.adjust(Duration.seconds(1))
      expect(Option.isSome(yield* Fiber.poll(closing)), "the close goes on after two minutes").toBe(true)
      expect(yield* Deferred.isDone(channel.exitCode), "the run itself has not ended").toBe(false)
    }))

  it.effect("a run that ends on the stop: the wait ends with it, before any time passes", () =>
    Effect.gen(function* () {
      const channel = yield* makeChannel()
      // A run's commander: on the stop, its finally step, then exit code 2 (W5).
      yield* Effect.fork(channel.stop.changes.pipe(Stream.filter((s) => s), Stream.take(1), Stream.runDrain, Effect.zipRight(Deferred.succeed(channel.exitCode, 2))))
      const closing = yield* Effect.fork(stopAndWait(channel, closeGrace).pipe(Effect.uninterruptible))
      yield* Fiber.join(closing)
      expect(yield* Deferred.await(channel.exitCode)).toBe(2)
    }))

  it.effect("a run that has ended already is not asked to stop", () =>
    Effect.gen(function* () {
      const channel = yield* makeChannel()
      yield* Deferred.succeed(channel.exitCode, 0)
      yield* stopAndWait(channel, closeGrace)
      expect(yield* SubscriptionRef.get(channel.stop)).toBe(false)
    }))
})
