/**
 * The GUI end to end (issue 7): the page in Debian's real Chromium, driven by
 * playwright-core, against a server started here on a generated sample
 * folder. Screenshots of every screen go to `artifacts/gui/` at the
 * repository root (git-ignored).
 */
import { defaultSettings } from "@sagasu/domain"
import { formatSettings } from "@sagasu/store"
import { initWorkFolder, writeSettings, NodeWithWorkStore } from "@sagasu/store/testing"
import { Effect, Exit, Scope } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { type BrowserContext, type Page, chromium } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { writeManyDocuments, writeSamples } from "./_test_samples.ts"
import { type OpenCommand, openPathCommand } from "./opener.ts"
import { type GuiServer, startGuiServer } from "./server.ts"

const chromiumPath = process.env["SAGASU_CHROMIUM"] ?? "/usr/bin/chromium"
const shots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "artifacts", "gui")

interface Started {
  readonly server: GuiServer
  readonly close: () => Promise<void>
}

// A server on a work folder of its own, closed (with its runs stopped) by `close`. Its opener
// only records the commands it is given (issue 16: no file manager starts during a test).
async function serve(work: string, opened: Array<OpenCommand> = []): Promise<Started> {
  const scope = Effect.runSync(Scope.make())
  const opener = (command: OpenCommand) => {
    opened.push(command)
    return Promise.resolve({ ok: true } as const)
  }
  const server = await Effect.runPromise(
    startGuiServer(work, { version: "test", opener }).pipe(Scope.extend(scope), Effect.provide(NodeWithWorkStore))
  )
  return { server, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

const prepareWork = (work: string, settings: Partial<typeof defaultSettings> = {}) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const paths = yield* initWorkFolder(work, formatSettings(defaultSettings))
      yield* writeSettings(paths, { ...defaultSettings, ...settings })
    }).pipe(Effect.provide(NodeWithWorkStore))
  )

// The tests' only time limit is their own timeout, which ends a hang. Nothing inside waits against a
// clock of its own (issue 15: expect.poll's 1 s and playwright's 30 s were guesses of the machine's
// speed): polls get the same limit as the test, so the test's timeout always comes first.
const hangGuard = 300_000
const poll = { timeout: hangGuard }

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true })

// How many lines an element's text takes (run in the page).
const textLines = (e: Element) => {
  const range = document.createRange()
  range.selectNodeContents(e)
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size
}

// The visible elements that stick out of the window or whose text is cut at their own box's edge
// (wider content than box, not a scrolling box): `tag#id.class` each (run in the page).
const overflowing = () => {
  const width = document.documentElement.clientWidth
  const out: Array<string> = []
  for (const e of document.querySelectorAll<HTMLElement>("body *")) {
    const r = e.getBoundingClientRect()
    if (r.width === 0 || r.height === 0 || getComputedStyle(e).visibility === "hidden") continue
    const style = getComputedStyle(e)
    const scrolls = ["auto", "scroll"].includes(style.overflowX)
    const cut = !scrolls && e.scrollWidth > e.clientWidth + 1 && style.overflowX !== "visible"
    if (r.right > width + 1 || cut) out.push(`${e.tagName.toLowerCase()}${e.id === "" ? "" : `#${e.id}`}${e.className === "" ? "" : `.${String(e.className).split(" ").join(".")}`}`)
  }
  return out
}

describe("the GUI in a real browser (issue 7)", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-gui-"))
  let context: BrowserContext

  beforeAll(async () => {
    if (!fs.existsSync(chromiumPath)) {
      throw new Error(`No Chromium at ${chromiumPath}: apt-get install chromium fonts-ipafont-gothic (or set SAGASU_CHROMIUM)`)
    }
    fs.mkdirSync(shots, { recursive: true })
    context = await chromium.launchPersistentContext(path.join(root, "chromium-profile"), {
      executablePath: chromiumPath,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      viewport: { width: 1280, height: 860 },
      locale: "ja-JP"
    })
    context.setDefaultTimeout(0) // waitFor and navigation: no limit but the test's own
  }, 60_000)

  afterAll(async () => {
    await context?.close()
    fs.rmSync(root, { recursive: true, force: true })
  })

  it("adds an index, updates all through the plan, watches progress to the end, and finds 見積番号 highlighted", async () => {
    const samples = path.join(root, "samples")
    await writeSamples(samples)
    const work = path.join(root, "work-main")
    const opened: Array<OpenCommand> = []
    const { server, close } = await serve(work, opened)
    const page = await context.newPage()
    // A script error on the page shows in the test's output at once (a poll would only wait).
    page.on("pageerror", (e) => console.error(`page error: ${e.message}`))
    try {
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.origin })
      await page.goto(server.url)
      await expect.poll(() => page.title(), poll).toBe("Sagasu（さがす）")
      await page.locator("#no-indexes").waitFor()
      // Issue 16: the cursor is in the search box on load, and the status and progress are live regions.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("q")
      expect(await page.locator("#search-status").getAttribute("aria-live")).toBe("polite")
      expect(await page.locator("#phase").getAttribute("role")).toBe("status")
      expect(await page.locator("#end-message").getAttribute("aria-live")).toBe("polite")
      expect(await page.locator("#bar").getAttribute("role")).toBe("progressbar")
      expect(await page.locator("#update-all").isDisabled()).toBe(true)
      await shot(page, "01-start")

      // Add: the Schema's refusal shows in the page, in Japanese.
      // A first start: the form to add a folder is already open.
      expect(await page.locator("#add-box").getAttribute("open")).not.toBeNull()
      await page.fill("#add-name", "営業/共有")
      await page.fill("#add-path", samples)
      await page.click("#add-form button[type=submit]")
      await expect.poll(() => page.locator("#add-error").textContent(), poll).toContain("名前に")
      await shot(page, "02-add-error")
      await page.fill("#add-name", "共有")
      await page.click("#add-form button[type=submit]")
      await page.locator('#indexes tr[data-name="共有"]').waitFor()
      expect(await page.locator("#add-error").isHidden()).toBe(true)

      // ［すべて更新］ → the plan (R10).
      await page.click("#update-all")
      const dialog = page.locator("#confirm")
      await dialog.waitFor({ state: "visible" })
      const planRow = dialog.locator("tbody tr")
      await expect.poll(() => planRow.first().locator("td").allTextContents(), poll).toEqual(["共有", "3", "0", "0", "0", "0", "1", "0", "0"])
      expect(await dialog.textContent()).toContain("前回失敗したファイルも取り込む")
      expect(await dialog.textContent()).toContain("クラウドにだけあるファイルもダウンロードして取り込む")
      expect(await page.locator("#plan-total").textContent()).toBe("取り込み予定: 3 件")
      // The cloud-only file joins the count only when asked for.
      await page.locator("#include-cloud").check()
      expect(await page.locator("#plan-total").textContent()).toBe("取り込み予定: 4 件")
      await page.locator("#include-cloud").uncheck()
      await shot(page, "03-confirm")
      await page.click("#plan-start")

      // Progress (P1), polled once a second; the update buttons are off meanwhile.
      await dialog.waitFor({ state: "hidden" })
      await page.locator("#progress-box").waitFor({ state: "visible" })
      // The buttons follow the run in the indexes view, which the page fetches on its own: polled.
      await expect.poll(() => page.locator("#update-all").isDisabled(), poll).toBe(true)
      // The plain worker threads take a few seconds to start: 取り込み with 0 of 3 is on screen meanwhile.
      await expect.poll(() => page.locator("#phase").textContent(), poll).toMatch(/^(取り込み|仕上げ)$/)
      await shot(page, "04-progress")

      // The end (R17): closing message and the failure list.
      const message = page.locator("#end-message")
      await message.waitFor({ state: "visible" })
      expect(await message.textContent()).toBe("インデックス作成が完了しました。（成功: 2 件 / 失敗: 1 件）")
      expect(await page.locator("#end-failed").textContent()).toContain("壊れたファイル.xlsx")
      expect(await page.locator("#end-failed").textContent()).toContain("ファイルが壊れています")
      // R9: the cloud-only file was left, and said so.
      expect(await page.locator("#end-cloud h3").textContent()).toBe("クラウドにだけあるため、ダウンロードせずに残したファイル（1 件）")
      expect(await page.locator("#end-cloud li").allTextContents()).toEqual(["共有/クラウド/予算_2024.xlsx"])
      // The indexes view is fetched after the end is shown (a loaded machine showed the button still off): polled.
      await expect.poll(() => page.locator("#update-all").isEnabled(), poll).toBe(true)
      await expect.poll(() => page.locator('#indexes tr[data-name="共有"] td.num').allTextContents(), poll).toEqual(["2", "1", "0"])
      expect(await page.locator("#resume").isHidden()).toBe(true)
      // A completed run offers no ［続きから再開］ (issue 16).
      expect(await page.locator("#end-resume").isHidden()).toBe(true)
      // Drawn once (issue 16): the failure list's row is the same node after two more polls, so it can be selected.
      const failedRow = await page.locator("#end-failed tbody tr").first().elementHandle()
      await page.waitForTimeout(2500)
      expect(await failedRow?.evaluate((row) => row.isConnected)).toBe(true)
      await shot(page, "05-end")

      // Search (S5): each file once, its hits marked — not the document's own 【重要】 —, the totals.
      await page.fill("#q", "見積番号")
      await page.press("#q", "Enter")
      const files = page.locator("#results article.file-hit")
      await expect.poll(() => files.count(), poll).toBe(2)
      expect(await page.locator("#search-status").textContent()).toBe("3 件（2 ファイル）: 1〜2 ファイル目")
      const marks = await page.locator("#results mark").allTextContents()
      expect(marks.length).toBe(3)
      expect(new Set(marks)).toEqual(new Set(["見積番号"]))
      const book = files.filter({ hasText: "見積書_A-1234.xlsx" })
      expect(await book.locator(".meta").textContent()).toMatch(/^2 件 · \d{4}-\d{2}-\d{2} · \d+ KB$/)
      const cell = book.locator(".locations tr").filter({ hasText: "【重要】" })
      expect(await cell.locator(".where").textContent()).toBe("シート「見積書」セル B2")
      expect(await cell.locator(".snippet").textContent()).toBe("【重要】会議室の備品一式（見積番号 A-1234 の再提出分）")
      // S5: the cell in its context — its row's heading on the left (A2 件名).
      expect(await cell.locator(".context").textContent()).toContain("行: 件名")
      expect(await files.filter({ hasText: "議事録" }).locator(".where").textContent()).toBe("段落 3")
      expect(await page.locator("#pager").isHidden()).toBe(true)
      await shot(page, "06-search")
      await book.locator("button.copy").click()
      await expect.poll(() => book.locator("button.copy").textContent(), poll).toBe("コピーしました")
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(path.join(samples, "見積", "見積書_A-1234.xlsx"))
      // S5, issue 16: ［開く］ and ［フォルダを開く］ hand the file to the desktop's opener (here the recording stub).
      const bookPath = fs.realpathSync(path.join(samples, "見積", "見積書_A-1234.xlsx"))
      expect(await book.locator("button.open").textContent()).toBe("開く")
      expect(await book.locator("button.open-folder").textContent()).toBe("フォルダを開く")
      await book.locator("button.open").click()
      await expect.poll(() => opened.length, poll).toBe(1)
      await book.locator("button.open-folder").click()
      await expect.poll(() => opened.length, poll).toBe(2)
      expect(opened).toEqual([openPathCommand(bookPath, false), openPathCommand(bookPath, true)])
      expect(opened[0]).toEqual({ command: "xdg-open", args: [bookPath] })
      expect(opened[1]).toEqual({ command: "xdg-open", args: [path.dirname(bookPath)] })
      await expect.poll(() => book.locator(".open-note").textContent(), poll).toBe("")
      // A file moved away since the search: the server's refusal shows on its card, nothing is opened.
      fs.renameSync(bookPath, `${bookPath}.moved`)
      try {
        await book.locator("button.open").click()
        await expect.poll(() => book.locator(".open-note").textContent(), poll).toBe(`${path.join(samples, "見積", "見積書_A-1234.xlsx")} が見つかりません。移動したか削除されたようです。`)
        expect(await book.locator(".open-note").getAttribute("class")).toBe("open-note error")
        await shot(page, "06b-open-missing")
      } finally {
        fs.renameSync(`${bookPath}.moved`, bookPath)
      }
      expect(opened.length).toBe(2)
      // S3: words in different paragraphs of one document find it, each marked where it stands.
      await page.fill("#q", "山田 再提出")
      await page.press("#q", "Enter")
      await expect.poll(() => page.locator("#search-status").textContent(), poll).toBe("2 件（1 ファイル）: 1〜1 ファイル目")
      expect(await files.locator(".file").allTextContents()).toEqual(["議事録_2024-03-29.docx"])
      expect(await files.locator("mark").allTextContents()).toEqual(["山田", "再提出"])
      // The type filter, then `/` brings the cursor back to the search box.
      await page.fill("#q", "見積番号")
      await page.selectOption("#filter-type", "word")
      await expect.poll(() => files.locator(".file").allTextContents(), poll).toEqual(["議事録_2024-03-29.docx"])
      // A filter that leaves nothing says so, and ［絞り込みを外す］ searches everything again (issue 16).
      await page.fill("#q", "山田")
      await page.selectOption("#filter-type", "excel")
      await expect.poll(() => page.locator("#search-status").textContent(), poll).toBe(
        "絞り込みの中では見つかりませんでした。絞り込みを外すと、ほかのインデックスや種類からも探します。"
      )
      expect(await page.locator("#filter-type").getAttribute("aria-label")).toBe("ファイルの種類で絞り込む")
      expect(await page.locator("#filter-index").getAttribute("aria-label")).toBe("インデックスで絞り込む")
      await shot(page, "06c-filter-no-hits")
      await page.click("#clear-filter")
      await expect.poll(() => page.locator("#search-status").textContent(), poll).toBe("1 件（1 ファイル）: 1〜1 ファイル目")
      expect(await page.locator("#filter-type").inputValue()).toBe("")
      await page.fill("#q", "見積番号")
      await page.press("#q", "Enter")
      await expect.poll(() => files.count(), poll).toBe(2)
      await page.locator("#indexes-card h2").click()
      await page.keyboard.press("/")
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("q")

      // The log's tail.
      await page.locator("#log-box summary").click()
      await expect.poll(() => page.locator("#log").textContent(), poll).toContain("クロール中: 共有")
      await shot(page, "07-log")

      // Issue 16: the screen at 1280×800 and 800×600 — with the end of the run, a search with its
      // context and the log open, nothing is wider than the window or cut at its box's edge.
      for (const size of [{ width: 1280, height: 800 }, { width: 800, height: 600 }]) {
        await page.setViewportSize(size)
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${size.width}`).toBeLessThanOrEqual(size.width)
        expect(await page.evaluate(overflowing), `${size.width}`).toEqual([])
        // The index's name on one line (at 800 it stood one character a line).
        expect(await page.locator("#indexes td.name").first().evaluate(textLines), `${size.width}`).toBe(1)
        await shot(page, `14-${size.width}x${size.height}`)
      }
      await page.setViewportSize({ width: 1280, height: 860 })

      // Rename carries the index's text along: search shows the new name at once.
      await page.locator('#indexes tr[data-name="共有"] button.rename').click()
      await page.fill("#indexes .rename-input", "営業")
      await page.locator("#indexes .rename-save").click()
      await page.locator('#indexes tr[data-name="営業"]').waitFor()
      await expect.poll(() => page.locator('#indexes tr[data-name="営業"] td.num').allTextContents(), poll).toEqual(["2", "1", "0"])
      await page.press("#q", "Enter")
      await expect.poll(() => page.locator("#results .index-badge").allTextContents(), poll).toEqual(["営業", "営業"])

      // An index that is not enabled is reported when picked for ［選んだインデックスだけ更新］ (R5).
      await page.locator('#indexes tr[data-name="営業"] input.enabled').uncheck()
      await expect.poll(() => page.locator("#update-all").isDisabled(), poll).toBe(true)
      await page.locator('#indexes tr[data-name="営業"] input.pick').check()
      await page.click("#update-selected")
      await expect.poll(() => page.locator("#end-message").textContent(), poll).toBe("選んだインデックスはどれも更新できません。")
      expect(await page.locator("#end-only-skipped li").allTextContents()).toEqual(["営業（チェックが付いていません）"])
      await shot(page, "08-only-skipped")
      await page.locator('#indexes tr[data-name="営業"] input.enabled').check()
      await page.locator('#indexes tr[data-name="営業"] input.pick').uncheck()

      // English, then back to Japanese (the setting `language`).
      await page.selectOption("#lang", "en")
      await expect.poll(() => page.locator("#indexes-card h2").textContent(), poll).toBe("Indexes")
      expect(await page.locator("#update-all").textContent()).toBe("Update all")
      await page.press("#q", "Enter")
      await expect.poll(() => book.locator("button.open").textContent(), poll).toBe("Open")
      expect(await book.locator("button.open-folder").textContent()).toBe("Open folder")
      await shot(page, "09-english")
      await page.selectOption("#lang", "ja")
      await expect.poll(() => page.locator("#indexes-card h2").textContent(), poll).toBe("インデックス")

      // Remove: after the page's own confirmation (issue 16: not window.confirm), the index and its text are gone.
      const browserDialogs: Array<string> = []
      page.on("dialog", (d) => {
        browserDialogs.push(d.message())
        void d.dismiss()
      })
      await page.locator('#indexes tr[data-name="営業"] button.remove').click()
      const removeDialog = page.locator("#remove-dialog")
      await removeDialog.waitFor({ state: "visible" })
      expect(await page.locator("#remove-text").textContent()).toContain("インデックス「営業」を削除しますか？")
      await shot(page, "09b-remove-confirm")
      // Esc is ［やめる］: nothing removed.
      await page.keyboard.press("Escape")
      await removeDialog.waitFor({ state: "hidden" })
      expect(await page.locator('#indexes tr[data-name="営業"]').count()).toBe(1)
      await page.locator('#indexes tr[data-name="営業"] button.remove').click()
      await page.click("#remove-ok")
      expect(browserDialogs).toEqual([])
      await page.locator("#no-indexes").waitFor({ state: "visible" })
      await page.press("#q", "Enter")
      await expect.poll(() => page.locator("#search-status").textContent(), poll).toBe("見つかりませんでした。")
    } finally {
      await page.close()
      await close()
    }
  }, hangGuard)

  it("stops a run in the middle (exit 2), then offers ［続きから再開］ for the pending files", async () => {
    const many = path.join(root, "many")
    await writeManyDocuments(many, 1500)
    const work = path.join(root, "work-stop")
    // One worker thread, so the run lasts long enough to be stopped.
    await prepareWork(work, { ingestThreads: 1, targetFolders: [{ name: "報告書", path: many, enabled: true }] })
    const { server, close } = await serve(work)
    const page = await context.newPage()
    try {
      await page.goto(server.url)
      await page.locator('#indexes tr[data-name="報告書"]').waitFor()
      // ［選んだインデックスだけ更新］ needs a pick first.
      expect(await page.locator("#update-selected").isDisabled()).toBe(true)
      await page.locator('#indexes tr[data-name="報告書"] input.pick').check()
      await page.click("#update-selected")
      await page.locator("#confirm").waitFor({ state: "visible" })
      expect(await page.locator("#plan-total").textContent()).toBe("取り込み予定: 1,500 件")
      await page.click("#plan-start")

      await expect.poll(() => page.locator("#n-processed").textContent().then(Number), poll).toBeGreaterThan(0)
      expect(await page.locator("#phase").textContent()).toBe("取り込み")
      await shot(page, "10-progress-many")
      await page.click("#stop")

      const message = page.locator("#end-message")
      await message.waitFor({ state: "visible" })
      expect(await message.textContent()).toMatch(/^インデックス作成を中止しました。（成功: \d+ 件 \/ 失敗: 0 件）$/)
      expect(await message.getAttribute("class")).toContain("stopped")
      const progress = await page.evaluate(async (token) => {
        const r = await fetch("/api/progress", { headers: { "X-Sagasu-Token": token } })
        return (await r.json()) as { run: { exitCode: number } }
      }, server.token)
      expect(progress.run.exitCode).toBe(2)
      // S1: every file the stopped run took in is found at once, page by page (S5).
      const done = Number(/成功: ([\d,]+) 件/.exec((await message.textContent()) ?? "")?.[1]?.replace(/,/g, ""))
      expect(done).toBeGreaterThan(0)
      await page.fill("#q", "月次")
      await page.press("#q", "Enter")
      await expect.poll(() => page.locator("#search-status").textContent(), poll).toMatch(/ファイル目$/)
      const totals = /^[\d,]+ 件(以上)?（([\d,]+) ファイル(以上)?）: 1〜([\d,]+) ファイル目$/.exec((await page.locator("#search-status").textContent()) ?? "")
      expect(totals).not.toBeNull()
      if (totals?.[3] === undefined) expect(Number(totals?.[2]?.replace(/,/g, ""))).toBe(done)
      expect(Number(totals?.[4])).toBe(Math.min(done, 20))
      const names = () => page.locator("#results .file").allTextContents()
      const first = await names()
      expect(first.length).toBe(Math.min(done, 20))
      if (done > 20) {
        await page.click("#next-page")
        await expect.poll(() => page.locator("#search-status").textContent(), poll).toMatch(/: 21〜/)
        const second = await names()
        expect(second.length).toBe(Math.min(done - 20, 20))
        expect(second.filter((n) => first.includes(n))).toEqual([])
        await shot(page, "11b-second-page")
        await page.click("#prev-page")
        await expect.poll(names, poll).toEqual(first)
      }
      await page.locator("#end-resume").waitFor({ state: "visible" })
      const pendingText = (await page.locator('#indexes tr[data-name="報告書"] td.num').nth(2).textContent()) ?? ""
      const pending = Number(pendingText.replace(/,/g, ""))
      expect(pending).toBeGreaterThan(0)
      // The end's own ［続きから再開］ is the one offered while the end is on screen.
      expect(await page.locator("#resume").isHidden()).toBe(true)
      await shot(page, "11-stopped")

      // Resume: the plan counts the pending files; cancelling leaves them pending (R10).
      await page.click("#end-resume")
      await page.locator("#confirm").waitFor({ state: "visible" })
      await expect.poll(() => page.locator("#plan tbody td").nth(3).textContent(), poll).toBe(pendingText)
      await shot(page, "12-resume-confirm")
      // Issue 16: the plan fits a small window too.
      await page.setViewportSize({ width: 800, height: 600 })
      expect(await page.evaluate(overflowing)).toEqual([])
      // A margin around the dialog (it touched the window's edges), its headings wrapped instead.
      const box = await page.locator("#confirm").boundingBox()
      expect(box?.x).toBeGreaterThanOrEqual(15)
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(800 - 15)
      await page.screenshot({ path: path.join(shots, "12b-resume-confirm-800x600.png") })
      await page.setViewportSize({ width: 1280, height: 860 })
      // Esc is ［やめる］ (issue 16: the keyboard path).
      await page.keyboard.press("Escape")
      // A cancel says it was a cancel (issue 16), not 「中止しました（0 / 0）」.
      await expect.poll(() => message.textContent(), poll).toBe("取り込みの確認で取り消したため、インデックス作成をやめました。ファイルは 1 件も取り込んでいません。")
      await expect.poll(() => page.locator('#indexes tr[data-name="報告書"] td.num').nth(2).textContent(), poll).toBe(pendingText)
      // Closing the end leaves the offer to resume beside the update buttons.
      await page.click("#end-close")
      await page.locator("#resume").waitFor({ state: "visible" })
      expect(await page.locator("#resume-hint").textContent()).toBe(`前回中断したため、未取り込みのファイルが ${pendingText} 件あります。`)
      await shot(page, "13-resume-offer")
    } finally {
      await page.close()
      await close()
    }
  }, hangGuard)
})
