/**
 * A publisher in a process of its own, for the tests that kill one
 * (`SAGASU_CRASH_POINT`) or hold a lock across processes (private).
 * Arguments: the work folder, the team server settings (JSON), the indexes (JSON).
 *
 * @module
 */
import { workPaths } from "@sagasu/store"
import { NodeWithWorkStore } from "@sagasu/store/testing"
import { Effect } from "effect"
import { pgSinkLayer } from "./pg_sink.ts"
import { publishToTeam } from "./publish.ts"

const [work = "", server = "{}", indexes = "[]"] = process.argv.slice(2)
const summaries = await Effect.runPromise(
  publishToTeam(workPaths(work), JSON.parse(indexes) as Array<string>).pipe(Effect.provide(pgSinkLayer(JSON.parse(server))), Effect.provide(NodeWithWorkStore))
)
process.stdout.write(JSON.stringify(summaries))
