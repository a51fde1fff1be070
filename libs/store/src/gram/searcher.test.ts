import { describe, expect, it } from "vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { searchIndex } from "../search.ts"
import type { SearchHit } from "../search_hit.ts"
import { scanBodyIndex, scanBodyIndexFiles } from "../search_scan.ts"
import type { WorkPaths } from "../work_paths.ts"
import { bruteForce, bruteForceFiles, loadBodyIndex, makeWork, part, publish, randomParts, run, seeded } from "./_test_corpus.ts"
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

/**
 * Publishes `rounds` rounds of 12 seeded random files (`r<round>/資料<f>.xlsx|docx|pptx`,
 * every third in 共有, the rest in 個人) and updates the gram index after each round
 * but the last `fresh` ones, with tiny segments so that every round writes several and
 * the policy merges. The texts of their lines (and their search-only forms with `forms`),
 * for sampling queries.
 */
async function publishRandomRounds(
  paths: WorkPaths,
  random: () => number,
  options: { readonly rounds: number; readonly fresh: number; readonly forms: boolean }
): Promise<Array<string>> {
  const lines: Array<string> = []
  for (let round = 0; round < options.rounds; round++) {
    for (let f = 0; f < 12; f++) {
      const parts = randomParts(random)
      for (const p of parts) for (const l of p.lines) lines.push(l.text, ...(options.forms && l.forms !== undefined ? [l.forms] : []))
      await publish(paths, f % 3 === 0 ? "共有" : "個人", `r${round}/資料${f}.${["xlsx", "docx", "pptx"][f % 3]}`, parts)
    }
    if (round < options.rounds - options.fresh) await run(updateGramIndexesOfRound(paths, noChanges, { builderMemoryBytes: 4000, maxSegments: 3 }))
  }
  return lines
}

describe("gram search agrees with a brute-force scan of the body index (issue 6)", () => {
  it("on seeded random substrings (1–10 characters, 1-character ones too), several segments and merges", async () => {
    const paths = await makeWork()
    const random = seeded(6)
    const lines = await publishRandomRounds(paths, random, { rounds: 3, fresh: 0, forms: false })
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

const fileKeys = (files: ReadonlyArray<{ index: string; path: string; hits: number }>) => files.map((f) => `${f.index}|${f.path}|${f.hits}`).sort()
const gramFiles = (paths: WorkPaths, query: string, options = {}) => {
  const s = GramSearcher.open(paths)
  if (s === undefined) throw new Error("no gram index")
  try {
    return s.searchFiles(query, { limit: all, locations: 0, ...options })
  } finally {
    s.close()
  }
}

// S3, S4 (issue 14): the file-level search gives, from the segments, from the fresh tail and from the
// scan, what the domain's rules give over the body index read whole.
describe("file-level search agrees with a brute-force scan of the body index (S3, S4, S1)", () => {
  it("words anywhere in the file, exclusions, names and forms; several segments, merges and a fresh tail; the scan; paging", async () => {
    const paths = await makeWork()
    const random = seeded(14)
    // The last round stays in the fresh tail (S1): read from the body index.
    const lines = await publishRandomRounds(paths, random, { rounds: 4, fresh: 1, forms: true })
    const s = GramSearcher.open(paths)!
    expect(s.stats.fresh).toBe(12)
    s.close()
    const body = loadBodyIndex(paths)
    const words = sampleQueries(lines, random, 240).map((w) => w.replace(/["\s\u3000]/g, "")).filter((w) => w !== "" && !w.startsWith("-"))
    const asked: Array<string> = []
    for (let i = 0; i + 3 < words.length; i += 4) {
      asked.push(
        `"${words[i]}"`,
        `${words[i]} ${words[i + 1]}`,
        `${words[i]} ${words[i + 1]} ${words[i + 2]}`,
        `${words[i]} -${words[i + 3]}`,
        `${words[i]} 資料${i % 12}`,
        `シート2 ${words[i + 1]}`,
        `r${i % 4} ${words[i + 2]} type:excel`
      )
    }
    let nonEmpty = 0
    let spread = 0
    for (const [i, q] of asked.entries()) {
      const expected = bruteForceFiles(body, q)
      if (expected.length > 0) nonEmpty++
      const got = gramFiles(paths, q)
      expect(fileKeys(got.files), q).toEqual(expected)
      expect(got.totals, q).toEqual({ files: expected.length, hits: expected.reduce((n, k) => n + Number(k.split("|")[2]), 0), exact: true })
      if (got.files.some((f) => !f.near)) spread++
      if (i % 20 === 0) expect(fileKeys((await run(scanBodyIndexFiles(paths, q, { limit: all, locations: 0 }))).files), q).toEqual(expected)
    }
    expect(nonEmpty).toBeGreaterThan(asked.length / 2)
    // Some files matched with their words in different locations (the point of S3).
    expect(spread).toBeGreaterThan(10)

    // Paging: the pages are disjoint, in order, and together the whole result; the totals are those of the whole.
    for (const q of asked.slice(0, 40)) {
      const whole = gramFiles(paths, q)
      const pages: Array<string> = []
      for (let offset = 0; ; offset += 3) {
        const page = gramFiles(paths, q, { offset, limit: 3 })
        expect(page.totals, q).toEqual(whole.totals)
        pages.push(...page.files.map((f) => `${f.index}|${f.path}`))
        expect(page.more, q).toBe(offset + 3 < whole.files.length)
        if (!page.more) break
      }
      expect(pages, q).toEqual(whole.files.map((f) => `${f.index}|${f.path}`))
    }
  }, 120_000)

  it("a big file cut into pieces across segments is one file: words in different pieces find it, an excluded word in any piece removes it", async () => {
    const paths = await makeWork()
    // Rows enough for several reads of the feed (256 KiB each), so the builder is cut between them.
    const rows = Array.from({ length: 30000 }, (_, i) => `行 ${i} ${"詰め物".repeat(8)}${i === 10 ? " 冒頭語" : ""}${i === 29990 ? " 末尾語" : ""}${i === 15000 ? " 中央語" : ""}`)
    await publish(paths, "共有", "大きい.xlsx", [part("s", "cell", rows), part("t", "cell", ["別の部"])])
    await publish(paths, "共有", "小さい.xlsx", [part("s", "cell", ["冒頭語 だけ"])])
    await run(updateGramIndexesOfRound(paths, noChanges, { builderMemoryBytes: 20_000, maxSegments: 1000 }))
    const s = GramSearcher.open(paths)!
    expect(s.stats.segments).toBeGreaterThan(2)
    expect(s.stats.pieces).toBeGreaterThan(2)
    s.close()
    const body = loadBodyIndex(paths)
    // "t 冒頭語 末尾語": a sheet's name holds a word and no row holds the other two together — the file
    // is decided among the named ones first and found spread out (it was lost between the two passes).
    for (const q of ["冒頭語 末尾語", "冒頭語 別の部", "末尾語 -中央語", "冒頭語 -末尾語", "行 -中央語", "冒頭語", "大きい 末尾語", "t 冒頭語", "t 冒頭語 末尾語"]) {
      expect(fileKeys(gramFiles(paths, q).files), q).toEqual(bruteForceFiles(body, q))
    }
    expect(gramFiles(paths, "冒頭語 末尾語").files.map((f) => [f.path, f.hits])).toEqual([["大きい.xlsx", 2]])
    // S2: the totals' deadline never cuts the page short, also while a big file's pieces are read (a
    // one-letter query over a work folder with a big workbook found nothing, "out of time", after 50 ms).
    const s2 = GramSearcher.open(paths)!
    try {
      let t = 0
      // 行 stands in every row of the big file: reading its pieces takes many steps of the clock.
      const page = s2.searchFiles("行", { limit: 20, countDeadline: 0 }, { now: () => t++ })
      expect([page.partial, fileKeys(page.files)]).toEqual([false, bruteForceFiles(body, "行")])
    } finally {
      s2.close()
    }
  }, 60_000)
})

describe("file-level results (S5): each file once, its best located hits, names, dates, order", () => {
  it("finds words in different paragraphs, leaves out a file with an excluded word, shows each word where it stands", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "議事録/4月.docx", [part("document", "paragraph", ["出席者: 山田、佐藤", "議題: 予算", "決定事項: 予算は据え置き"])])
    await publish(paths, "共有", "議事録/5月.docx", [part("document", "paragraph", ["出席者: 山田", "決定事項: 下書きのまま"])])
    await publish(paths, "共有", "メモ.docx", [part("document", "paragraph", ["山田の決定事項"])])
    await run(updateGramIndexesOfRound(paths, noChanges))
    const got = gramFiles(paths, "山田 決定事項", { locations: 3 })
    // The file with both words in one paragraph first (near), then the others, newest first.
    expect(got.files.map((f) => [f.path, f.hits, f.near])).toEqual([["メモ.docx", 1, true], ["議事録/5月.docx", 2, false], ["議事録/4月.docx", 2, false]])
    expect(got.files[2]?.locations.map((h) => [h.location, h.snippet])).toEqual([["¶1", "出席者: 【山田】、佐藤"], ["¶3", "【決定事項】: 予算は据え置き"]])
    expect(got.totals).toEqual({ hits: 5, files: 3, exact: true })
    expect(gramFiles(paths, "山田 決定事項 -下書き").files.map((f) => f.path)).toEqual(["メモ.docx", "議事録/4月.docx"])
    // The path is a location of its own: a folder name and a word of the text.
    const named = gramFiles(paths, "議事録 予算", { locations: 3 })
    expect(named.files.map((f) => f.path)).toEqual(["議事録/4月.docx"])
    expect(named.files[0]?.locations[0]).toMatchObject({ locator: "name", location: "name", text: "議事録/4月.docx", snippet: "【議事録】/4月.docx" })
    expect(named.files[0]?.nameTerms).toBe(1)
    // A file whose name holds every word is found with no word in its text.
    expect(gramFiles(paths, "4月").files.map((f) => [f.path, f.hits])).toEqual([["議事録/4月.docx", 1]])
  })

  it("finds a sheet name, a number by its plain value and a date as typed (S4), and shows what Excel shows", async () => {
    const paths = await makeWork()
    await publish(paths, "共有", "見積.xlsx", [
      { name: "御見積書", locator: "cell", state: "visible", lines: [{ loc: "B3", text: "¥123,350", forms: "123350" }, { loc: "C4", text: "2009年9月4日", forms: "2009/9/4 2009/09/04 2009-09-04" }] },
      { name: "properties", locator: "property", state: "visible", lines: [{ loc: "title", text: "四半期の報告" }] }
    ])
    await run(updateGramIndexesOfRound(paths, noChanges))
    const one = (q: string) => gramFiles(paths, q, { locations: 3 }).files.map((f) => f.locations.map((h) => `${h.location} ${h.snippet}`))
    expect(one("123350")).toEqual([["御見積書!B3 【¥123,350】"]])
    expect(one("2009/9/4")).toEqual([["御見積書!C4 【2009年9月4日】"]])
    expect(one("2009-09-04 123350")).toEqual([["御見積書!B3 【¥123,350】", "御見積書!C4 【2009年9月4日】"]])
    expect(one("見積書 123,350")).toEqual([["sheet:御見積書 御【見積書】", "御見積書!B3 ¥【123,350】"]])
    expect(one("四半期")).toEqual([["property:title 【四半期】の報告"]])
    // The forms are searched, never shown, and a word never spans the text and the forms.
    expect(one("350 123")).toEqual([["御見積書!B3 ¥【123】,【350】"]])
    expect(one('"日 2009"')).toEqual([])
  })

  it("orders by date, filters by folder, type, indexes and dates", async () => {
    const paths = await makeWork()
    const stamped = async (index: string, rel: string, text: string, mtimeMs: number) => {
      await publish(paths, index, rel, [part("s", "cell", [text])])
      fs.writeFileSync(path.join(paths.index, index, ...rel.split("/"), ".complete"), `size\t${text.length * 100}\nmodified\t${mtimeMs}\n`)
    }
    await stamped("共有", "a/古い.xlsx", "見積", Date.UTC(2020, 0, 1))
    await stamped("共有", "b/新しい.docx", "見積", Date.UTC(2024, 0, 1))
    await stamped("個人", "a/中.xlsx", "見積", Date.UTC(2022, 0, 1))
    await run(updateGramIndexesOfRound(paths, noChanges))
    const order = (options = {}) => gramFiles(paths, "見積", options).files.map((f) => f.path)
    expect(order({ sort: "modified" })).toEqual(["b/新しい.docx", "a/中.xlsx", "a/古い.xlsx"])
    expect(gramFiles(paths, "見積", { sort: "modified", limit: 1, offset: 1 }).files.map((f) => [f.path, f.modifiedMs, f.size])).toEqual([["a/中.xlsx", Date.UTC(2022, 0, 1), 200]])
    expect(order({ folder: "a" }).sort()).toEqual(["a/中.xlsx", "a/古い.xlsx"])
    expect(order({ type: "word" })).toEqual(["b/新しい.docx"])
    expect(order({ type: "xls" })).toEqual([])
    expect(order({ index: ["個人", "他"] })).toEqual(["a/中.xlsx"])
    expect(order({ modifiedFrom: Date.UTC(2021, 0, 1), modifiedTo: Date.UTC(2023, 0, 1) })).toEqual(["a/中.xlsx"])
    const scanned = await run(scanBodyIndexFiles(paths, "見積", { sort: "modified", limit: all, locations: 0 }))
    expect(scanned.files.map((f) => f.path)).toEqual(["b/新しい.docx", "a/中.xlsx", "a/古い.xlsx"])
  })

  it("S2: stops counting the totals at their deadline, the page complete; cancelled, says partial", async () => {
    const paths = await makeWork()
    for (let f = 0; f < 30; f++) await publish(paths, "共有", `f${f}.xlsx`, [part("s", "cell", Array.from({ length: 200 }, (_, i) => `見積 ${i}`))])
    await run(updateGramIndexesOfRound(paths, noChanges))
    const s = GramSearcher.open(paths)!
    try {
      let t = 0
      const counted = s.searchFiles("見積", { limit: 2, countDeadline: 5 }, { now: () => t++ })
      expect(counted.files).toHaveLength(2)
      expect(counted.partial).toBe(false)
      expect(counted.totals.exact).toBe(false)
      expect(counted.totals.files).toBeLessThan(30)
      expect(counted.totals.files).toBeGreaterThan(2)
      expect(s.searchFiles("見積", { limit: 2 }).totals).toEqual({ files: 30, hits: 6000, exact: true })
      expect(s.searchFiles("見積", { limit: 2, totals: false }).totals.exact).toBe(false)
      let looks = 0
      const cut = s.searchFiles("見積", { limit: 100 }, { cancelled: () => ++looks > 1 })
      expect(cut.partial).toBe(true)
      expect(cut.files.length).toBeLessThan(30)
    } finally {
      s.close()
    }
  })
})
