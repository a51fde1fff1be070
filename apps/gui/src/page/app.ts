/**
 * The page script (runs in the browser; bundled by page_assets.ts). It reads
 * the token from its own URL and sends it with every API call; it builds
 * every piece of text with `textContent`, never with HTML, so nothing from
 * a document, a file name or a message can become markup.
 *
 * @module
 */
import type { FileView, HitView, IndexesView, LogView, RunResult, RunState, RunView, SearchView } from "../api.ts"
import { type UiLanguage, count, dateText, sizeText, uiText } from "./ui_text.ts"

const token = new URLSearchParams(location.search).get("token") ?? ""
let language: UiLanguage = "ja"
let t = uiText(language)
let indexes: IndexesView | undefined
let run: RunState | null = null
/** The end of the last run (R17), fetched only when the poll's `resultVersion` changes (issue 16). */
let result: RunResult | undefined
/** The result version drawn on the page, so the end is drawn once per change (its text stays selectable). */
let drawnResult: string | undefined
/** How the last run on disk ended (P3): `undefined` for no progress file, `null` when it ended without saying (killed). */
let lastExitCode: number | null | undefined
let lastRunId = 0
let dismissedRunId = 0
let answeredRunId = 0
let editing: string | undefined
const selected = new Set<string>()

// --- helpers ---------------------------------------------------------------

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const el = document.getElementById(id)
  if (el === null) throw new Error(`#${id} missing`)
  return el as T
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { className?: string; text?: string; title?: string } = {},
  children: ReadonlyArray<Node | string> = []
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag)
  if (props.className !== undefined) e.className = props.className
  if (props.text !== undefined) e.textContent = props.text
  if (props.title !== undefined) e.title = props.title
  for (const c of children) e.append(c)
  return e
}

// A path with a line-break opportunity after each separator (<wbr>), so that a narrow column (800×600)
// breaks it between folders rather than inside a name; its text stays the path.
const pathNodes = (p: string): Array<Node | string> =>
  p.split(/(?<=[/\\])/).flatMap((piece, i) => (i === 0 ? [piece] : [document.createElement("wbr"), piece]))

const show = (e: HTMLElement, visible: boolean) => {
  e.hidden = !visible
}

/** Writes `text` only when it differs: a text redrawn every second could not be selected. */
const setText = (e: HTMLElement, text: string) => {
  if (e.textContent !== text) e.textContent = text
}

class ApiError extends Error {}

async function api<A>(method: "GET" | "POST", path: string, body?: unknown): Promise<A> {
  let response: Response
  try {
    response = await fetch(path, {
      method,
      headers: { "X-Sagasu-Token": token, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  } catch {
    showAlert(t.errNetwork)
    throw new ApiError(t.errNetwork)
  }
  if (response.status === 403) {
    showAlert(t.errRefused)
    throw new ApiError(t.errRefused)
  }
  const data = (await response.json()) as A & { error?: string }
  showAlert(undefined)
  if (!response.ok) throw new ApiError(data.error ?? String(response.status))
  return data
}

function showAlert(message: string | undefined) {
  const a = $("alert")
  a.textContent = message ?? ""
  show(a, message !== undefined)
}

function showError(id: string, message: string | undefined) {
  const e = $(id)
  e.textContent = message ?? ""
  show(e, message !== undefined && message !== "")
}

const errorMessage = (e: unknown) => (e instanceof Error ? e.message : String(e))

// --- static texts ----------------------------------------------------------

function renderTexts() {
  document.documentElement.lang = language
  document.title = t.title
  for (const e of document.querySelectorAll<HTMLElement>("[data-t]")) {
    const v = (t as unknown as Record<string, unknown>)[e.dataset["t"] ?? ""]
    if (typeof v === "string") e.textContent = v
  }
  for (const e of document.querySelectorAll<HTMLInputElement>("[data-ph]")) {
    const v = (t as unknown as Record<string, unknown>)[e.dataset["ph"] ?? ""]
    if (typeof v === "string") e.placeholder = v
  }
  for (const e of document.querySelectorAll<HTMLElement>("[data-aria]")) {
    const v = (t as unknown as Record<string, unknown>)[e.dataset["aria"] ?? ""]
    if (typeof v === "string") e.setAttribute("aria-label", v)
  }
  $<HTMLSelectElement>("lang").value = language
  $("indexes").querySelectorAll("th")[0]!.title = t.selectTitle
  $("indexes").querySelectorAll("th")[1]!.title = t.enabledTitle
  const type = $<HTMLSelectElement>("filter-type")
  const chosen = type.value
  type.replaceChildren(
    new Option(t.allTypes, ""),
    new Option(t.typeExcel, "excel"),
    new Option(t.typeWord, "word"),
    new Option(t.typePowerPoint, "powerpoint"),
    new Option(t.typeLegacy, "legacy")
  )
  type.value = chosen
  const sort = $<HTMLSelectElement>("filter-sort")
  const order = sort.value
  sort.replaceChildren(new Option(t.sortRelevance, "relevance"), new Option(t.sortModified, "modified"))
  sort.value = order === "" ? "relevance" : order
  $("prev-page").textContent = t.prevPage
  $("next-page").textContent = t.nextPage
}

// --- indexes ---------------------------------------------------------------

const runActive = () => run !== null && run.exitCode === null
/** A run started elsewhere (the CLI, another window) holds the work folder (R3): shown, and nothing started from here. */
let elsewhere = false
const endShown = () => run !== null && run.exitCode !== null && run.id !== dismissedRunId
/** The last run did not complete: this server's last run, else the progress on disk (P3; killed = no exit code). */
const lastInterrupted = () =>
  run !== null && run.exitCode !== null ? run.exitCode !== 0 : lastExitCode === undefined || lastExitCode !== 0
const pendingTotal = () => (indexes?.indexes ?? []).filter((i) => i.enabled).reduce((n, i) => n + i.pending, 0)

async function loadIndexes() {
  indexes = await api<IndexesView>("GET", "/api/indexes")
  if (indexes.language !== language) {
    language = indexes.language
    t = uiText(language)
    renderTexts()
    renderRun()
  }
  for (const name of [...selected]) if (!indexes.indexes.some((i) => i.name === name)) selected.delete(name)
  renderIndexes()
}

function renderIndexes() {
  const view = indexes
  if (view === undefined) return
  showError("settings-error", view.settingsError ?? undefined)
  const busy = runActive() || elsewhere
  const body = $("indexes").querySelector("tbody")!
  body.replaceChildren(
    ...view.indexes.map((i) => {
      const row = el("tr", { className: selected.has(i.name) ? "selected" : "" })
      row.dataset["name"] = i.name
      const pick = el("input")
      pick.type = "checkbox"
      pick.className = "pick"
      pick.checked = selected.has(i.name)
      pick.title = t.selectTitle
      pick.addEventListener("change", () => {
        if (pick.checked) selected.add(i.name)
        else selected.delete(i.name)
        renderIndexes()
      })
      const enabled = el("input")
      enabled.type = "checkbox"
      enabled.className = "enabled"
      enabled.checked = i.enabled
      enabled.disabled = busy
      enabled.title = t.enabledTitle
      enabled.addEventListener("change", () => void edit({ _tag: "enable", name: i.name, enabled: enabled.checked }))

      const nameCell = el("td", { className: "name" })
      const ops = el("td", { className: "ops" })
      if (editing === i.name) {
        const input = el("input")
        input.value = i.name
        input.className = "rename-input"
        input.setAttribute("aria-label", t.colName)
        const save = el("button", { text: t.save, className: "rename-save" })
        const cancel = el("button", { text: t.cancelEdit })
        const doSave = () => void edit({ _tag: "rename", from: i.name, to: input.value }).then((ok) => {
          if (ok) {
            if (selected.delete(i.name)) selected.add(input.value.trim())
            editing = undefined
            renderIndexes()
          }
        })
        save.addEventListener("click", doSave)
        cancel.addEventListener("click", () => {
          editing = undefined
          showError("indexes-error", undefined)
          renderIndexes()
        })
        input.addEventListener("keydown", (e) => {
          if (e.key === "Enter") doSave()
          if (e.key === "Escape") cancel.click()
        })
        nameCell.append(input)
        ops.append(save, " ", cancel)
        queueMicrotask(() => input.focus())
      } else {
        nameCell.textContent = i.name
        const rename = el("button", { text: t.rename, className: "rename" })
        rename.disabled = busy
        rename.addEventListener("click", () => {
          editing = i.name
          renderIndexes()
        })
        const remove = el("button", { text: t.remove, className: "remove" })
        remove.disabled = busy
        remove.addEventListener("click", () => askRemove(i.name))
        ops.append(rename, " ", remove)
      }
      row.append(
        el("td", { className: "narrow" }, [pick]),
        el("td", { className: "narrow" }, [enabled]),
        nameCell,
        el("td", { className: "path" }, pathNodes(i.path)),
        el("td", { className: "num", text: count(i.done) }),
        el("td", { className: "num", text: count(i.failed) }),
        el("td", { className: "num", text: count(i.pending) }),
        ops
      )
      return row
    })
  )
  const empty = view.indexes.length === 0 && view.settingsError === null
  show($("no-indexes"), empty)
  show($("indexes"), view.indexes.length > 0)
  // A first start: the only thing to do is to add a folder.
  if (empty) $<HTMLDetailsElement>("add-box").open = true
  const enabledCount = view.indexes.filter((i) => i.enabled).length
  $<HTMLButtonElement>("update-all").disabled = busy || enabledCount === 0
  $<HTMLButtonElement>("update-selected").disabled = busy || selected.size === 0
  const pending = pendingTotal()
  // While the end of a run is on screen, its own ［続きから再開］ is the one to press; and it is offered
  // only when the last run was interrupted (stopped, cancelled, an error, killed), never after a completed one.
  const offerResume = pending > 0 && !busy && !endShown() && lastInterrupted()
  show($("resume"), offerResume)
  const hint = $("resume-hint")
  setText(hint, t.resumeHint(pending))
  show(hint, offerResume)
  setText($("run-note"), runActive() ? t.runningHere : elsewhere ? t.runningElsewhere : "")
  for (const e of $("add-form").querySelectorAll<HTMLInputElement | HTMLButtonElement>("input, button")) e.disabled = busy

  const filter = $<HTMLSelectElement>("filter-index")
  const chosen = filter.value
  filter.replaceChildren(new Option(t.allIndexes, ""), ...view.indexes.map((i) => new Option(i.name, i.name)))
  filter.value = view.indexes.some((i) => i.name === chosen) ? chosen : ""
}

/** Removing an index asks first, in the page's own dialog (issue 16: not the browser's confirm()). */
function askRemove(name: string) {
  const dialog = $<HTMLDialogElement>("remove-dialog")
  dialog.dataset["name"] = name
  $("remove-text").textContent = t.confirmRemove(name)
  dialog.showModal()
  $<HTMLButtonElement>("remove-cancel").focus()
}

type Edit =
  | { _tag: "add"; name: string; path: string }
  | { _tag: "rename"; from: string; to: string }
  | { _tag: "remove"; name: string }
  | { _tag: "enable"; name: string; enabled: boolean }

async function edit(change: Edit, errorBox = "indexes-error"): Promise<boolean> {
  try {
    indexes = await api<IndexesView>("POST", "/api/indexes", change)
    showError(errorBox, undefined)
    renderIndexes()
    return true
  } catch (e) {
    showError(errorBox, errorMessage(e))
    renderIndexes()
    return false
  }
}

// --- runs ------------------------------------------------------------------

async function startRun(onlyNames: ReadonlyArray<string>) {
  try {
    run = await api<RunState>("POST", "/api/run", { onlyNames })
    lastRunId = run.id
    showError("indexes-error", undefined)
    renderIndexes()
    renderRun()
  } catch (e) {
    showError("indexes-error", errorMessage(e))
  }
}

async function poll() {
  let view: RunView
  try {
    view = await api<RunView>("GET", "/api/progress")
  } catch {
    return
  }
  const wasActive = runActive()
  const wasElsewhere = elsewhere
  const before = `${run?.id}:${run?.exitCode}`
  run = view.run
  elsewhere = view.elsewhere
  lastExitCode = view.last === null ? undefined : view.last.exitCode ?? null
  if (run !== null && run.id !== lastRunId) lastRunId = run.id
  renderRun()
  renderLastRun(view)
  if ((wasActive && !runActive()) || (wasElsewhere && !elsewhere)) {
    await loadIndexes().catch(() => {})
  } else if (before !== `${run?.id}:${run?.exitCode}` || wasElsewhere !== elsewhere) {
    renderIndexes()
  }
  if (runActive() || wasActive) void loadLog()
}

function renderLastRun(view: RunView) {
  const p = view.last
  const e = $("last-run")
  if (view.elsewhere) {
    // Its progress as it writes it (P3): the counts of the run going on elsewhere.
    if (p === null) return show(e, false)
    setText(e, `${t.elsewhereProgress}: ${count(p.processed)} / ${count(p.processed + p.remaining)}${p.current === "" ? "" : ` — ${p.current}`}`)
    return show(e, true)
  }
  if (view.run !== null || p === null) return show(e, false)
  const ended = p.exitCode === undefined ? t.lastRunUnknown : t.lastRunEnded[p.exitCode] ?? ""
  setText(e, `${t.lastRun}: ${ended}${p.current === "" ? "" : ` — ${p.current}`}`)
  show(e, true)
}

function renderRun() {
  const panel = $("run-panel")
  const r = run
  if (r === null || (r.exitCode !== null && r.id === dismissedRunId)) {
    show(panel, false)
    closePlan()
    return
  }
  show(panel, true)
  const phase = $("phase")
  const ended = r.exitCode !== null
  show(phase, !ended)
  setText(phase, t.phase[r.progress.phase] ?? r.progress.phase)
  show($("progress-box"), !ended)
  show($("end-box"), ended)
  if (!ended) {
    const p = r.progress
    const total = p.processed + p.remaining
    const bar = $("bar")
    bar.classList.toggle("indeterminate", p.phase === "crawl")
    $("bar-fill").style.width = total === 0 ? "0%" : `${Math.round((100 * p.processed) / total)}%`
    // Assistive technology reads the bar's value (issue 16); none while the crawl cannot count.
    if (p.phase === "crawl" || total === 0) bar.removeAttribute("aria-valuenow")
    else bar.setAttribute("aria-valuenow", String(Math.floor((100 * p.processed) / total)))
    setText($("n-processed"), count(p.processed))
    setText($("n-remaining"), count(p.remaining))
    setText($("n-failed"), count(p.failed))
    setText($("percent"), total === 0 || p.phase === "crawl" ? "" : `（${Math.floor((100 * p.processed) / total)}%）`)
    setText($("current"), p.current)
    const stop = $<HTMLButtonElement>("stop")
    stop.disabled = r.stopRequested
    stop.textContent = r.stopRequested ? t.stopping : t.stop
    if (r.plan !== null && r.id !== answeredRunId && !r.stopRequested) openPlan(r)
    else if (r.plan === null) closePlan()
  } else {
    closePlan()
    void showResult(r)
  }
}

/** The end of `r` (R17): fetched once when its version is new, drawn once per version and language. */
async function showResult(r: RunState) {
  if (r.resultVersion === null) return
  if (result?.version !== r.resultVersion) {
    const fetched = await api<RunResult>("GET", "/api/run-result").catch(() => undefined)
    if (fetched === undefined) return
    result = fetched
  }
  show($("end-resume"), pendingTotal() > 0 && result.exitCode !== 0)
  const key = `${result.version}:${language}`
  if (drawnResult === key) return
  drawnResult = key
  renderEnd(result)
}

function renderEnd(r: RunResult) {
  const message = $("end-message")
  message.textContent = r.error ?? r.message ?? ""
  message.className = `end-message ${r.exitCode === 0 ? "ok" : r.exitCode === 2 ? "stopped" : "bad"}`

  const failed = $("end-failed")
  show(failed, r.failed.length > 0)
  failed.querySelector("tbody")!.replaceChildren(
    ...r.failed.map((f) => {
      // Issue 17: the sentence and detail come made by the domain's catalogue; nothing here reads the reason.
      return el("tr", {}, [
        el("td", { className: "path" }, pathNodes(`${f.index}/${f.path}`)),
        el("td", {}, [f.sentence[language], ...(f.detail === "" ? [] : [el("span", { className: "reason-detail", text: f.detail })])])
      ])
    })
  )
  const only = $("end-only-skipped")
  show(only, r.onlySkipped.length > 0)
  only.querySelector("ul")!.replaceChildren(
    ...r.onlySkipped.map((s) => el("li", { text: `${s.name}（${t.onlySkippedReason[s.reason] ?? s.reason}）` }))
  )
  const cloud = $("end-cloud")
  show(cloud, r.cloudSkipped.length > 0)
  cloud.querySelector("h3")!.textContent = t.cloudSkippedHeading(r.cloudSkipped.length)
  const shownCloud = r.cloudSkipped.slice(0, 50)
  cloud.querySelector("ul")!.replaceChildren(
    ...shownCloud.map((c) => el("li", { className: "path", text: `${c.index}/${c.path}` })),
    ...(r.cloudSkipped.length > shownCloud.length ? [el("li", { text: t.andMore(r.cloudSkipped.length - shownCloud.length) })] : [])
  )
}

// --- the plan (R10) --------------------------------------------------------

function openPlan(r: RunState) {
  const dialog = $<HTMLDialogElement>("confirm")
  const plan = r.plan
  if (plan === null) return
  $("plan").querySelector("tbody")!.replaceChildren(
    ...plan.entries.map((e) =>
      el("tr", {}, [
        el("td", { text: e.index }),
        ...[e.new, e.changed, e.pending, e.failedLastTime, e.failedByEnvironment, e.cloudOnly, e.unchanged, e.vanished].map((n) =>
          el("td", { className: "num", text: count(n) })
        )
      ])
    )
  )
  const retry = $<HTMLInputElement>("retry-failed")
  const cloud = $<HTMLInputElement>("include-cloud")
  const failedLastTime = plan.entries.reduce((n, e) => n + e.failedLastTime, 0)
  const cloudOnly = plan.entries.reduce((n, e) => n + e.cloudOnly, 0)
  const base = r.progress.remaining
  const total = () => $("plan-total").textContent = t.planTotal(base + (retry.checked ? failedLastTime : 0) + (cloud.checked ? cloudOnly : 0))
  retry.onchange = total
  cloud.onchange = total
  if (!dialog.open) {
    retry.checked = false
    cloud.checked = false
    dialog.showModal()
  }
  total()
}

function closePlan() {
  const dialog = $<HTMLDialogElement>("confirm")
  if (dialog.open) dialog.close()
}

async function answerPlan(answer: { retryFailed: boolean; includeCloud: boolean } | null) {
  if (run === null) return
  answeredRunId = run.id
  closePlan()
  try {
    await api("POST", "/api/plan-answer", { answer })
  } catch (e) {
    showError("indexes-error", errorMessage(e))
  }
  void poll()
}

// --- search ----------------------------------------------------------------

// Only the latest query's answer is shown (an older one may come back later).
let searchSeq = 0
/** Files on a page (S5). */
const pageFiles = 20
/** The page shown: files skipped before it. */
let pageOffset = 0

/** Searches for the box's words from the first page (a new query, a changed filter). */
function newSearch() {
  pageOffset = 0
  void search()
}

async function search() {
  const seq = ++searchSeq
  const q = $<HTMLInputElement>("q").value
  const status = $("search-status")
  const results = $("results")
  const pager = $("pager")
  show($("clear-filter"), false)
  if (q.trim() === "") {
    show(status, false)
    show(results, false)
    show(pager, false)
    return
  }
  status.textContent = t.searching
  show(status, true)
  const params = new URLSearchParams({ q, limit: String(pageFiles), offset: String(pageOffset) })
  const index = $<HTMLSelectElement>("filter-index").value
  const type = $<HTMLSelectElement>("filter-type").value
  const sort = $<HTMLSelectElement>("filter-sort").value
  if (index !== "") params.set("index", index)
  if (type !== "") params.set("type", type)
  if (sort === "modified") params.set("sort", sort)
  let view: SearchView
  try {
    view = await api<SearchView>("GET", `/api/search?${params}`)
  } catch (e) {
    if (seq !== searchSeq) return
    status.textContent = errorMessage(e)
    show(results, false)
    show(pager, false)
    return
  }
  if (seq !== searchSeq || view.superseded) return
  const shown = view.files.length
  const totals = t.totals(view.totals.hits, view.totals.files, view.totals.exact, view.offset + 1, view.offset + shown)
  const filtered = index !== "" || type !== ""
  status.textContent = (shown === 0 ? (view.offset > 0 ? totals : filtered ? t.noHitsFiltered : view.exclusionsAsText ? t.noHitsExclusionsAsText : t.noHits) : totals) +
    (view.engine === "scan" ? `　${t.scanNotice}` : view.engine === "team" ? `　${t.teamNotice}` : "") + (view.partial ? `　${t.partialNotice}` : "")
  show($("clear-filter"), shown === 0 && view.offset === 0 && filtered)
  results.replaceChildren(...view.files.map(fileCard))
  show(results, shown > 0)
  $<HTMLButtonElement>("prev-page").disabled = view.offset === 0
  $<HTMLButtonElement>("next-page").disabled = !view.more
  show(pager, view.offset > 0 || view.more)
}

/** Goes to the page `delta` pages away (S5 paging) and scrolls the results into view. */
async function turnPage(delta: number) {
  pageOffset = Math.max(0, pageOffset + delta * pageFiles)
  await search()
  $("search-card").scrollIntoView({ block: "start" })
}

/** One file of the results (S5): its name, folder, hits, date and size, then its best locations. */
function fileCard(file: FileView): HTMLElement {
  const slash = file.fullPath.replace(/\\/g, "/").lastIndexOf("/")
  const name = file.fullPath.slice(slash + 1)
  const folder = file.fullPath.slice(0, slash + 1)
  const copy = el("button", { text: t.copyPath, className: "copy" })
  copy.addEventListener("click", () => void copyText(file.fullPath).then(() => {
    copy.textContent = t.copied
    setTimeout(() => (copy.textContent = t.copyPath), 1500)
  }))
  // S5, issue 16: the server opens the file (or its folder) with the desktop's opener; a refusal shows here.
  const note = el("span", { className: "open-note" })
  note.setAttribute("role", "status")
  const openButton = (label: string, title: string, folder: boolean, className: string) => {
    const button = el("button", { text: label, title, className })
    button.type = "button"
    button.addEventListener("click", () => {
      note.className = "open-note"
      note.textContent = t.opened
      void api<{ ok: boolean }>("POST", "/api/open", { index: file.index, path: file.path, folder }).then(
        () => {
          note.textContent = ""
        },
        (e: unknown) => {
          note.className = "open-note error"
          note.textContent = errorMessage(e)
        }
      )
    })
    return button
  }
  const open = openButton(t.open, t.openTitle, false, "open")
  const openFolder = openButton(t.openFolder, t.openFolderTitle, true, "open-folder")
  const meta = [t.fileHits(file.hits), dateText(file.modifiedMs), sizeText(file.size)].filter((x) => x !== "").join(" · ")
  const rows = file.locations.map((hit) =>
    el("tr", {}, [
      el("td", { className: "where" }, whereOf(hit)),
      el("td", { className: "text" }, [
        el("div", { className: "snippet" }, hit.snippet.map((p) => (p.hit ? el("mark", { text: p.text }) : p.text))),
        ...contextOf(hit).map((text) => el("div", { className: "context", text }))
      ])
    ])
  )
  return el("article", { className: "file-hit" }, [
    el("div", { className: "file-head" }, [
      el("span", { className: "index-badge", text: file.index }),
      el("span", { className: "file", text: name }),
      el("span", { className: "meta", text: meta })
    ]),
    el("div", { className: "folder-row" }, [el("span", { className: "folder", title: file.fullPath }, pathNodes(folder)), open, openFolder, copy, note]),
    el("table", { className: "locations" }, [el("tbody", {}, rows)])
  ])
}

/** A context's text on one short line (S5): blanks folded, cut at 40 characters. */
const short = (text: string) => {
  const one = text.replace(/\s+/g, " ").trim()
  return one.length > 40 ? `${one.slice(0, 39)}…` : one
}

/** The lines of a hit's context (S5): a cell's column and row headings, a paragraph's neighbours, a slide's title. */
function contextOf(hit: HitView): Array<string> {
  const c = hit.context
  if (c === null) return []
  switch (c.kind) {
    case "cell": {
      const parts = [
        ...(c.column !== undefined ? [`${t.ctxColumn}: ${short(c.column.text)}`] : []),
        ...(c.row !== undefined ? [`${t.ctxRow}: ${short(c.row.text)}`] : [])
      ]
      return parts.length === 0 ? [] : [parts.join(" / ")]
    }
    case "paragraph":
      return [
        ...(c.previous !== undefined ? [`${t.ctxPrevious}: ${short(c.previous.text)}`] : []),
        ...(c.next !== undefined ? [`${t.ctxNext}: ${short(c.next.text)}`] : [])
      ]
    case "slide":
      return c.title !== undefined ? [`${t.ctxTitle}: ${short(c.title.text)}`] : []
  }
}

function whereOf(hit: HitView): Array<Node | string> {
  switch (hit.locator) {
    case "cell": {
      const [sheet, cell] = t.sheetCell(hit.part, hit.loc)
      return [sheet, el("br"), cell]
    }
    case "paragraph":
      return [/^\d+$/.test(hit.loc) ? `${t.paragraph} ${hit.loc}` : t.place(hit.loc)]
    case "slide": {
      const [n, notes] = hit.loc.split(" ")
      return [`${t.slide} ${n ?? hit.loc}${notes === "notes" ? t.notes : ""}`]
    }
    case "property":
      return [t.propertyOf(hit.loc)]
    case "name":
      return [hit.loc === "sheet" ? t.sheetName(hit.part) : t.fileName]
  }
}

async function copyText(text: string) {
  try {
    await navigator.clipboard.writeText(text)
  } catch {
    // Older browsers, or clipboard permission refused: the classic way.
    const area = el("textarea", { text })
    document.body.append(area)
    area.select()
    document.execCommand("copy")
    area.remove()
  }
}

// --- log -------------------------------------------------------------------

async function loadLog() {
  const box = $<HTMLDetailsElement>("log-box")
  if (!box.open) return
  const view = await api<LogView>("GET", "/api/log").catch(() => undefined)
  if (view === undefined) return
  const pre = $("log")
  const atEnd = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 8
  pre.textContent = view.text === "" ? t.logEmpty : view.text
  if (atEnd) pre.scrollTop = pre.scrollHeight
}

// --- wiring ----------------------------------------------------------------

function wire() {
  $("search-form").addEventListener("submit", (e) => {
    e.preventDefault()
    newSearch()
  })
  for (const id of ["filter-index", "filter-type", "filter-sort"]) $(id).addEventListener("change", newSearch)
  $("clear-filter").addEventListener("click", () => {
    $<HTMLSelectElement>("filter-index").value = ""
    $<HTMLSelectElement>("filter-type").value = ""
    newSearch()
  })
  $("remove-cancel").addEventListener("click", () => $<HTMLDialogElement>("remove-dialog").close())
  $("remove-ok").addEventListener("click", () => {
    const dialog = $<HTMLDialogElement>("remove-dialog")
    const name = dialog.dataset["name"] ?? ""
    dialog.close()
    selected.delete(name)
    void edit({ _tag: "remove", name })
  })
  $("prev-page").addEventListener("click", () => void turnPage(-1))
  $("next-page").addEventListener("click", () => void turnPage(1))
  // `/` puts the cursor in the search box, as on most search pages (not while typing elsewhere).
  document.addEventListener("keydown", (e) => {
    const target = e.target as HTMLElement | null
    const typing = target !== null && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable)
    if (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault()
      $<HTMLInputElement>("q").focus()
    }
  })
  $("update-all").addEventListener("click", () => void startRun([]))
  $("update-selected").addEventListener("click", () => void startRun([...selected]))
  const resume = () => {
    const names = (indexes?.indexes ?? []).filter((i) => i.enabled && i.pending > 0).map((i) => i.name)
    void startRun(names)
  }
  $("resume").addEventListener("click", resume)
  $("end-resume").addEventListener("click", resume)
  $("end-close").addEventListener("click", () => {
    if (run !== null) dismissedRunId = run.id
    renderRun()
    renderIndexes()
  })
  $("stop").addEventListener("click", () => {
    $<HTMLButtonElement>("stop").disabled = true
    void api("POST", "/api/stop").then(() => poll(), () => {})
  })
  $("plan-start").addEventListener("click", () =>
    void answerPlan({ retryFailed: $<HTMLInputElement>("retry-failed").checked, includeCloud: $<HTMLInputElement>("include-cloud").checked })
  )
  $("plan-cancel").addEventListener("click", () => void answerPlan(null))
  // Esc is ［やめる］ (issue 16): the dialog never closes without an answer (R10).
  $("confirm").addEventListener("cancel", (e) => {
    e.preventDefault()
    void answerPlan(null)
  })
  $("add-form").addEventListener("submit", (e) => {
    e.preventDefault()
    const name = $<HTMLInputElement>("add-name")
    const folder = $<HTMLInputElement>("add-path")
    void edit({ _tag: "add", name: name.value, path: folder.value }, "add-error").then((ok) => {
      if (ok) {
        name.value = ""
        folder.value = ""
        $<HTMLDetailsElement>("add-box").open = false
      }
    })
  })
  $<HTMLSelectElement>("lang").addEventListener("change", (e) => {
    const next = (e.target as HTMLSelectElement).value === "en" ? "en" : "ja"
    void api("POST", "/api/language", { language: next }).then(async () => {
      language = next
      t = uiText(language)
      renderTexts()
      await loadIndexes()
      renderRun()
      void search()
    }, () => {})
  })
  $("log-box").addEventListener("toggle", () => void loadLog())
  $("log-reload").addEventListener("click", () => void loadLog())
}

async function main() {
  renderTexts()
  wire()
  $<HTMLInputElement>("q").focus()
  await loadIndexes().catch(() => {})
  await poll()
  setInterval(() => void poll(), 1000)
}

void main()
