import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { type WorkPaths, workPaths } from "../work_paths.ts"
import { bruteForce, bruteForceFiles, loadBodyIndex, makeWork, part, publish, randomParts, remove, run, seeded, tempFolder } from "./_test_corpus.ts"
import { inLineMarkName } from "./in_line_mark.ts"
import { manifestPath, readManifestSync, writeManifestSync } from "./manifest.ts"
import { GramSearcher } from "./searcher.ts"
import { type RoundChanges, type UpdateGramOptions, updateGramIndexesOfRound } from "./update.ts"

const none: RoundChanges = { published: [], removed: [] }
const update = (paths: WorkPaths, changes: RoundChanges = none, options: UpdateGramOptions = {}) =>
  run(updateGramIndexesOfRound(paths, changes, options))

const texts = (paths: WorkPaths, query: string) => {
  const s = GramSearcher.open(paths)
  if (s === undefined) return []
  try {
    return s.search(query, { limit: 1000 }).map((h) => `${h.path}:${h.text}`).sort()
  } finally {
    s.close()
  }
}

// Every query of `queries` gives what a brute-force scan of the body index gives.
const agreesWithBody = (paths: WorkPaths, queries: ReadonlyArray<string>) => {
  const body = loadBodyIndex(paths)
  const s = GramSearcher.open(paths)
  try {
    for (const q of queries) {
      const got = (s?.search(q, { limit: 100_000 }) ?? []).map((h) => `${h.index}|${h.path}|${h.part}|${h.loc}|${h.text}`).sort()
      expect(got, q).toEqual(bruteForce(body, q))
    }
    // S3: the file-level search too, with words spread over a file and excluded ones (issue 14).
    for (const q of [...queries, ...fileQueries]) {
      const files = (s?.searchFiles(q, { limit: 100_000, locations: 0 }).files ?? []).map((f) => `${f.index}|${f.path}|${f.hits}`).sort()
      expect(files, `files ${q}`).toEqual(bruteForceFiles(body, q))
    }
  } finally {
    s?.close()
  }
}

const queries = ["見積", "見", "請求", "サンプル", "a-1234", "😀", "2024", "データ", "株式会社", "total", "ガイド", "商事 山田"]
// Words that stand apart in a file, excluded words, names (paths, sheet names) and forms (S3, S4).
const fileQueries = ["見積 請求", "サンプル データ -合計", "株式会社 -ガイド", "xlsx 見積", "シート2 データ", "円 見積", "積見", "total 2024 山田"]

describe("updateGramIndexesOfRound() indexes only what a round changed (R16)", () => {
  it("adds, changes, removes and renames files across rounds", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "a.xlsx", [part("s", "cell", ["見積 A"])])
    await publish(paths, "共有", "b.xlsx", [part("s", "cell", ["請求 B"])])
    const first = await update(paths, { published: [{ index: "共有", path: "a.xlsx" }, { index: "共有", path: "b.xlsx" }], removed: [] })
    // The first publish made an empty manifest with a fresh log (S1): nothing to rebuild.
    expect(first).toMatchObject({ indexed: 2, removed: 0, repaired: 0, rebuilt: false })
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 A"])

    // Nothing changed: nothing read, no new manifest.
    const generation = readManifestSync(paths.gram)?.generation
    expect(await update(paths)).toMatchObject({ indexed: 0, removed: 0, generation })

    // Add c, change a.
    await publish(paths, "共有", "c.docx", [part("document", "paragraph", ["見積 C"])])
    await publish(paths, "共有", "a.xlsx", [part("s", "cell", ["見積 A2"])])
    const changes = { published: [{ index: "共有", path: "c.docx" }, { index: "共有", path: "a.xlsx" }], removed: [] }
    expect(await update(paths, changes)).toMatchObject({ indexed: 2, removed: 0, repaired: 0, rebuilt: false })
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 A2", "c.docx:見積 C"])

    // Remove b; rename c → d (removed + published).
    await remove(paths, "共有", "b.xlsx")
    await remove(paths, "共有", "c.docx")
    await publish(paths, "共有", "sub/d.docx", [part("document", "paragraph", ["見積 C"])])
    const round3 = {
      published: [{ index: "共有", path: "sub/d.docx" }],
      removed: [{ index: "共有", path: "b.xlsx" }, { index: "共有", path: "c.docx" }]
    }
    expect(await update(paths, round3)).toMatchObject({ indexed: 1, removed: 2, repaired: 0 })
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 A2", "sub/d.docx:見積 C"])
    expect(texts(paths, "請求")).toEqual([])
    agreesWithBody(paths, queries)
  })

  it("repairs a round killed between publish and R16 on the next update", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "a.xlsx", [part("s", "cell", ["見積 A"])])
    await publish(paths, "共有", "b.xlsx", [part("s", "cell", ["請求 B"])])
    await update(paths)
    // A run publishes and removes, then is killed: no update call.
    await publish(paths, "共有", "a.xlsx", [part("s", "cell", ["見積 A 改"])])
    await publish(paths, "共有", "new.xlsx", [part("s", "cell", ["見積 新"])])
    await remove(paths, "共有", "b.xlsx")
    // S1: searches meanwhile see the body index as it is (the fresh tail), not the last manifest's.
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 A 改", "new.xlsx:見積 新"])
    expect(texts(paths, "請求")).toEqual([])
    // The next run changed nothing itself.
    const summary = await update(paths, none)
    expect(summary).toMatchObject({ indexed: 2, removed: 1, repaired: 3, rebuilt: false })
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 A 改", "new.xlsx:見積 新"])
    expect(texts(paths, "請求")).toEqual([])
  })

  it("keeps agreeing with the body index over many random rounds, with deletions, merges and rewrites", async () => {
    const paths = await makeWork()
    const random = seeded(16)
    const files = Array.from({ length: 20 }, (_, i) => `f${i % 4}/file${i}.${["xlsx", "docx", "pptx"][i % 3]}`)
    for (let round = 0; round < 8; round++) {
      const published: Array<{ index: string; path: string }> = []
      const removed: Array<{ index: string; path: string }> = []
      for (const f of files) {
        const r = random()
        if (r < 0.25) {
          await publish(paths, "共有", f, randomParts(random))
          published.push({ index: "共有", path: f })
        } else if (r < 0.35) {
          await remove(paths, "共有", f)
          removed.push({ index: "共有", path: f })
        }
      }
      // Every third round is "killed": the update sees no changes listed.
      await update(paths, round % 3 === 2 ? none : { published, removed }, { builderMemoryBytes: 3000, maxSegments: 3 })
      const m = readManifestSync(paths.gram)
      expect(m?.segments.length).toBeLessThanOrEqual(3)
      agreesWithBody(paths, queries)
      // Nothing the manifest does not name is left behind: segments the merge policy replaced go at once (issue 20: disk).
      const live = m?.segments.flatMap((seg) => [seg.id + ".", ...(seg.deleted === "" ? [] : [seg.deleted])]) ?? []
      const stray = fs.readdirSync(paths.gram).filter((n) => !["manifest.json", inLineMarkName, m?.fresh, "sieves"].includes(n) && !live.some((x) => n === x || n.startsWith(x)))
      expect(stray, `round ${round}`).toEqual([])
    }
  }, 60_000)

  it("rebuilds a damaged manifest or one of another normaliser", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "a.xlsx", [part("s", "cell", ["見積 A"])])
    await update(paths)
    fs.writeFileSync(manifestPath(paths.gram), "{ torn")
    expect(GramSearcher.open.bind(null, paths)).toThrow()
    expect(await update(paths)).toMatchObject({ rebuilt: true, indexed: 1 })
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 A"])
    const m = JSON.parse(fs.readFileSync(manifestPath(paths.gram), "utf8"))
    fs.writeFileSync(manifestPath(paths.gram), JSON.stringify({ ...m, normalizer: "older" }))
    expect(GramSearcher.open(paths)).toBeUndefined()
    expect(await update(paths)).toMatchObject({ rebuilt: true, indexed: 1 })
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 A"])
    // Files of earlier generations are collected on the next update.
    await update(paths, { published: [{ index: "共有", path: "a.xlsx" }], removed: [] })
    await update(paths)
    const names = fs.readdirSync(paths.gram)
    const manifest = readManifestSync(paths.gram)
    const live = manifest?.segments.map((s) => s.id) ?? []
    expect(names).toContain(inLineMarkName) // issue 20: kept, it names the live manifest
    expect(names.filter((n) => n !== "manifest.json" && n !== inLineMarkName && n !== manifest?.fresh && !live.some((id) => n.startsWith(id + ".")))).toEqual([])
  })
})

describe("a run that changed nothing skips the body-index walk while the in-line mark holds (R12, R16, S1; issue 20)", () => {
  // A change made behind the store's back (no note in the fresh log): only a walk finds it, so
  // whether the update repairs it tells whether it walked.
  const unnotedChange = async (paths: WorkPaths) => {
    const dir = path.join(paths.index, "共有", "b.xlsx")
    for (const f of fs.readdirSync(dir)) if (f.endsWith(".tsv")) fs.rmSync(path.join(dir, f))
  }
  const twoFiles = async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "a.xlsx", [part("s", "cell", ["見積 A"])])
    await publish(paths, "共有", "b.xlsx", [part("s", "cell", ["請求 B"])])
    await update(paths, { published: [{ index: "共有", path: "a.xlsx" }, { index: "共有", path: "b.xlsx" }], removed: [] })
    return paths
  }

  it("skips it after an update, and walks again once the mark is gone", async () => {
    const paths = await twoFiles()
    expect(fs.existsSync(path.join(paths.gram, inLineMarkName))).toBe(true)
    await unnotedChange(paths)
    const generation = readManifestSync(paths.gram)?.generation
    // Not walked: the segment still holds b (no deletion, no new manifest).
    expect(await update(paths)).toMatchObject({ indexed: 0, removed: 0, repaired: 0, generation })
    expect(readManifestSync(paths.gram)?.generation).toBe(generation)
    fs.rmSync(path.join(paths.gram, inLineMarkName))
    expect(await update(paths)).toMatchObject({ removed: 1, repaired: 1, generation: generation! + 1 })
    expect(texts(paths, "請求")).toEqual([])
    // The walk found it in line again and left a new mark.
    expect(fs.existsSync(path.join(paths.gram, inLineMarkName))).toBe(true)
  })

  it("walks after a publish or removal noted in the fresh log (a killed run), and after a vanished file's removal (R12)", async () => {
    const paths = await twoFiles()
    await publish(paths, "共有", "c.xlsx", [part("s", "cell", ["見積 C"])]) // noted, then killed: no R16
    expect(await update(paths)).toMatchObject({ indexed: 1, repaired: 1 })
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 A", "c.xlsx:見積 C"])
    await remove(paths, "共有", "c.xlsx")
    expect(await update(paths)).toMatchObject({ removed: 1, repaired: 1 })
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 A"])
    // R12: the run itself removed a vanished file (and something unnoted changed meanwhile).
    await unnotedChange(paths)
    expect(await update(paths, { published: [], removed: [{ index: "共有", path: "gone.xlsx" }] })).toMatchObject({ removed: 1 })
    expect(texts(paths, "請求")).toEqual([])
  })

  it("walks after the manifest was replaced (a stopped run's round) or the mark names another boot", async () => {
    const paths = await twoFiles()
    await unnotedChange(paths)
    const manifest = readManifestSync(paths.gram)!
    writeManifestSync(paths.gram, { ...manifest, generation: manifest.generation + 1 })
    expect(await update(paths)).toMatchObject({ removed: 1, repaired: 1 })
    expect(texts(paths, "請求")).toEqual([])

    await publish(paths, "共有", "b.xlsx", [part("s", "cell", ["請求 B2"])])
    await update(paths, { published: [{ index: "共有", path: "b.xlsx" }], removed: [] })
    await unnotedChange(paths)
    const markFile = path.join(paths.gram, inLineMarkName)
    const mark = JSON.parse(fs.readFileSync(markFile, "utf8"))
    fs.writeFileSync(markFile, JSON.stringify({ ...mark, boot: { id: `${mark.boot.id}-before`, bootedAtS: mark.boot.bootedAtS - 86_400 } }))
    expect(await update(paths)).toMatchObject({ removed: 1, repaired: 1 })
    expect(texts(paths, "請求")).toEqual([])
  })

  it("walks in a copy of the work folder (a backup restored, another disk), whose lines then read again", async () => {
    const paths = await twoFiles()
    const root = path.dirname(paths.gram)
    const copy = workPaths(path.join(tempFolder("sagasu-gram-copy-"), "work"))
    fs.cpSync(root, path.dirname(copy.gram), { recursive: true, preserveTimestamps: true })
    // The copy's body-index folders have other inodes than its 2-gram index recorded: their lines are not read.
    expect(texts(copy, "見積")).toEqual([])
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 A"])
    const generation = readManifestSync(copy.gram)?.generation
    expect(await update(copy)).toMatchObject({ generation: generation! + 1 })
    expect(texts(copy, "見積")).toEqual(["a.xlsx:見積 A"])
    expect(texts(copy, "請求")).toEqual(["b.xlsx:請求 B"])
    // In line again: the next update of the copy skips the walk; the original was never touched.
    expect(await update(copy)).toMatchObject({ indexed: 0, repaired: 0, generation: generation! + 1 })
    expect(readManifestSync(paths.gram)?.generation).toBe(generation)
  })

  it("leaves no mark when the update fails, so the next one walks", async () => {
    const paths = await twoFiles()
    await publish(paths, "共有", "c.xlsx", [part("s", "cell", ["見積 C"])])
    // A TSV that cannot be read (a symlink loop) makes the update fail.
    const bad = path.join(paths.index, "共有", "c.xlsx", "9_loop.tsv")
    fs.symlinkSync(bad, bad)
    expect(fs.existsSync(path.join(paths.gram, inLineMarkName))).toBe(true)
    const error = await run(Effect.flip(updateGramIndexesOfRound(paths, none)))
    expect(error.reason).toBe("body-index-unreadable")
    expect(fs.existsSync(path.join(paths.gram, inLineMarkName))).toBe(false)
    fs.unlinkSync(bad)
    await unnotedChange(paths)
    expect(await update(paths)).toMatchObject({ indexed: 1, removed: 1 })
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 A", "c.xlsx:見積 C"])
    expect(texts(paths, "請求")).toEqual([])
  })
})

describe("readers see a consistent index while an update writes (ARCHITECTURE: 2-gram index)", () => {
  it("a searcher opened before an update goes on answering; it never shows text the body index no longer holds", async () => {
    const paths = await makeWork()
    for (let i = 0; i < 4; i++) await publish(paths, "共有", `f${i}.xlsx`, [part("s", "cell", [`見積 ${i}`])])
    await update(paths, none, { maxSegments: 2 })
    const before = GramSearcher.open(paths)
    try {
      await remove(paths, "共有", "f0.xlsx")
      for (let i = 4; i < 8; i++) {
        await publish(paths, "共有", `f${i}.xlsx`, [part("s", "cell", [`見積 ${i}`])])
        await update(paths, none, { maxSegments: 2, builderMemoryBytes: 1 })
      }
      // Its segments were merged away meanwhile (their files stay open); f0's folder is gone, so is its line.
      expect(before?.search("見積").map((h) => h.text).sort()).toEqual(["見積 1", "見積 2", "見積 3"])
    } finally {
      before?.close()
    }
    expect(texts(paths, "見積")).toHaveLength(7)
  })

  it("a failed update leaves the previous index in force and the next one succeeds", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "a.xlsx", [part("s", "cell", ["見積 A"])])
    await update(paths)
    // A TSV that cannot be read (a symlink loop) makes the update fail.
    await publish(paths, "共有", "b.xlsx", [part("s", "cell", ["見積 B"])])
    const bad = path.join(paths.index, "共有", "b.xlsx", "9_loop.tsv")
    fs.symlinkSync(bad, bad)
    const error = await run(Effect.flip(updateGramIndexesOfRound(paths, none)))
    expect(error.reason).toBe("body-index-unreadable")
    expect(error.message).toContain("body index cannot be read")
    // The previous manifest stays; b comes from the fresh tail, its unreadable TSV left out (S1).
    expect(readManifestSync(paths.gram)?.segments.length).toBe(1)
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 A", "b.xlsx:見積 B"])
    fs.unlinkSync(bad)
    await update(paths)
    expect(texts(paths, "見積")).toEqual(["a.xlsx:見積 A", "b.xlsx:見積 B"])
  })
})
