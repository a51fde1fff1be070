import { describe, expect, it } from "vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { searchIndex } from "../search.ts"
import type { SearchHit } from "../search_hit.ts"
import { scanBodyIndex } from "../search_scan.ts"
import type { WorkPaths } from "../work_paths.ts"
import { bruteForce, loadBodyIndex, makeWork, part, publish, randomParts, run, seeded } from "./_test_corpus.ts"
import { GramSearcher } from "./searcher.ts"
import { updateGramIndexesOfRound } from "./update.ts"

const key = (h: SearchHit) => `${h.index}|${h.path}|${h.part}|${h.loc}|${h.text}`
const sortedKeys = (hits: ReadonlyArray<SearchHit>) => hits.map(key).sort()
const noChanges = { published: [], removed: [] }
const all = 1_000_000

const gramSearch = (paths: WorkPaths, query: string, options = {}) => {
  const s = GramSearcher.open(paths)
  if (s === undefined) throw new Error("no gram index")
  try {
    return s.search(query, { limit: all, ...options })
  } finally {
    s.close()
  }
}

// Random substrings of random lines: 1–10 code points, as a quoted phrase.
function sampleQueries(lines: ReadonlyArray<string>, random: () => number, n: number): Array<string> {
  const out: Array<string> = []
  while (out.length < n && lines.length > 0) {
    const cps = Array.from(lines[Math.floor(random() * lines.length)] ?? "")
    if (cps.length === 0) continue
    const len = 1 + Math.floor(random() * Math.min(10, cps.length))
    const start = Math.floor(random() * (cps.length - len + 1))
    out.push(cps.slice(start, start + len).join(""))
  }
  return out
}

describe("gram search agrees with a brute-force scan of the body index (issue 6)", () => {
  it("on seeded random substrings (1–10 characters, 1-character ones too), several segments and merges", async () => {
    const paths = await makeWork()
    const random = seeded(6)
    const lines: Array<string> = []
    for (let round = 0; round < 3; round++) {
      for (let f = 0; f < 12; f++) {
        const parts = randomParts(random)
        for (const p of parts) for (const l of p.lines) lines.push(l.text)
        await publish(paths, f % 3 === 0 ? "共有" : "個人", `r${round}/資料${f}.${["xlsx", "docx", "pptx"][f % 3]}`, parts)
      }
      // Tiny segments so that every round writes several and the policy merges.
      await run(updateGramIndexesOfRound(paths, noChanges, { builderMemoryBytes: 4000, maxSegments: 3 }))
    }
    const queries = sampleQueries(lines, random, 300)
    expect(queries.filter((q) => Array.from(q).length === 1).length).toBeGreaterThan(10)
    const body = loadBodyIndex(paths)
    let nonEmpty = 0
    for (const [i, q] of queries.entries()) {
      const phrase = `"${q}"`
      const expected = bruteForce(body, phrase)
      // The scanning search is the same brute force, reading the files each time.
      if (i % 50 === 0) expect(sortedKeys((await run(scanBodyIndex(paths, phrase, { limit: all }))).hits)).toEqual(expected)
      if (expected.length > 0) nonEmpty++
      expect(sortedKeys(gramSearch(paths, phrase)), JSON.stringify(q)).toEqual(expected)
    }
    expect(nonEmpty).toBeGreaterThan(250)

    // Two terms, an exclusion and filters.
    const pairs = sampleQueries(lines, random, 120)
    for (let i = 0; i + 2 < pairs.length; i += 3) {
      for (const q of [
        `"${pairs[i]}" "${pairs[i + 1]}"`,
        `"${pairs[i]}" -"${pairs[i + 2]}"`,
        `"${pairs[i]}" type:excel`,
        `"${pairs[i]}" index:共有 -path:r1`
      ]) {
        expect(sortedKeys(gramSearch(paths, q)), q).toEqual(bruteForce(body, q))
      }
    }
  }, 60_000)
})

describe("long posting lists (skip tables) give the brute-force answer", () => {
  it("intersects a list of thousands of ids with rare ones, across segments", async () => {
    const paths = await makeWork()
    for (let f = 0; f < 3; f++) {
      const lines = Array.from({ length: 2500 }, (_, i) =>
        `共通の行 ${i}${i % 97 === f ? " 稀な語" : ""}${i % 500 === 7 ? " 珍" : ""}`)
      await publish(paths, "共有", `f${f}.xlsx`, [part("s", "cell", lines)])
      await run(updateGramIndexesOfRound(paths, noChanges, { maxSegments: 2 }))
    }
    const body = loadBodyIndex(paths)
    for (const q of ["稀な語", "共通 稀", "珍", "共通 珍", "行 2499", "の", "123", "共通 -稀 -1 -2 -3 -4 -5 -6 -7 -8"]) {
      expect(sortedKeys(gramSearch(paths, q)), q).toEqual(bruteForce(body, q))
    }
  })
})

describe("S2: a search within a budget, cancelled by a newer one", () => {
  it("stops when cancelled or out of time, says so, and gives the hits it found in order", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "a.xlsx", [part("s", "cell", Array.from({ length: 3000 }, (_, i) => `見積 ${i}`))])
    await run(updateGramIndexesOfRound(paths, noChanges))
    // And as many in the fresh tail, read from the body index.
    await publish(paths, "共有", "b.xlsx", [part("s", "cell", Array.from({ length: 3000 }, (_, i) => `見積 新${i}`))])
    const s = GramSearcher.open(paths)!
    try {
      const whole = s.searchWithin("見積", { limit: all })
      expect(whole.partial).toBe(false)
      expect(whole.hits).toHaveLength(6000)
      // Fresh files first (they are the newest).
      expect(whole.hits[0]?.path).toBe("b.xlsx")
      let looks = 0
      const cut = s.searchWithin("見積", { limit: all }, { cancelled: () => ++looks > 3 })
      expect(cut.partial).toBe(true)
      expect(cut.hits.length).toBeGreaterThan(0)
      expect(cut.hits.length).toBeLessThan(6000)
      expect(cut.hits).toEqual(whole.hits.slice(0, cut.hits.length))
      let t = 0
      const late = s.searchWithin("見積", { limit: all }, { deadline: 2, now: () => t++ })
      expect(late.partial).toBe(true)
      expect(late.hits.length).toBeLessThan(6000)
      // A search that finds its limit first is not partial.
      expect(s.searchWithin("見積", { limit: 10 }, { cancelled: () => true }).partial).toBe(false)
    } finally {
      s.close()
    }
  })
})

describe("search hits (SPEC §5: index, path, location, snippet; --json contract)", () => {
  it("locates a hit in a cell, a paragraph and a slide, with the hit marked", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "見積/見積書.xlsx", [part("見積書", "cell", ["見積番号 Ａ-1234", "株式会社サンプル商事"])])
    await publish(paths, "共有", "議事録.docx", [part("document", "paragraph", ["次回の見積を確認する"])])
    await publish(paths, "共有", "提案.pptx", [part("slides", "slide", ["", "見積の手順"])])
    await run(updateGramIndexesOfRound(paths, noChanges))
    const hits = gramSearch(paths, "a-1234")
    expect(hits).toEqual([{
      index: "共有", path: "見積/見積書.xlsx", part: "見積書", locator: "cell", loc: "A1",
      location: "見積書!A1", text: "見積番号 Ａ-1234", snippet: "見積番号 【Ａ-1234】"
    }])
    expect(gramSearch(paths, "見積").map((h) => h.location).sort()).toEqual(["slide 2", "¶1", "見積書!A1"])
    expect(gramSearch(paths, "見").length).toBe(3) // 1 character, from the index
    expect(gramSearch(paths, "見積 -番号 type:pptx,docx").map((h) => h.path).sort()).toEqual(["提案.pptx", "議事録.docx"])
    expect(gramSearch(paths, "見積", { type: "xlsx" }).map((h) => h.path)).toEqual(["見積/見積書.xlsx"])
    expect(gramSearch(paths, "見積", { index: "他" })).toEqual([])
    expect(gramSearch(paths, "")).toEqual([])
    expect(gramSearch(paths, "存在しない")).toEqual([])
  })

  it("ranks files whose path names the terms first, then newer files, and stops at the limit", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "old.xlsx", [part("s", "cell", ["見積 古い", "見積 古い2"])])
    await publish(paths, "共有", "new.xlsx", [part("s", "cell", ["見積 新しい"])])
    await publish(paths, "共有", "見積書.xlsx", [part("s", "cell", ["見積 名前"])])
    const set = (rel: string, seconds: number) =>
      fs.utimesSync(path.join(paths.index, "共有", rel), seconds, seconds)
    set("old.xlsx", 1_000_000)
    set("new.xlsx", 2_000_000)
    set("見積書.xlsx", 500_000)
    await run(updateGramIndexesOfRound(paths, noChanges))
    expect(gramSearch(paths, "見積").map((h) => h.text)).toEqual(["見積 名前", "見積 新しい", "見積 古い", "見積 古い2"])
    expect(gramSearch(paths, "見積", { limit: 2 }).map((h) => h.text)).toEqual(["見積 名前", "見積 新しい"])
    const result = await run(searchIndex(paths, "見積", { limit: 2 }))
    expect(result.engine).toBe("gram")
    expect(result.limited).toBe(true)
  })

  it("S1: before any update, a published file is found from the fresh tail", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "a.xlsx", [part("s", "cell", ["見積"])])
    const result = await run(searchIndex(paths, "見積"))
    expect(result.engine).toBe("gram")
    expect(result.hits.map((h) => h.location)).toEqual(["s!A1"])
  })

  it("falls back to scanning a body index no manifest describes (written by an older version)", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "a.xlsx", [part("s", "cell", ["見積"])])
    fs.rmSync(paths.gram, { recursive: true })
    const result = await run(searchIndex(paths, "見積"))
    expect(result.engine).toBe("scan")
    expect(result.hits.map((h) => h.location)).toEqual(["s!A1"])
  })
})

// cases.md BUG-28: every spelling of イヴァンカ finds it, and パニック before a space is found.
describe("BUG-28: kana unification and standalone dakuten through the index", () => {
  it.each([
    ["いう\u309Bぁんか", "イヴァンカ"],
    ["イヴァンカ", "イヴァンカ"],
    ["ｲｳﾞｧﾝｶ", "イヴァンカ"],
    ["イウ\u3099ァンカ", "イヴァンカ"],
    ["ゔぁいおりん", "ヴァイオリン"],
    ["パニック", "パニック です"],
    ["ぱにっく", "パニック です"]
  ])("query %j finds %j", async (query, text) => {
    const paths = await sharedBug28()
    expect(gramSearch(paths, query).map((h) => h.text)).toEqual([text])
  })
})
let bug28: Promise<WorkPaths> | undefined
const sharedBug28 = () =>
  (bug28 ??= (async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "a.docx", [part("document", "paragraph", ["イヴァンカ"])])
    await publish(paths, "共有", "b.docx", [part("document", "paragraph", ["ヴァイオリン"])])
    await publish(paths, "共有", "c.docx", [part("document", "paragraph", ["パニック です"])])
    await run(updateGramIndexesOfRound(paths, noChanges))
    return paths
  })())

// cases.md BUG-30: an NFD-named file with NFD text is found by an NFC query, by content and by name; the raw name is shown.
describe("BUG-30: NFD names and text found by an NFC query", () => {
  it("finds both twins by content and by name and shows the name as on disk", async () => {
    const paths = await makeWork()
    const nfc = "テスト_ガイド.docx"
    const nfd = nfc.normalize("NFD")
    expect(nfd).not.toBe(nfc)
    await publish(paths, "共有", nfc, [part("document", "paragraph", ["ガイド本文"])])
    await publish(paths, "共有", `mac/${nfd}`, [part("document", "paragraph", ["ガイド本文".normalize("NFD")])])
    await run(updateGramIndexesOfRound(paths, noChanges))
    const byContent = gramSearch(paths, "ガイド")
    expect(byContent.map((h) => h.path).sort()).toEqual([`mac/${nfd}`, nfc].sort())
    expect(byContent.every((h) => h.snippet.startsWith("【"))).toBe(true)
    const byName = gramSearch(paths, "本文 path:ガイド")
    expect(byName.map((h) => h.path).sort()).toEqual([`mac/${nfd}`, nfc].sort())
    // The hit's path opens the folder as it is on disk.
    for (const h of byName) expect(fs.existsSync(path.join(paths.index, h.index, ...h.path.split("/")))).toBe(true)
  })
})
