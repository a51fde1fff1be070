/**
 * The team server against a real PostgreSQL started by the test (issue 18):
 * publish, change, delete, a publisher killed mid-file and before its flip
 * then run again, a second publisher refused, row-level security — and the
 * server's hits equal to the local scan's for every query.
 */
import { messages } from "@sagasu/domain"
import type { WorkPaths } from "@sagasu/store"
import { NodeWithWorkStore, scanBodyIndexFiles } from "@sagasu/store/testing"
import { Effect, Exit } from "effect"
import { spawnSync } from "node:child_process"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshDatabase, makeWork, part, passwordEnv, publishBody, removeBody, run } from "./_test_team.ts"
import { grantTeamIndex } from "./access.ts"
import { pgSinkLayer } from "./pg_sink.ts"
import { publishToTeam } from "./publish.ts"
import { describeTeamError, TeamError } from "./team_error.ts"
import { searchTeamFiles } from "./team_search.ts"
import { TeamSink } from "./team_sink.ts"
import { type PrivateCluster, postgresMissing, startPrivateCluster } from "./testing.ts"

const missing = postgresMissing()
if (missing !== undefined) console.warn(`team server tests skipped: ${missing}`)

const here = path.dirname(fileURLToPath(import.meta.url))

const sample = async (paths: WorkPaths) => {
  await publishBody(paths, "共有", "見積/2024/見積書.xlsx", [
    part("見積書", "cell", ["御見積書", "株式会社サガス 御中", "¥123,350", "A－1234 液晶モニター"], ["", "", "123350", ""]),
    part("properties", "property", ["見積書 2024"])
  ])
  await publishBody(paths, "共有", "議事録.docx", [part("document", "paragraph", ["要件について合意した", "次回は山田さんが担当", "ｶﾞｲﾄﾞ ライン", ""])], 1_600_000_000_000)
  await publishBody(paths, "共有", "古い/見積の下書き.pptx", [part("slides", "slide", ["見積の下書き", "テンプレート"])])
  await publishBody(paths, "営業", "顧客.xlsx", [part("顧客一覧", "cell", ["山田太郎", "A-1234", "見", "𠮷野家"])])
}

const queries = [
  "見", "見積", "見積 -テンプレート", "要件 合意", "\"要件について\"", "\"要件 合意\"", "123350", "がいど", "山", "顧客一覧", "2024",
  "index:営業 山", "-index:営業 山", "存在しない", "A-1234", "a－1234", "見積 type:xlsx", "path:古い 見積", "𠮷", "サガス 御中", "御中 -サガス"
]

const page = { limit: 1000, locations: 5 }
const local = (paths: WorkPaths, q: string) => run(scanBodyIndexFiles(paths, q, page))
const server = (settings: Parameters<typeof searchTeamFiles>[0], q: string) => Effect.runPromise(searchTeamFiles(settings, q, page))
const publishAll = (paths: WorkPaths, settings: Parameters<typeof pgSinkLayer>[0], indexes: ReadonlyArray<string> = ["共有", "営業"]) =>
  run(publishToTeam(paths, indexes).pipe(Effect.provide(pgSinkLayer(settings))))
const filesOf = (r: { readonly files: ReadonlyArray<unknown>; readonly totals: unknown }) => ({ files: r.files, totals: r.totals })

describe.skipIf(missing !== undefined)("the team server on PostgreSQL (issue 18)", () => {
  let cluster: PrivateCluster
  beforeAll(async () => {
    cluster = await startPrivateCluster()
  })
  afterAll(() => cluster?.stop())

  it("publishes a body index whose server hits equal the local scan's, query by query", async () => {
    const paths = await makeWork()
    await sample(paths)
    const settings = freshDatabase(cluster)
    const summaries = await publishAll(paths, settings)
    expect(summaries.map((s) => [s.index, s.published, s.removed, s.unchanged, s.generation])).toEqual([["共有", 3, 0, 0, 1], ["営業", 1, 0, 0, 1]])
    for (const q of queries) expect(filesOf(await server(settings, q)), q).toEqual(filesOf(await local(paths, q)))
    // Pages of one file: the files off the page are decided without their text, in the same order.
    for (const q of ["見", "山", "A-1234", "見積 -テンプレート"]) {
      for (const offset of [0, 1, 2]) {
        const o = { limit: 1, offset, locations: 2 }
        const remote = await Effect.runPromise(searchTeamFiles(settings, q, o))
        expect({ ...remote, engine: "scan", problem: "" }, `${q} @${offset}`).toEqual({ ...(await run(scanBodyIndexFiles(paths, q, o))), engine: "scan", problem: "" })
      }
    }
    // Values the test knows, not only agreement: a 1-character query narrows to its files, forms and kana fold.
    expect((await server(settings, "見")).files.map((f) => f.path)).toEqual(["古い/見積の下書き.pptx", "見積/2024/見積書.xlsx", "顧客.xlsx"])
    expect((await server(settings, "123350")).files[0]?.locations[0]?.snippet).toBe("【¥123,350】")
    expect((await server(settings, "がいど")).files[0]?.locations[0]?.snippet).toBe("【ｶﾞｲﾄﾞ】 ライン")
    expect((await server(settings, "見積 -テンプレート")).files.map((f) => f.path)).toEqual(["見積/2024/見積書.xlsx"])
    expect((await server(settings, "見積書")).files[0]?.modifiedMs).toBe(1_700_000_000_000)
    // A second publish with nothing changed changes nothing, not even the generation.
    expect((await publishAll(paths, settings)).map((s) => [s.published, s.removed, s.unchanged, s.generation])).toEqual([[0, 0, 3, 1], [0, 0, 1, 1]])
  })

  it("replaces a changed file whole, removes a deleted one, and shows the change only at the flip", async () => {
    const paths = await makeWork()
    await sample(paths)
    const settings = freshDatabase(cluster)
    await publishAll(paths, settings)
    await publishBody(paths, "共有", "議事録.docx", [part("document", "paragraph", ["要件は持ち越し", "次回は佐藤さん"])])
    await removeBody(paths, "共有", "古い/見積の下書き.pptx")
    // Written but not flipped: readers still see generation 1.
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const sink = yield* TeamSink
          const writer = yield* sink.openIndex("共有")
          yield* writer.publish({ path: "議事録.docx", fingerprint: "x", size: 1, mtimeMs: 1, publishedMs: 1, parts: [{ ...part("document", "paragraph", ["持ち越し"]), file: "1_document.tsv" }] })
          yield* writer.remove(["古い/見積の下書き.pptx"])
        })
      ).pipe(Effect.provide(pgSinkLayer(settings)))
    )
    expect((await server(settings, "持ち越し")).files).toEqual([])
    expect((await server(settings, "下書き")).files.map((f) => f.path)).toEqual(["古い/見積の下書き.pptx"])
    const summaries = await publishAll(paths, settings, ["共有"])
    // The removal is already written at the pending generation; the changed file is sent again (its fingerprint differs).
    expect(summaries.map((s) => [s.published, s.removed, s.unchanged, s.generation])).toEqual([[1, 0, 1, 2]])
    expect((await server(settings, "持ち越し")).files.map((f) => f.locations[0]?.snippet)).toEqual(["要件は【持ち越し】"])
    expect((await server(settings, "合意")).files).toEqual([])
    expect((await server(settings, "下書き")).files).toEqual([])
    for (const q of queries) expect(filesOf(await server(settings, q)), q).toEqual(filesOf(await local(paths, q)))
    // The old versions are gone from the tables once no reader sees them.
    const db = new URL(settings.url).pathname.slice(1)
    expect(cluster.psql("SELECT count(*) FROM sagasu.files WHERE path = '議事録.docx'", db).trim()).toBe("1")
    expect(cluster.psql("SELECT count(*) FROM sagasu.files WHERE path = '古い/見積の下書き.pptx'", db).trim()).toBe("0")
  })

  it("refuses a second publisher of the same index with the lock's message, and lets the other index go", async () => {
    const paths = await makeWork()
    await sample(paths)
    const settings = freshDatabase(cluster)
    await publishAll(paths, settings)
    const second = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const sink = yield* TeamSink
          yield* sink.openIndex("共有")
          // Another process (its own connection) tries the index this one holds, then the other one.
          const child = (indexes: ReadonlyArray<string>) =>
            spawnSync(process.execPath, ["--import", "tsx", path.join(here, "_test_publish_child.ts"), paths.root, JSON.stringify(settings), JSON.stringify(indexes)], {
              encoding: "utf8", env: { ...process.env }
            })
          return { held: child(["共有"]), other: child(["営業"]) }
        })
      ).pipe(Effect.provide(pgSinkLayer(settings)))
    )
    expect(second.held.status).not.toBe(0)
    expect(second.held.stderr).toContain("held")
    expect(second.other.status).toBe(0)
    // In this process, through a second connection: the same refusal as a value, and its sentence is the local lock's.
    const exit = await Effect.runPromiseExit(
      Effect.scoped(
        Effect.gen(function* () {
          const sink = yield* TeamSink
          yield* sink.openIndex("共有")
          yield* publishToTeam(paths, ["共有"]).pipe(Effect.provide(pgSinkLayer(settings)))
        })
      ).pipe(Effect.provide(pgSinkLayer(settings)), Effect.provide(NodeWithWorkStore))
    )
    expect(Exit.isFailure(exit)).toBe(true)
    if (Exit.isFailure(exit)) {
      const error = exit.cause._tag === "Fail" ? exit.cause.error : undefined
      expect(error).toBeInstanceOf(TeamError)
      expect(describeTeamError(error as TeamError, "ja")).toBe(messages("ja").lockHeld)
      expect(describeTeamError(error as TeamError, "ja")).toBe("ほかのインデックス作成が実行中です。インデックス作成が終わってから実行してください。")
    }
  })

  it.each([
    { point: "team.mid-file:2", name: "killed mid-file" },
    { point: "team.before-flip:1", name: "killed before its flip" }
  ])("a publisher $name leaves the server as before; the next publish finishes the job", async ({ point }) => {
    const paths = await makeWork()
    await sample(paths)
    const settings = freshDatabase(cluster)
    await publishAll(paths, settings, ["営業"])
    const before = filesOf(await server(settings, "見"))
    const child = spawnSync(process.execPath, ["--import", "tsx", path.join(here, "_test_publish_child.ts"), paths.root, JSON.stringify(settings), JSON.stringify(["共有"])], {
      encoding: "utf8", env: { ...process.env, SAGASU_CRASH_POINT: point }
    })
    expect(child.signal).toBe("SIGKILL")
    // As before: nothing of 共有 is seen, and no file is there by half.
    expect(filesOf(await server(settings, "見"))).toEqual(before)
    const db = new URL(settings.url).pathname.slice(1)
    const partial = cluster.psql(
      "SELECT count(*) FROM sagasu.files f WHERE NOT EXISTS (SELECT 1 FROM sagasu.lines l WHERE l.file_id = f.id)", db
    ).trim()
    expect(partial).toBe("0")
    const summaries = await publishAll(paths, settings, ["共有"])
    // Files committed before the kill are not sent again.
    const committedBefore = point.startsWith("team.mid-file") ? 1 : 3
    expect(summaries.map((s) => [s.published, s.unchanged, s.generation])).toEqual([[3 - committedBefore, committedBefore, 1]])
    for (const q of queries) expect(filesOf(await server(settings, q)), q).toEqual(filesOf(await local(paths, q)))
  })

  it("shows a member only the indexes granted to a role of theirs, and lets them write nothing", async () => {
    const paths = await makeWork()
    await sample(paths)
    const settings = freshDatabase(cluster)
    await publishAll(paths, settings)
    const db = new URL(settings.url).pathname.slice(1)
    cluster.psql("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'sales') THEN CREATE ROLE sales NOLOGIN; END IF; END $$", db)
    cluster.psql("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'alice') THEN CREATE ROLE alice LOGIN PASSWORD 'alice-pw' IN ROLE sales; END IF; END $$", db)
    cluster.psql("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'bob') THEN CREATE ROLE bob LOGIN PASSWORD 'bob-pw'; END IF; END $$", db)
    process.env.SAGASU_TEST_ALICE = "alice-pw"
    process.env.SAGASU_TEST_BOB = "bob-pw"
    const alice = { url: cluster.url({ user: "alice", database: db }), passwordEnv: "SAGASU_TEST_ALICE", search: true }
    const bob = { url: cluster.url({ user: "bob", database: db }), passwordEnv: "SAGASU_TEST_BOB", search: true }
    expect((await server(alice, "山")).files).toEqual([])
    // Granted to the group role alice is a member of.
    await Effect.runPromise(grantTeamIndex(settings, "営業", "sales", true))
    expect((await server(alice, "山")).files.map((f) => [f.index, f.path])).toEqual([["営業", "顧客.xlsx"]])
    expect((await server(bob, "山")).files).toEqual([])
    const write = spawnSync("psql", [cluster.url({ user: "alice", database: db }), "-c", "DELETE FROM sagasu.lines"], {
      encoding: "utf8", env: { ...process.env, PGPASSWORD: "alice-pw" }
    })
    expect(write.stderr).toContain("permission denied")
    await Effect.runPromise(grantTeamIndex(settings, "営業", "sales", false))
    expect((await server(alice, "山")).files).toEqual([])
    // A wrong password is the server's refusal, said without the password.
    process.env.SAGASU_TEST_BOB = "wrong"
    const refused = await Effect.runPromiseExit(searchTeamFiles(bob, "山"))
    expect(Exit.isFailure(refused) && String(refused.cause)).toContain("password authentication failed")
    expect(String(refused)).not.toContain("wrong")
    expect(passwordEnv).toBe("SAGASU_TEST_TEAM_PASSWORD")
    // No password at all: said so, naming where to put it.
    delete process.env.SAGASU_TEST_BOB
    const none = await Effect.runPromiseExit(searchTeamFiles(bob, "山"))
    const error = Exit.isFailure(none) && none.cause._tag === "Fail" ? none.cause.error : undefined
    expect(error?.reason).toBe("no-password")
    expect(describeTeamError(error as TeamError, "ja")).toContain("環境変数 SAGASU_TEST_BOB に入れるか")
  })
})
