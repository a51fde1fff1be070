import { NodeContext } from "@effect/platform-node"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import type { WorkPaths } from "../work_paths.ts"
import { publishSourceFolder, stageExtraction } from "../body_index.ts"
import { bruteForce, bruteForceFiles, loadBodyIndex, makeWork, part, publish, randomParts, remove, run, seeded } from "./_test_corpus.ts"
import { bodyFolderAt, stagingCompleteMark } from "./body_walk.ts"
import { sieveFileName, writeFolderSieve } from "./sieve.ts"
import { noteFresh } from "./fresh.ts"
import { readFreshTailSync } from "./fresh_log.ts"
import { readManifestSync } from "./manifest.ts"
import { type GramRound, type GramRoundOptions, openGramRound } from "./round.ts"
import { GramSearcher } from "./searcher.ts"
import { type RoundChanges, updateGramIndexesOfRound } from "./update.ts"

const none: RoundChanges = { published: [], removed: [] }
const queries = ["見積", "見", "請求", "サンプル", "a-1234", "😀", "2024", "データ", "株式会社", "total", "ガイド", "商事 山田"]
// Words that stand apart in a file, excluded words, names (paths, sheet names) and forms (S3, S4).
const fileQueries = ["見積 請求", "サンプル データ -合計", "株式会社 -ガイド", "xlsx 見積", "シート2 データ", "円 見積", "積見", "total 2024 山田"]

const texts = (paths: WorkPaths, query: string) => {
  const s = GramSearcher.open(paths)
  if (s === undefined) return []
  try {
    return s.search(query, { limit: 1000 }).map((h) => `${h.path}:${h.text}`)
  } finally {
    s.close()
  }
}

// Every query gives what a brute-force scan of the body index gives (S1: whatever the round did so far).
const agreesWithBody = (paths: WorkPaths, label: string, asked: ReadonlyArray<string> = queries) => {
  const body = loadBodyIndex(paths)
  const s = GramSearcher.open(paths)
  try {
    for (const q of asked) {
      const got = (s?.search(q, { limit: 100_000 }) ?? []).map((h) => `${h.index}|${h.path}|${h.part}|${h.loc}|${h.text}`).sort()
      expect(got, `${label}: ${q}`).toEqual(bruteForce(body, q))
    }
    // S3: the file-level search too, with words spread over a file and excluded ones (issue 14).
    for (const q of [...asked, ...fileQueries]) {
      const files = (s?.searchFiles(q, { limit: 100_000, locations: 0 }).files ?? []).map((f) => `${f.index}|${f.path}|${f.hits}`).sort()
      expect(files, `${label}: files ${q}`).toEqual(bruteForceFiles(body, q))
    }
  } finally {
    s?.close()
  }
}

// Like agreesWithBody, through one searcher reopened at each call, as the GUI's search thread keeps it.
let kept: GramSearcher | undefined
const agreesThroughReopened = (paths: WorkPaths, label: string) => {
  const body = loadBodyIndex(paths)
  kept = GramSearcher.reopen(paths, kept)
  for (const q of queries) {
    const got = (kept?.search(q, { limit: 100_000 }) ?? []).map((h) => `${h.index}|${h.path}|${h.part}|${h.loc}|${h.text}`).sort()
    expect(got, `${label} (reopened): ${q}`).toEqual(bruteForce(body, q))
  }
}

// The fresh tail's entries (what no live segment holds yet).
const tailLength = (paths: WorkPaths) => {
  const m = readManifestSync(paths.gram)
  return m === undefined ? -1 : (readFreshTailSync(paths.gram, m.fresh, m.freshFrom)?.entries.length ?? -1)
}

// Publishes and removes like a run (each change noted in the fresh log, then the round pinged), inside one scope.
const inRound = <A>(
  paths: WorkPaths,
  options: GramRoundOptions,
  body: (round: GramRound, change: {
    readonly publish: (index: string, rel: string, parts: Parameters<typeof publish>[3]) => Effect.Effect<void>
    readonly remove: (index: string, rel: string) => Effect.Effect<void>
  }) => Effect.Effect<A, unknown>
) =>
  run(Effect.scoped(Effect.gen(function* () {
    const round = yield* openGramRound(paths, options)
    return yield* body(round, {
      publish: (index, rel, parts) => Effect.promise(() => publish(paths, index, rel, parts)).pipe(Effect.zipRight(round.noted)),
      remove: (index, rel) => Effect.promise(() => remove(paths, index, rel)).pipe(Effect.zipRight(round.noted))
    })
  })))

describe("openGramRound(): the 2-gram index kept live while a run ingests (R16, S1)", () => {
  it("makes published files live segments as it goes; at every point a search equals the body index", async () => {
    const paths = await makeWork()
    const random = seeded(21)
    await publish(paths, "共有", "base.xlsx", [part("s", "cell", ["見積 基本"])])
    const generations: Array<number> = []
    await inRound(paths, { flushIntervalMs: 0, mergeFactor: 3, maxRoundSegments: 5 }, (round, change) =>
      Effect.gen(function* () {
        for (let i = 0; i < 24; i++) {
          const rel = `f${i % 9}.xlsx`
          if (i % 7 === 6) yield* change.remove("共有", rel)
          else yield* change.publish("共有", rel, randomParts(random))
          // Right after the change: the fresh tail answers for it.
          agreesWithBody(paths, `after change ${i}`)
          agreesThroughReopened(paths, `after change ${i}`)
          if (i % 3 === 2) {
            yield* round.awaitLive
            expect(tailLength(paths), `tail after ${i}`).toBe(0)
            agreesWithBody(paths, `live after ${i}`)
            agreesThroughReopened(paths, `live after ${i}`)
            generations.push(readManifestSync(paths.gram)?.generation ?? -1)
          }
        }
        // Merged as it goes: at most maxRoundSegments, one more while a file being fed holds pieces in live segments.
        expect(readManifestSync(paths.gram)?.segments.length).toBeLessThanOrEqual(6)
        yield* round.finish(none)
      }))
    expect(new Set(generations).size).toBe(generations.length)
    expect(tailLength(paths)).toBe(0)
    expect(readManifestSync(paths.gram)?.segments.length).toBeLessThanOrEqual(8)
    agreesWithBody(paths, "after finish")
    agreesThroughReopened(paths, "after finish")
    kept?.close()
    kept = undefined
  })

  it("a closed round (a stopped run) makes what it built live and leaves the rest in the tail: nothing published is hidden", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "old.xlsx", [part("s", "cell", ["見積 旧"])])
    await inRound(paths, { flushIntervalMs: 60_000 }, (round, change) =>
      Effect.gen(function* () {
        for (let i = 0; i < 5; i++) yield* change.publish("共有", `n${i}.xlsx`, [part("s", "cell", [`見積 新${i}`])])
        yield* change.remove("共有", "old.xlsx")
        yield* round.close
      }))
    expect(texts(paths, "見積").sort()).toEqual(["n0.xlsx:見積 新0", "n1.xlsx:見積 新1", "n2.xlsx:見積 新2", "n3.xlsx:見積 新3", "n4.xlsx:見積 新4"])
    agreesWithBody(paths, "after close")
    const m = readManifestSync(paths.gram)
    // Whatever the round had consumed is in a segment; the rest is still in the tail.
    expect((m?.segments.reduce((n, s) => n + s.docs, 0) ?? 0) + tailLength(paths)).toBeGreaterThanOrEqual(6)
  })

  it("a file published twice within one interval is found once, in its new version", async () => {
    const paths = await makeWork()
    await inRound(paths, { flushIntervalMs: 60_000 }, (round, change) =>
      Effect.gen(function* () {
        yield* change.publish("共有", "a.xlsx", [part("s", "cell", ["見積 一"])])
        yield* round.awaitLive.pipe(Effect.timeoutOption(50))
        yield* change.publish("共有", "a.xlsx", [part("s", "cell", ["見積 二"])])
        yield* round.close
      }))
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 二"])
  })

  it("S2: a big folder's sieve file lives while the folder is fresh; the round removes it once the folder is live, a completed update all of them", async () => {
    const paths = await makeWork()
    const rows = Array.from({ length: 6000 }, (_, i) => `見積番号 A-${String(i).padStart(5, "0")}`)
    const sieveOf = (rel: string) => {
      const folder = bodyFolderAt(paths.index, "共有", rel)
      if (folder === undefined || !writeFolderSieve(paths.sieves, folder)) throw new Error(`no sieve for ${rel}`)
      return sieveFileName(folder.fingerprint)
    }
    await inRound(paths, { flushIntervalMs: 0 }, (round, change) =>
      Effect.gen(function* () {
        // Published, its sieve written, then the round told (as a run: the worker writes it before the publish).
        yield* Effect.promise(() => publish(paths, "共有", "a.xlsx", [part("s", "cell", rows)]))
        const a = sieveOf("a.xlsx")
        expect(fs.readdirSync(paths.sieves)).toEqual([a])
        expect(texts(paths, "A-03999")).toEqual(["a.xlsx:見積番号 A-03999"])
        yield* round.noted
        yield* round.awaitLive
        expect(tailLength(paths)).toBe(0)
        expect(fs.readdirSync(paths.sieves)).toEqual([])
        yield* change.publish("共有", "b.xlsx", [part("s", "cell", ["請求 B"])])
        yield* round.close
      }))
    // A folder published after the round (a stopped run's last): fresh, with its sieve, found.
    await publish(paths, "共有", "c.xlsx", [part("s", "cell", rows.map((r) => `${r} C`))])
    const c = sieveOf("c.xlsx")
    expect(fs.readdirSync(paths.sieves)).toContain(c)
    expect(texts(paths, "A-00007 C")).toEqual(["c.xlsx:見積番号 A-00007 C"])
    await run(updateGramIndexesOfRound(paths, { published: [{ index: "共有", path: "c.xlsx" }], removed: [] }))
    expect(tailLength(paths)).toBe(0)
    expect(fs.readdirSync(paths.sieves)).toEqual([])
    expect(texts(paths, "A-00007 C")).toEqual(["c.xlsx:見積番号 A-00007 C"])
  })

  it("a file larger than the builder's budget spans live segments and is found whole", async () => {
    const paths = await makeWork()
    const lines = Array.from({ length: 30_000 }, (_, i) => `行 ${i} 見積`)
    await inRound(paths, { flushIntervalMs: 0, builderMemoryBytes: 200_000 }, (round, change) =>
      Effect.gen(function* () {
        yield* change.publish("共有", "big.xlsx", [part("s", "cell", lines)])
        yield* round.awaitLive
        const s = GramSearcher.open(paths)
        try {
          expect(s?.stats.segments).toBeGreaterThan(1)
        } finally {
          s?.close()
        }
        expect(texts(paths, '"行 2999 見積"')).toEqual(["big.xlsx:行 2999 見積"])
        expect(texts(paths, '"行 29999 見積"')).toEqual(["big.xlsx:行 29999 見積"])
        agreesWithBody(paths, "spanning", ['"行 1"', "29"])
        yield* round.finish(none)
      }))
    expect(texts(paths, '"行 0 見積"')).toEqual(["big.xlsx:行 0 見積"])
    agreesWithBody(paths, "after finish", ['"行 1"', "29"])
  })

  it("R14/S1: a done file waiting in its staging folder is found at once; published by a rename, it is not read again", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "a.xlsx", [part("s", "cell", ["見積 旧"])])
    const staging = "publish/t/w1/7"
    const dir = path.join(paths.root, ...staging.split("/"))
    await run(stageExtraction(dir, { parts: [part("s", "cell", ["見積 新"])] }))
    fs.writeFileSync(path.join(dir, stagingCompleteMark), "")
    await inRound(paths, { flushIntervalMs: 0 }, (round) =>
      Effect.gen(function* () {
        yield* noteFresh(paths, [{ op: "~", index: "共有", path: "a.xlsx", staging }])
        // From the fresh tail, the staged folder: the new version, not the published old one.
        expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 新"])
        yield* round.awaitLive
        expect(tailLength(paths)).toBe(0)
        // From a live segment that reads the staging folder.
        expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 新"])
        // A searcher kept open across the publish (its reader looked in the staging folder first).
        const held = GramSearcher.open(paths)
        expect(held?.search("見積").map((h) => h.text)).toEqual(["見積 新"])
        const built = fs.readdirSync(paths.gram).filter((n) => n.endsWith(".docs")).length
        // The rest of its source folder is done: the staged folder is published (a rename).
        yield* publishSourceFolder(paths, "共有", "a.xlsx", dir).pipe(Effect.provide(NodeContext.layer))
        yield* round.awaitLive
        expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 新"])
        const reopened = GramSearcher.reopen(paths, held)
        expect(reopened?.search("見積").map((h) => h.text)).toEqual(["見積 新"])
        reopened?.close()
        // Nothing was read again: no segment beyond the one of the staged version.
        expect(fs.readdirSync(paths.gram).filter((n) => n.endsWith(".docs")).length).toBe(built)
        agreesWithBody(paths, "published")
        yield* round.finish(none)
      }))
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 新"])
    agreesWithBody(paths, "after finish")
  })

  it.each([
    ["the next run's round", "round"],
    ["a completed run's update, the tail past it (one piece live and the file's entry consumed)", "update"]
  ] as const)("S1: a file a round was still reading when killed is read again whole by %s, neither kept in part nor found twice", async (_what, catchUp) => {
    for (const older of [false, true]) {
      const paths = await makeWork()
      if (older) await publish(paths, "共有", "big.xlsx", [part("s", "cell", ["見積 旧版"])])
      await inRound(paths, { flushIntervalMs: 0 }, (round) => round.awaitLive.pipe(Effect.zipRight(round.close)))
      const before = readManifestSync(paths.gram)!
      // The older version's segment files, which the next round deletes with it: kept to put back.
      const kept = fs.readdirSync(paths.gram).filter((n) => before.segments.some((b) => n.startsWith(`${b.id}.`)))
        .map((n) => [n, fs.readFileSync(path.join(paths.gram, n))] as const)
      const lines = Array.from({ length: 30_000 }, (_, i) => `行 ${i} 見積`)
      await inRound(paths, { flushIntervalMs: 0, builderMemoryBytes: 200_000, mergeFactor: 1000 }, (round, change) =>
        change.publish("共有", "big.xlsx", [part("s", "cell", lines)]).pipe(Effect.zipRight(round.awaitLive), Effect.zipRight(round.close)))
      const after = readManifestSync(paths.gram)!
      const pieces = after.segments.filter((s) => !before.segments.some((b) => b.id === s.id))
      expect(pieces.length, "pieces").toBeGreaterThan(2)
      // The moment of the kill: the first piece live, the file's entry still in the tail, the older
      // version not yet deleted (what the manifest said between the first flush and the last).
      const killed = {
        ...after, generation: after.generation + 1, freshFrom: catchUp === "round" ? before.freshFrom : after.freshFrom,
        segments: [...(catchUp === "round" ? before.segments : []), pieces[0]!]
      }
      for (const [n, bytes] of kept) fs.writeFileSync(path.join(paths.gram, n), bytes)
      fs.writeFileSync(path.join(paths.gram, "manifest.json"), JSON.stringify(killed))
      if (catchUp === "round") {
        expect(tailLength(paths)).toBe(1)
        agreesWithBody(paths, `older ${older}: killed`, ['"行 29999 見積"', '"行 0 見積"', "見積"])
        // The next run's round catches up.
        await inRound(paths, { flushIntervalMs: 0 }, (round) => round.awaitLive.pipe(Effect.zipRight(round.close)))
      } else {
        // The first piece alone, taken for the whole file by the update's walk, hid the rest (the chaos campaign's crash part).
        expect(tailLength(paths)).toBe(0)
        await run(updateGramIndexesOfRound(paths, none))
      }
      expect(tailLength(paths)).toBe(0)
      expect(texts(paths, '"行 29999 見積"'), `older ${older}`).toEqual(["big.xlsx:行 29999 見積"])
      expect(texts(paths, '"行 0 見積"'), `older ${older}`).toEqual(["big.xlsx:行 0 見積"])
      agreesWithBody(paths, `older ${older}: caught up`, ['"行 1"', "見積"])
    }
  })

  it("R16: finish with the run's changes reads again only folders that differ from what the round indexed", async () => {
    const paths = await makeWork()
    const summary = await inRound(paths, { flushIntervalMs: 0 }, (round, change) =>
      Effect.gen(function* () {
        yield* change.publish("共有", "a.xlsx", [part("s", "cell", ["見積 a"])])
        yield* change.publish("共有", "b.xlsx", [part("s", "cell", ["見積 b"])])
        yield* round.awaitLive
        // Published at the very end (noted, never pinged): the finish drains it.
        yield* Effect.promise(() => publish(paths, "共有", "c.xlsx", [part("s", "cell", ["見積 c"])]))
        // b's folder changes behind the round's back (its fingerprint with it): the update must see it.
        const b = path.join(paths.index, "共有", "b.xlsx")
        const tsv = fs.readdirSync(b).find((n) => n.endsWith(".tsv")) ?? ""
        fs.writeFileSync(path.join(b, tsv), fs.readFileSync(path.join(b, tsv), "utf8").replace("見積 b", "見積 b2"))
        fs.utimesSync(b, 2_000_000, 2_000_000)
        const published = ["a.xlsx", "b.xlsx", "c.xlsx"].map((p) => ({ index: "共有", path: p }))
        return yield* round.finish({ published, removed: [] })
      }))
    // a, b and c by the round, b once more by the update (it read every published folder again before).
    expect(summary.prebuilt).toBe(3)
    expect(summary.indexed).toBe(4)
    expect(texts(paths, "見積").sort()).toEqual(["a.xlsx:見積 a", "b.xlsx:見積 b2", "c.xlsx:見積 c"])
    agreesWithBody(paths, "after finish")
  })

  it("R16: finish counts the files the round took out with the update's (the log's 削除 said 0 for a removal the round made live)", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "old.xlsx", [part("s", "cell", ["見積 old"])])
    await publish(paths, "共有", "kept.xlsx", [part("s", "cell", ["見積 kept"])])
    await run(updateGramIndexesOfRound(paths, { published: [{ index: "共有", path: "old.xlsx" }, { index: "共有", path: "kept.xlsx" }], removed: [] }))
    const summary = await inRound(paths, { flushIntervalMs: 0 }, (round, change) =>
      Effect.gen(function* () {
        yield* change.remove("共有", "old.xlsx")
        yield* change.publish("共有", "new.xlsx", [part("s", "cell", ["見積 new"])])
        yield* round.awaitLive
        // A file never indexed (a new file that failed): its removal takes nothing out, and is not counted.
        yield* change.remove("共有", "failed-new.xlsx")
        // Removed at the very end (noted, never pinged): the finish drains it.
        yield* Effect.promise(() => remove(paths, "共有", "kept.xlsx"))
        return yield* round.finish({ published: [{ index: "共有", path: "new.xlsx" }], removed: [{ index: "共有", path: "old.xlsx" }, { index: "共有", path: "kept.xlsx" }] })
      }))
    expect(summary.removed).toBe(2)
    expect(summary.indexed).toBe(1)
    expect(texts(paths, "見積")).toEqual(["new.xlsx:見積 new"])
    // A removal behind the round's back (not in its log) is the update's own count, once.
    await publish(paths, "共有", "x.xlsx", [part("s", "cell", ["見積 x"])])
    await run(updateGramIndexesOfRound(paths, { published: [{ index: "共有", path: "x.xlsx" }], removed: [] }))
    fs.rmSync(path.join(paths.index, "共有", "x.xlsx"), { recursive: true })
    const later = await inRound(paths, { flushIntervalMs: 0 }, (round) => round.finish(none))
    expect(later.removed).toBe(1)
    agreesWithBody(paths, "after finish")
  })

  it("leaves at most the update's maxSegments after finish, even when the round took every change (issue 20)", async () => {
    const paths = await makeWork()
    // No merges during the round: each file flushed alone makes one segment.
    const summary = await inRound(paths, { flushIntervalMs: 0, mergeFactor: 1000 }, (round, change) =>
      Effect.gen(function* () {
        for (let i = 0; i < 12; i++) {
          yield* change.publish("共有", `m${i}.xlsx`, [part("s", "cell", [`見積 ${i}`])])
          yield* round.awaitLive
        }
        expect(readManifestSync(paths.gram)?.segments.length).toBe(12)
        const published = Array.from({ length: 12 }, (_, i) => ({ index: "共有", path: `m${i}.xlsx` }))
        return yield* round.finish({ published, removed: [] })
      }))
    expect(summary.prebuilt).toBe(12)
    expect(summary.merges).toBeGreaterThan(0)
    expect(readManifestSync(paths.gram)?.segments.length).toBeLessThanOrEqual(8)
    expect(texts(paths, "見積")).toHaveLength(12)
    agreesWithBody(paths, "after finish")
  })

  it("catches up at open with a tail a killed run left", async () => {
    const paths = await makeWork()
    // A killed run: published and noted, never built.
    for (let i = 0; i < 4; i++) await publish(paths, "共有", `k${i}.xlsx`, [part("s", "cell", [`見積 ${i}`])])
    expect(tailLength(paths)).toBe(4)
    await inRound(paths, { flushIntervalMs: 0 }, (round) => round.awaitLive)
    expect(tailLength(paths)).toBe(0)
    expect(texts(paths, "見積").sort()).toEqual(["k0.xlsx:見積 0", "k1.xlsx:見積 1", "k2.xlsx:見積 2", "k3.xlsx:見積 3"])
  })

  it("ranks the round's files newest first, like an update at the end", async () => {
    const paths = await makeWork()
    const set = (rel: string, seconds: number) => fs.utimesSync(path.join(paths.index, "共有", rel), seconds, seconds)
    await inRound(paths, {}, (round) =>
      Effect.gen(function* () {
        // Told oldest first, as a run publishes.
        for (const [rel, t] of [["a.xlsx", 1_000_000], ["b.xlsx", 2_000_000], ["c.xlsx", 3_000_000]] as const) {
          yield* Effect.promise(() => publish(paths, "共有", rel, [part("s", "cell", [`見積 ${rel}`])]))
          set(rel, t)
          yield* round.noted
        }
        yield* round.finish(none)
      }))
    expect(texts(paths, "見積")).toEqual(["c.xlsx:見積 c.xlsx", "b.xlsx:見積 b.xlsx", "a.xlsx:見積 a.xlsx"])
    expect(readManifestSync(paths.gram)?.segments).toHaveLength(1)
  })
})
