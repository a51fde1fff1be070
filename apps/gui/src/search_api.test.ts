
import { Effect, Exit, Scope } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { SearchView } from "./api.ts"
import { apiCall, indexedGuiServer } from "./_test_api.ts"
import { writeSearchSamples } from "./_test_samples.ts"
import type { GuiServer } from "./server.ts"

const reports = 45

describe("GET /api/search: files, words anywhere, names, properties, typed forms, pages (issue 14)", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-gui-search-"))
  const scope = Effect.runSync(Scope.make())
  let server: GuiServer

  const call = <A>(target: string, init: { method?: string; body?: unknown } = {}) => apiCall<A>(server, target, init)
  const search = async (q: string, extra: Record<string, string> = {}) => {
    const reply = await call<SearchView>(`/api/search?${new URLSearchParams({ q, ...extra })}`)
    expect(reply.status).toBe(200)
    return reply.body
  }

  beforeAll(async () => {
    const samples = path.join(root, "samples")
    await writeSearchSamples(samples, reports)
    const indexed = await indexedGuiServer(path.join(root, "work"), samples, scope)
    server = indexed.server
    // The run asks first (R10); the page answers ［開始］.
    expect(indexed.run).toEqual({ started: 200, exitCode: 0 })
  }, 300_000)

  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    fs.rmSync(root, { recursive: true, force: true })
  })

  const paths = (view: SearchView) => view.files.map((f) => f.path)
  const marked = (view: SearchView, file: string) =>
    view.files.find((f) => f.path === file)?.locations.map((l) => [l.location, l.snippet.filter((p) => p.hit).map((p) => p.text)])

  it("S3: words in different paragraphs find the file, each shown where it stands; -word leaves a file out", async () => {
    const both = await search("山田 前倒し")
    expect(paths(both)).toEqual(["議事録/定例会_0329.docx"])
    expect(marked(both, "議事録/定例会_0329.docx")).toEqual([["¶1", ["山田"]], ["¶3", ["前倒し"]]])
    expect(both.totals).toEqual({ hits: 2, files: 1, exact: true })

    expect(new Set(paths(await search("山田 決定事項")))).toEqual(new Set(["議事録/定例会_0329.docx", "議事録/定例会_0405.docx"]))
    expect(paths(await search("山田 -鈴木"))).toEqual(["議事録/定例会_0329.docx"])
    // Only -words: looked for as text, and the page is told so (it then says how to exclude).
    const onlyExcluded = await search("-鈴木")
    expect([onlyExcluded.files, onlyExcluded.exclusionsAsText]).toEqual([[], true])
    expect(both.exclusionsAsText).toBe(false)
  })

  it("S3: 「」 text pasted as it stands is text, not quotes", async () => {
    const view = await search("「承認」ボタンを押す")
    expect(paths(view)).toEqual(["操作手順書.docx"])
    expect(marked(view, "操作手順書.docx")).toEqual([["¶1", ["「承認」ボタンを押す"]]])
  })

  it("S4: a file name fragment and a document title find the file", async () => {
    const byName = await search("定例会_04")
    expect(paths(byName)).toEqual(["議事録/定例会_0405.docx"])
    expect(byName.files[0]?.locations[0]?.location).toBe("name")
    const byTitle = await search("営業戦略会議")
    expect(paths(byTitle)).toEqual(["議事録/定例会_0329.docx"])
    expect(byTitle.files[0]?.locations.map((l) => l.location)).toEqual(["property:title"])
  })

  it("S4: a yen amount by its plain value and a date as typed, shown as Excel shows them", async () => {
    const amount = await search("123350")
    expect(paths(amount)).toEqual(["価格表.xlsx"])
    expect(amount.files[0]?.locations.map((l) => [l.location, l.snippet.map((p) => p.text).join("")])).toEqual([["価格!B1", "¥123,350"]])
    const date = await search("2009/9/4")
    expect(date.files[0]?.locations.map((l) => [l.location, l.snippet.map((p) => p.text).join("")])).toEqual([["価格!B2", "2009年9月4日"]])
    expect(paths(await search("2009-09-04"))).toEqual(["価格表.xlsx"])
  })

  it("S5: pages of 20 files are disjoint, their union is the whole result, the totals count it all", async () => {
    const seen: Array<string> = []
    const pages: Array<[number, boolean]> = []
    for (let offset = 0; ; offset += 20) {
      const view = await search("売上", { limit: "20", offset: String(offset) })
      expect(view.offset).toBe(offset)
      expect(view.totals).toEqual({ hits: reports, files: reports, exact: true })
      pages.push([view.files.length, view.more])
      seen.push(...paths(view))
      if (!view.more) break
    }
    expect(pages).toEqual([[20, true], [20, true], [5, false]])
    expect(seen.length).toBe(reports)
    expect(new Set(seen)).toEqual(new Set(Array.from({ length: reports }, (_, i) => `月報/月報_${String(i + 1).padStart(3, "0")}.docx`)))
    const file = (await search("売上", { limit: "1" })).files[0]
    expect(file?.hits).toBe(1)
    expect(file?.fullPath).toBe(path.join(root, "samples", ...(file?.path ?? "").split("/")))
    expect(file?.size).toBe(fs.statSync(file?.fullPath ?? "").size)
  })

  it("filters by kind and group, and tells an unknown kind apart from nothing found", async () => {
    expect((await search("売上", { type: "word" })).totals.files).toBe(reports)
    expect((await search("売上", { type: "docx" })).totals.files).toBe(reports)
    expect((await search("売上", { type: "legacy" })).files).toEqual([])
    expect(paths(await search("123350", { type: "excel" }))).toEqual(["価格表.xlsx"])
    const wrong = await call<{ error: string }>(`/api/search?${new URLSearchParams({ q: "売上", type: "exe" })}`)
    expect(wrong.status).toBe(400)
    expect(wrong.body.error).toBe("「exe」という種類はありません。使えるのは excel、word、powerpoint、legacy か、拡張子です。")
  })
})
