/**
 * The 2-gram round's thread entry (R16, S1; issue 20): opens the store's
 * round for the work folder it is given and answers the commander's
 * requests (`_gram_protocol.ts`) in order. At a lower OS priority, like the
 * plain workers, so that the commander and a GUI's requests come first.
 *
 * @module
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { type GramRound, GramIndexError, WorkStore, workPaths } from "@sagasu/store"
import { Effect, Either, Exit, Layer, ManagedRuntime, Schema, Scope } from "effect"
import * as os from "node:os"
import { parentPort } from "node:worker_threads"
import { type GramAnswer, GramRequest } from "./_gram_protocol.ts"

try {
  // On Linux this lowers only the calling thread (setpriority applies per thread).
  os.setPriority(10)
} catch {
  // Not allowed here (some containers): run at normal priority.
}

const port = parentPort
if (port === null) throw new Error("gram_worker.ts runs only as a worker thread")
const runtime = ManagedRuntime.make(Layer.merge(NodeContext.layer, WorkStore.Default))
const decode = Schema.decodeUnknownEither(GramRequest)
const answer = (message: GramAnswer) => port.postMessage(message)

let scope: Scope.CloseableScope | undefined
let round: GramRound | undefined
// Requests are handled one after another, in the order they came.
let chain: Promise<void> = Promise.resolve()

const handle = async (request: GramRequest): Promise<void> => {
  switch (request._tag) {
    case "open": {
      scope = await runtime.runPromise(Scope.make())
      const { _tag, root, ...options } = request
      const onProgress = (consumedTo: number) => answer({ _tag: "progress", consumedTo })
      round = await runtime.runPromise(Scope.extend(Effect.flatMap(WorkStore, (store) => store.openGramRound(workPaths(root), { ...options, onProgress })), scope))
      answer({ _tag: "opened", freshLog: round.freshLog ?? null })
      return
    }
    case "noted":
      if (round !== undefined) await runtime.runPromise(round.notedUpTo(request.logBytes))
      return
    case "finish": {
      const r = round
      if (r === undefined) return
      const exit = await runtime.runPromiseExit(r.finish({ published: request.published, removed: request.removed }))
      await closeScope()
      if (Exit.isSuccess(exit)) {
        const s = exit.value
        answer({
          _tag: "finished",
          summary: { indexed: s.indexed, removed: s.removed, prebuilt: s.prebuilt, repaired: s.repaired, rebuilt: s.rebuilt, merges: s.merges, segments: s.segments, generation: s.generation }
        })
      } else {
        const e = exit.cause._tag === "Fail" ? exit.cause.error : undefined
        answer(e instanceof GramIndexError
          ? { _tag: "failed", reason: e.reason, path: e.path, detail: e.detail }
          : { _tag: "failed", reason: "write-failed", path: "", detail: String(exit.cause) })
      }
      return
    }
    case "close":
      if (round !== undefined) await runtime.runPromise(round.close)
      await closeScope()
      answer({ _tag: "closed" })
  }
}

async function closeScope(): Promise<void> {
  const s = scope
  scope = undefined
  round = undefined
  if (s !== undefined) await runtime.runPromise(Scope.close(s, Exit.void))
}

port.on("message", (message: unknown) => {
  const request = decode(message)
  if (Either.isLeft(request)) return
  chain = chain.then(() => handle(request.right)).catch((e: unknown) => {
    // A defect of the round: the commander's finish falls back to an update of its own.
    answer({ _tag: "failed", reason: "write-failed", path: "", detail: `the 2-gram thread failed (${String(e)})` })
  })
})
