import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import type { WorkPaths } from "../work_folder.ts"
import { bruteForce, loadBodyIndex, makeWork, part, publish, randomParts, remove, run, seeded } from "./_test_corpus.ts"
import { readManifestSync } from "./manifest.ts"
import { type GramRound, openGramRound } from "./round.ts"
import { GramSearcher } from "./searcher.ts"
import { type RoundChanges, type UpdateGramOptions, updateGramIndexesOfRound } from "./update.ts"

const none: RoundChanges = { published: [], removed: [] }
const queries = ["見積", "見", "請求", "サンプル", "a-1234", "😀", "2024", "データ", "株式会社", "total", "ガイド", "商事 山田"]

const texts = (paths: WorkPaths, query: string) => {
  const s = GramSearcher.open(paths.gram)
  if (s === undefined) return []
  try {
    return s.search(query, { limit: 1000 }).map((h) => `${h.path}:${h.text}`)
  } finally {
    s.close()
  }
}

const agreesWithBody = (paths: WorkPaths) => {
  const body = loadBodyIndex(paths)
  const s = GramSearcher.open(paths.gram)
  try {
    for (const q of queries) {
      const got = (s?.search(q, { limit: 100_000 }) ?? []).map((h) => `${h.index}|${h.path}|${h.part}|${h.loc}|${h.text}`).sort()
      expect(got, q).toEqual(bruteForce(body, q))
    }
  } finally {
    s?.close()
  }
}

// Files of the gram folder that the manifest does not name.
const unnamed = (paths: WorkPaths) => {
  const live = readManifestSync(paths.gram)?.segments.flatMap((s) => [s.id + ".", s.deleted]) ?? []
  return fs.readdirSync(paths.gram).filter((n) => n !== "manifest.json" && !live.some((l) => l !== "" && n.startsWith(l)))
}

// Publishes like a run (awaiting each publish) and tells the round, inside one scope.
const inRound = <A>(
  paths: WorkPaths,
  options: UpdateGramOptions,
  body: (round: GramRound, published: (index: string, rel: string, parts: Parameters<typeof publish>[3]) => Effect.Effect<void>) => Effect.Effect<A, unknown>
) =>
  run(Effect.scoped(Effect.gen(function* () {
    const round = yield* openGramRound(paths, options)
    const published = (index: string, rel: string, parts: Parameters<typeof publish>[3]) =>
      Effect.promise(() => publish(paths, index, rel, parts)).pipe(Effect.zipRight(round.published({ index, path: rel })))
    return yield* body(round, published)
  })))

describe("openGramRound(): the 2-gram update overlapped with ingesting (R16, issue 9)", () => {
  it("builds while files are published, shows nothing before finish, then answers as the body index does", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "base.xlsx", [part("s", "cell", ["見積 基本"])])
    await publish(paths, "共有", "gone.xlsx", [part("s", "cell", ["見積 消える"])])
    await run(updateGramIndexesOfRound(paths, none))
    const generation = readManifestSync(paths.gram)?.generation
    const random = seeded(21)
    const files = Array.from({ length: 14 }, (_, i) => `r/file${i}.${["xlsx", "docx", "pptx"][i % 3]}`)
    const summary = await inRound(paths, { builderMemoryBytes: 3000, maxSegments: 4 }, (round, published) =>
      Effect.gen(function* () {
        for (const f of files) yield* published("共有", f, randomParts(random))
        yield* published("共有", "base.xlsx", [part("s", "cell", ["見積 基本 改"])])
        yield* Effect.promise(() => remove(paths, "共有", "gone.xlsx"))
        // The background fiber has read all of it and written segments (tiny budget).
        yield* round.settled
        expect(readManifestSync(paths.gram)?.generation).toBe(generation)
        expect(texts(paths, "見積").sort()).toEqual(["base.xlsx:見積 基本", "gone.xlsx:見積 消える"])
        expect(fs.readdirSync(paths.gram).some((n) => n.includes("-p"))).toBe(true)
        return yield* round.finish({
          published: [...files, "base.xlsx"].map((p) => ({ index: "共有", path: p })),
          removed: [{ index: "共有", path: "gone.xlsx" }]
        })
      }))
    expect(summary).toMatchObject({ indexed: 15, prebuilt: 15, removed: 1, repaired: 0, rebuilt: false })
    expect(readManifestSync(paths.gram)?.segments.length).toBeLessThanOrEqual(4)
    expect(texts(paths, "基本")).toEqual(["base.xlsx:見積 基本 改"])
    agreesWithBody(paths)
  })

  it("reads a folder again when it changed after the round read it, and takes what the run did not tell it", async () => {
    const paths = await makeWork()
    await inRound(paths, {}, (round, published) =>
      Effect.gen(function* () {
        yield* published("共有", "a.xlsx", [part("s", "cell", ["見積 一回目"])])
        yield* published("共有", "b.xlsx", [part("s", "cell", ["請求 B"])])
        yield* round.settled // both read before a.xlsx changes
        // Published again without telling the round (a repair), and one it never heard of.
        yield* Effect.promise(() => publish(paths, "共有", "a.xlsx", [part("s", "cell", ["見積 二回目"])]))
        yield* Effect.promise(() => publish(paths, "共有", "c.xlsx", [part("s", "cell", ["見積 C"])]))
        const summary = yield* round.finish(none)
        expect(summary).toMatchObject({ indexed: 3, prebuilt: 1, rebuilt: true })
      }))
    expect(texts(paths, "見積").sort()).toEqual(["a.xlsx:見積 二回目", "c.xlsx:見積 C"])
    expect(texts(paths, "請求")).toEqual(["b.xlsx:請求 B"])
    agreesWithBody(paths)
  })

  it("a round never finished (a stopped run) leaves the gram index as it was and removes its files; the next update catches up", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "a.xlsx", [part("s", "cell", ["見積 A"])])
    await run(updateGramIndexesOfRound(paths, none))
    const before = fs.readFileSync(path.join(paths.gram, "manifest.json"), "utf8")
    await inRound(paths, { builderMemoryBytes: 1 }, (round, published) =>
      Effect.gen(function* () {
        for (let i = 0; i < 5; i++) yield* published("共有", `n${i}.xlsx`, [part("s", "cell", [`見積 新${i}`])])
        yield* round.settled
        expect(fs.readdirSync(paths.gram).some((n) => n.includes("-p"))).toBe(true)
      }))
    expect(fs.readFileSync(path.join(paths.gram, "manifest.json"), "utf8")).toBe(before)
    expect(unnamed(paths)).toEqual([])
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 A"])
    expect(await run(updateGramIndexesOfRound(paths, none))).toMatchObject({ indexed: 5, repaired: 5 })
    expect(texts(paths, "見積")).toHaveLength(6)
    agreesWithBody(paths)
  })

  it("a round whose background work failed is dropped; the final update reads everything (and reports its own failure)", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "a.xlsx", [part("s", "cell", ["見積 A"])])
    await run(updateGramIndexesOfRound(paths, none))
    const exit = await run(Effect.exit(Effect.scoped(Effect.gen(function* () {
      const round = yield* openGramRound(paths, {})
      yield* Effect.promise(() => publish(paths, "共有", "b.xlsx", [part("s", "cell", ["見積 B"])]))
      const bad = path.join(paths.index, "共有", "b.xlsx", "9_loop.tsv")
      fs.symlinkSync(bad, bad)
      yield* round.published({ index: "共有", path: "b.xlsx" })
      return yield* round.finish({ published: [{ index: "共有", path: "b.xlsx" }], removed: [] })
    }))))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(JSON.stringify(exit)).toContain("body-index-unreadable")
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 A"])
    expect(unnamed(paths)).toEqual([])
    fs.unlinkSync(path.join(paths.index, "共有", "b.xlsx", "9_loop.tsv"))
    await run(updateGramIndexesOfRound(paths, none))
    expect(texts(paths, "見積").sort()).toEqual(["a.xlsx:見積 A", "b.xlsx:見積 B"])
  })

  it("ranks the round's files newest first, like an update at the end", async () => {
    const paths = await makeWork()
    const set = (rel: string, seconds: number) => fs.utimesSync(path.join(paths.index, "共有", rel), seconds, seconds)
    await inRound(paths, {}, (round, published) =>
      Effect.gen(function* () {
        // Told oldest first, as a run publishes.
        for (const [rel, t] of [["a.xlsx", 1_000_000], ["b.xlsx", 2_000_000], ["c.xlsx", 3_000_000]] as const) {
          yield* Effect.promise(() => publish(paths, "共有", rel, [part("s", "cell", [`見積 ${rel}`])]))
          set(rel, t)
          yield* round.published({ index: "共有", path: rel })
        }
        yield* round.finish(none)
      }))
    expect(texts(paths, "見積")).toEqual(["c.xlsx:見積 c.xlsx", "b.xlsx:見積 b.xlsx", "a.xlsx:見積 a.xlsx"])
    const round = readManifestSync(paths.gram)
    expect(round?.segments).toHaveLength(1)
  })
})
