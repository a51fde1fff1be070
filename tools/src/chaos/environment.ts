/**
 * Environment faults (R2, R8, R13, R18, §5 crawl): what the world does to a
 * run — the target folder renamed away and back, files deleted, truncated and
 * rewritten while the run reads them, permission denied on files, folders and
 * the work folder (the run as `nobody`: root ignores file modes), FIFOs
 * before and after the crawl, and a full disk under the work folder (a small
 * tmpfs, or an injected ENOSPC where mounting is not allowed) — also filled
 * by "another program" the moment LibreOffice starts on a file (issue 15).
 *
 * @module
 */
import { formatFailureText, type IngestRow, messages, seededRandom } from "@sagasu/domain"

// A row's failure as the ingest list's text, for a check's message.
const textOf = (row: IngestRow | undefined) => (row?.failure === undefined ? "" : formatFailureText(row.failure))
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import {
  type CleanReference,
  checkEndState,
  type CliChild,
  type Tally,
  firstDifference,
  ingestRows,
  makeWork,
  processesMentioning,
  rowStates,
  runCli,
  searchAnswers,
  sleep,
  snapshot,
  snapshotDiff,
  startIndex
} from "./_harness.ts"
import { runInProcess } from "./_in_process.ts"
import { makeMixedTree } from "./_mixed_tree.ts"
import { makeTree } from "../make_tree.ts"

/** Options of {@link environmentPart}. */
export interface EnvironmentOptions {
  readonly base: string
  readonly seed: number
  /** Repetitions of the folder-renamed and files-changed scenarios. */
  readonly repeats: number
}

const nobody = { uid: 65534, gid: 65534 }

type Reference = CleanReference

/** A clean run over `targets` in a fresh work folder: what a faulted work folder must end equal to. */
async function referenceOf(work: string, targets: Record<string, string>, queries: ReadonlyArray<string>): Promise<Reference> {
  await makeWork(work, targets)
  const run = await runInProcess(work)
  if (run.code !== 0) throw new Error(`reference run failed: ${run.error}`)
  return { snapshot: snapshot(work), rows: rowStates(await ingestRows(work)), search: (await searchAnswers(work, queries)).answers }
}

function compareWith(tally: Tally, work: string, ref: Reference, queries: ReadonlyArray<string>, when: string) {
  return checkEndState(tally, work, ref, queries, when, "a clean run's")
}

/** Resolves when the child has printed `n` results (`[i/total]` lines) or has exited. */
function afterResults(child: CliChild, n: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if ((child.stdout().match(/^\[\d+\/\d+\] /gm) ?? []).length >= n) resolve()
    }
    child.onOut(check)
    void child.exited.then(() => resolve())
  })
}

/** Runs the environment part into `tally`. */
export async function environmentPart(options: EnvironmentOptions, tally: Tally): Promise<void> {
  fs.chmodSync(options.base, 0o755)
  // SAGASU_CHAOS_SCENARIOS=renamed,changing,permissions,fifo,disk runs some only (for debugging).
  const only = process.env.SAGASU_CHAOS_SCENARIOS?.split(",")
  const wanted = (name: string) => only === undefined || only.includes(name)
  if (wanted("renamed")) for (let i = 0; i < options.repeats; i++) await folderRenamed(options, tally, i)
  if (wanted("changing")) for (let i = 0; i < options.repeats; i++) await filesChangeMidRun(options, tally, i)
  if (wanted("permissions")) await permissionDenied(options, tally)
  if (wanted("fifo")) await fifos(options, tally)
  if (wanted("disk")) await diskFull(options, tally)
  if (wanted("disk-office")) await diskFullDuringOffice(options, tally)
}

// R13: the whole target folder disappears mid-run (a USB stick pulled, a share lost).
async function folderRenamed(options: EnvironmentOptions, tally: Tally, i: number) {
  const dir = path.join(options.base, `renamed-${i}`)
  const tree = await makeMixedTree(path.join(dir, "tree"), { seed: options.seed + i, good: 60, slow: 3, slowRows: 20_000, failing: 2, office: 0 })
  const ref = await referenceOf(path.join(dir, "clean"), { tree: tree.root }, tree.queries)
  const work = await makeWork(path.join(dir, "work"), { tree: tree.root })
  const child = startIndex(work)
  await afterResults(child, 3 + i * 7)
  fs.renameSync(tree.root, `${tree.root}-away`)
  tally.fault("target folder renamed away mid-run")
  const exit = await child.exited
  const lost = messages("ja").targetFolderLost("tree", tree.root)
  tally.check("R13: a lost target folder ends the run with exit 1", exit.code === 1, () => `rename ${i}: exit ${exit.code}: ${child.out().slice(-400)}`)
  tally.check("R13: the error names the lost folder", child.out().includes(lost), () => `rename ${i}: ${child.out().slice(-400)}`)
  const rows = rowStates(await ingestRows(work))
  const wrong = [...rows].filter(([k, s]) => s !== "pending" && s !== ref.rows.get(k))
  tally.check("R13: files not finished stay pending (none failed by the loss)", wrong.length === 0, () => `rename ${i}: ${wrong.slice(0, 5).map(([k, s]) => `${k} ${s}`).join(", ")}`)
  const diff = snapshotDiff(snapshot(work), ref.snapshot, { allowMissing: true })
  tally.check("C2: no partial body-index folder after the loss", diff.length === 0, () => `rename ${i}: ${diff.join("; ")}`)
  fs.renameSync(`${tree.root}-away`, tree.root)
  const again = await startIndex(work).exited
  tally.check("R13: renamed back, the next run completes", again.code === 0, () => `rename ${i}: exit ${again.code}`)
  await compareWith(tally, work, ref, tree.queries, `folder renamed back ${i}`)
}

// R13, §5: files deleted, truncated and rewritten while the run goes; never a crash, and two runs
// later the index equals a clean run's over the files as they are now.
async function filesChangeMidRun(options: EnvironmentOptions, tally: Tally, i: number) {
  const dir = path.join(options.base, `changing-${i}`)
  const tree = await makeMixedTree(path.join(dir, "tree"), { seed: options.seed + 10 + i, good: 80, slow: 2, slowRows: 20_000, failing: 0, office: 0 })
  const other = await makeTree(path.join(dir, "other"), { seed: options.seed + 20 + i, files: 12 })
  const work = await makeWork(path.join(dir, "work"), { tree: tree.root })
  const rand = seededRandom(options.seed + 30 + i)
  const child = startIndex(work)
  await afterResults(child, 4)
  // Files later in the target order (crawl order) and a few anywhere: some may be in flight.
  const paths = tree.files.map((f) => f.path).sort()
  const late = paths.slice(-24)
  const pick = () => late.splice(Math.floor(rand() * late.length), 1)[0] ?? ""
  const full = (p: string) => path.join(tree.root, ...p.split("/"))
  for (let k = 0; k < 4; k++) {
    fs.rmSync(full(pick()))
    tally.fault("file deleted mid-run")
    const t = full(pick())
    fs.truncateSync(t, Math.floor(fs.statSync(t).size / 2))
    tally.fault("file truncated mid-run")
    const w = full(pick())
    fs.writeFileSync(w, fs.readFileSync(path.join(dir, "other", ...(other[k]?.path ?? "").split("/"))))
    tally.fault("file rewritten with other content mid-run")
  }
  const exit = await child.exited
  tally.check("files changing mid-run: the run completes (exit 0), no crash", exit.code === 0 && !/Unexpected error|予期しないエラー/.test(child.out()), () => `changing ${i}: exit ${exit.code}: ${child.out().slice(-400)}`)
  const again = await startIndex(work).exited
  tally.check("files changing mid-run: the next run completes", again.code === 0, () => `changing ${i}: exit ${again.code}`)
  const queries = [...tree.queries, ...other.slice(0, 4).map((f) => f.probe)]
  const ref = await referenceOf(path.join(dir, "clean"), { tree: tree.root }, queries)
  await compareWith(tally, work, ref, queries, `files changed mid-run ${i}`)
}

// Permission denied, with the run as `nobody` (root reads everything whatever the modes say).
async function permissionDenied(options: EnvironmentOptions, tally: Tally) {
  const dir = path.join(options.base, "permissions")
  fs.mkdirSync(dir, { recursive: true })
  fs.chmodSync(dir, 0o755)
  if (spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "--", "true"]).status !== 0) {
    tally.note("permissions: cannot run a process as nobody here (not root, or no setpriv): not tested")
    return
  }
  const tree = await makeMixedTree(path.join(dir, "tree"), { seed: options.seed + 40, good: 20, slow: 0, failing: 0, office: 0 })
  const secret = await makeTree(path.join(tree.root, "秘密"), { seed: options.seed + 41, files: 5 })
  const work = await makeWork(path.join(dir, "work"), { tree: tree.root })
  execFileSync("chown", ["-R", "65534:65534", work])
  const asNobody = { asUser: nobody }

  // The work folder itself not writable (R2): exit 1, nothing touched.
  const rootOwned = await makeWork(path.join(dir, "root-owned"), { tree: tree.root })
  const before = fs.readdirSync(rootOwned, { recursive: true }).length
  const denied = await runCli(["index", "--yes", "--work", rootOwned], asNobody)
  tally.fault("work folder not writable")
  tally.check("R2: a work folder that cannot be written ends with exit 1 and says so", denied.code === 1 && /cannot be written/.test(denied.out), () => `exit ${denied.code}: ${denied.out.slice(-300)}`)
  tally.check("R2: nothing is written to it", fs.readdirSync(rootOwned, { recursive: true }).length === before, () => "files appeared")

  const first = await runCli(["index", "--yes", "--verbose", "--work", work], asNobody)
  tally.check("permissions: the first run as nobody completes", first.code === 0, () => `exit ${first.code}: ${first.out.slice(-400)}`)
  const indexed = snapshot(work)

  // Three files lose their read permission (and change, so they are targets); a folder loses its.
  const unreadable = tree.files.slice(0, 3).map((f) => path.join(tree.root, ...f.path.split("/")))
  for (const f of unreadable) {
    fs.chmodSync(f, 0o000)
    fs.utimesSync(f, new Date(), new Date())
    tally.fault("file without read permission")
  }
  const secretDir = path.join(tree.root, "秘密")
  fs.chmodSync(secretDir, 0o000)
  tally.fault("folder without read permission")
  const second = await runCli(["index", "--yes", "--verbose", "--work", work], asNobody)
  tally.check("permissions: the run completes (exit 0)", second.code === 0, () => `exit ${second.code}: ${second.out.slice(-400)}`)
  const rows = await ingestRows(work)
  for (const f of tree.files.slice(0, 3)) {
    const row = rows.get(`tree/${f.path}`)
    tally.check("permissions: an unreadable file fails with reason unreadable (permission denied)", row?.failure?.reason === "unreadable" && /permission denied|EACCES/i.test(row.failure.detail), () => `${f.path}: ${row?.status} ${textOf(row)}`)
  }
  tally.check("permissions: the unreadable folder is logged as skipped", /飛ばしました: tree\/秘密 — .*（unreadable/.test(second.out), () => second.out.slice(-400))
  const secretRows = secret.map((f) => rows.get(`tree/秘密/${f.path}`)?.status)
  tally.check("R8: files in a folder that cannot be read keep their rows (not vanished)", secretRows.every((s) => s === "done"), () => `rows: ${secretRows.join(", ")}`)
  const secretFolders = [...indexed.keys()].filter((k) => k.startsWith("tree/秘密/"))
  const after = snapshot(work)
  tally.check("R8: files in a folder that cannot be read keep their body index", secretFolders.every((k) => after.get(k) === indexed.get(k)), () => `${secretFolders.filter((k) => after.get(k) !== indexed.get(k)).length} of ${secretFolders.length} folders gone`)

  // Permissions back: the next run, without --retry-failed (an unreadable file is the environment's
  // failure, issue 15), ingests them and ends equal to a clean run.
  fs.chmodSync(secretDir, 0o755)
  for (const f of unreadable) fs.chmodSync(f, 0o644)
  const third = await runCli(["index", "--yes", "--verbose", "--work", work], asNobody)
  tally.check("permissions: back, the next run (no --retry-failed) completes", third.code === 0, () => `exit ${third.code}: ${third.out.slice(-400)}`)
  const ref = await referenceOf(path.join(dir, "clean"), { tree: tree.root }, tree.queries)
  await compareWith(tally, work, ref, tree.queries, "permissions restored")
}

// §5: the crawl never opens a FIFO; a FIFO that replaces a file after the crawl does not hang the run.
async function fifos(options: EnvironmentOptions, tally: Tally) {
  const dir = path.join(options.base, "fifo")
  const tree = await makeMixedTree(path.join(dir, "tree"), { seed: options.seed + 50, good: 12, slow: 1, slowRows: 20_000, failing: 0, office: 0 })
  execFileSync("mkfifo", [path.join(tree.root, "パイプ.xlsx"), path.join(tree.root, "通常", "名前付きパイプ.docx")])
  tally.fault("FIFO in the tree at the crawl", 2)
  const work = await makeWork(path.join(dir, "work"), { tree: tree.root }, { fileTimeoutMinutes: 0.1 })
  const first = startIndex(work)
  const hang = setTimeout(() => first.child.kill("SIGKILL"), 90_000)
  const exit = await first.exited
  clearTimeout(hang)
  tally.check("§5: the crawl does not hang on a FIFO (exit 0)", exit.code === 0, () => `exit ${exit.code} ${exit.signal ?? ""} after ${exit.ms} ms`)
  tally.check("§5: the FIFO is logged as skipped (not-a-file)", /飛ばしました: tree\/パイプ\.xlsx — .*（not-a-file/.test(first.out()), () => first.out().slice(-300))

  // After the crawl: the last file in target order becomes a FIFO while the run reads the others.
  for (const f of tree.files) fs.utimesSync(path.join(tree.root, ...f.path.split("/")), new Date(), new Date())
  const victim = path.join(tree.root, ...([...tree.files].map((f) => f.path).sort().at(-1) ?? "").split("/"))
  const second = startIndex(work)
  await afterResults(second, 1)
  fs.rmSync(victim)
  execFileSync("mkfifo", [victim])
  tally.fault("file replaced by a FIFO after the crawl")
  let hung = false
  const limit = setTimeout(() => {
    hung = true
    // Unblock whatever waits on the FIFO by opening its other end, then give up on the run.
    try {
      fs.closeSync(fs.openSync(victim, fs.constants.O_RDWR | fs.constants.O_NONBLOCK))
    } catch {
      // nothing waited
    }
    setTimeout(() => second.child.kill("SIGKILL"), 5000)
  }, 60_000)
  const exit2 = await second.exited
  clearTimeout(limit)
  tally.check("a FIFO swapped in after the crawl does not hang the run (ends within the file time limit)", !hung && exit2.code === 0, () => `exit ${exit2.code} ${exit2.signal ?? ""} after ${exit2.ms} ms${hung ? " (hung: unblocked by the campaign)" : ""}: ${second.out().slice(-300)}`)
  const row = (await ingestRows(work)).get(`tree/${path.relative(tree.root, victim).split(path.sep).join("/")}`)
  tally.check("the FIFO swapped in fails with a reason", row?.status === "failed" || row === undefined || row.status === "pending", () => `${row?.status} ${textOf(row)}`)
  fs.rmSync(victim, { force: true })
}

// R18: the disk under the work folder fills up mid-run.
async function diskFull(options: EnvironmentOptions, tally: Tally) {
  const dir = path.join(options.base, "disk-full")
  const treeA = await makeMixedTree(path.join(dir, "a"), { seed: options.seed + 60, good: 30, slow: 0, failing: 0, office: 0 })
  const treeB = await makeMixedTree(path.join(dir, "b"), { seed: options.seed + 61, good: 120, slow: 2, slowRows: 20_000, failing: 0, office: 0 })
  const mnt = path.join(dir, "mnt")
  fs.mkdirSync(mnt, { recursive: true })
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", mnt]).status === 0
  const work = path.join(mnt, "work")
  try {
    await makeWork(work, { a: treeA.root })
    const first = await startIndex(work).exited
    if (first.code !== 0) throw new Error(`disk full: the first run failed (${first.code})`)
    const answersA = (await searchAnswers(work, treeA.queries, { index: "a" })).answers
    const settings = JSON.parse(fs.readFileSync(path.join(work, "setting.config"), "utf8")) as { targetFolders: Array<unknown> }
    settings.targetFolders.push({ name: "b", path: treeB.root, enabled: true })
    fs.writeFileSync(path.join(work, "setting.config"), JSON.stringify(settings))
    let env: Record<string, string> = {}
    if (mounted) {
      // Leave about 1.5 MB: index b needs several times that.
      const used = Number(execFileSync("df", ["--output=used", "-B1", mnt], { encoding: "utf8" }).split("\n")[1]?.trim() ?? "0")
      execFileSync("mount", ["-o", `remount,size=${used + 1_500_000}`, mnt])
      tally.fault("disk full: a small tmpfs under the work folder")
    } else {
      env = { SAGASU_CHAOS_ENOSPC: `${work}/:400` }
      tally.fault("disk full: ENOSPC injected after 400 writes (mounting not allowed)")
      tally.note("disk full: tmpfs could not be mounted (not root?); ENOSPC was injected instead")
    }
    const full = startIndex(work, mounted ? {} : { preload: true, env })
    const exit = await full.exited
    if (process.env.SAGASU_CHAOS_DEBUG !== undefined) console.log(full.out().slice(-3000))
    tally.check("R18: a full disk ends the run with exit 1", exit.code === 1, () => `exit ${exit.code}: ${full.out().slice(-500)}`)
    tally.check("R18: the message says the disk is full", /ENOSPC|no space|disk is full|ディスク/i.test(full.out()), () => full.out().slice(-500))
    const afterA = (await searchAnswers(work, treeA.queries, { index: "a" })).answers
    for (const q of treeA.queries) {
      tally.check("R18: the previous index still answers searches", afterA.get(q) === answersA.get(q), () => `query ${q}: ${firstDifference(afterA.get(q) ?? "", answersA.get(q) ?? "")}`)
    }
    const rows = await ingestRows(work)
    const failedByDisk = [...rows].filter(([, r]) => r.status === "failed")
    tally.check("R18: no file is recorded as failed because the work folder was full", failedByDisk.length === 0, () => `${failedByDisk.length} rows failed, e.g. ${failedByDisk.slice(0, 2).map(([k, r]) => `${k}: ${textOf(r)}`).join("; ")}`)

    // Space again: the next run completes to a clean run's state.
    if (mounted) execFileSync("mount", ["-o", "remount,size=256m", mnt])
    const again = await startIndex(work).exited
    tally.check("R18: with space again, the next run completes", again.code === 0, () => `exit ${again.code}`)
    const queries = [...new Set([...treeA.queries, ...treeB.queries])]
    const ref = await referenceOf(path.join(dir, "clean"), { a: treeA.root, b: treeB.root }, queries)
    await compareWith(tally, work, ref, queries, "disk full, then space again")
  } finally {
    if (mounted) {
      await sleep(200)
      spawnSync("umount", [mnt])
    }
  }
}

// R18 (issue 15): the work folder's disk is filled by another program the moment LibreOffice starts
// on a file. Its failures blamed the files (office-start-failed … insufficient free disk space,
// conversion-failed … Class:Space, corrupt) and those stayed failed; now the run ends with the
// disk-full error, the files stay pending, and with space again the next run equals a clean run.
async function diskFullDuringOffice(options: EnvironmentOptions, tally: Tally) {
  const dir = path.join(options.base, "disk-full-office")
  const tree = await makeMixedTree(path.join(dir, "tree"), { seed: options.seed + 70, good: 12, slow: 0, failing: 0, office: 4 })
  if (!tree.files.some((f) => f.kind === "office")) {
    tally.note("disk full during LibreOffice: no corpus, so no file needs LibreOffice: not tested")
    return
  }
  const mnt = path.join(dir, "mnt")
  fs.mkdirSync(mnt, { recursive: true })
  if (spawnSync("mount", ["-t", "tmpfs", "-o", "size=128m", "tmpfs", mnt]).status !== 0) {
    // LibreOffice is another process: the preload's injected ENOSPC cannot reach it.
    tally.note("disk full during LibreOffice: tmpfs could not be mounted (not root?): not tested")
    return
  }
  const work = path.join(mnt, "work")
  const filler = path.join(mnt, "another-program.bin")
  let run: CliChild | undefined
  try {
    // A short file limit, so that a LibreOffice that hangs on the full disk ends (as `timeout`) within the scenario.
    await makeWork(work, { tree: tree.root }, { ingestThreads: 1, fileTimeoutMinutes: 1 })
    const child = startIndex(work)
    run = child
    // The other program fills the disk, leaving 200 kB, as soon as LibreOffice has started.
    const area = path.join(work, "tmp", "office")
    let filled = false
    while (!filled && child.child.exitCode === null && child.child.signalCode === null) {
      if (processesMentioning(area).length > 0) {
        fillLeaving(filler, 200_000)
        filled = true
      } else {
        await sleep(20)
      }
    }
    const guard = setTimeout(() => child.child.kill("SIGKILL"), 5 * 60_000)
    const exit = await child.exited
    clearTimeout(guard)
    if (!filled) {
      tally.note("disk full during LibreOffice: the run ended before LibreOffice started: nothing injected")
      return
    }
    tally.fault("disk full during LibreOffice: the disk filled by another program as LibreOffice starts")
    const out = child.out()
    if (process.env.SAGASU_CHAOS_DEBUG !== undefined) console.log(out.slice(-3000))
    tally.check("R18: a full disk during LibreOffice ends the run with exit 1", exit.code === 1, () => `exit ${exit.code} ${exit.signal ?? ""}: ${out.slice(-500)}`)
    tally.check("R18: the message says the disk of the work folder is full", /作業フォルダのディスクがいっぱいです/.test(out), () => out.slice(-500))
    const ref = await referenceOf(path.join(dir, "clean"), { tree: tree.root }, tree.queries)
    const rows = await ingestRows(work)
    const blamed = [...rows].filter(([k, r]) => r.status === "failed" && ref.rows.get(k) !== `failed ${r.failure?.reason ?? ""}`)
    tally.check("R18: no file is recorded failed because the disk was full (only what a clean run fails)", blamed.length === 0, () => `${blamed.length} rows, e.g. ${blamed.slice(0, 2).map(([k, r]) => `${k}: ${textOf(r).slice(0, 200)}`).join("; ")}`)
    tally.check("R18: no LibreOffice of the run is left", processesMentioning(area).length === 0, () => processesMentioning(area).map((p) => p.cmd).join("; "))

    // Space again: the next run, without --retry-failed, ends equal to a clean run.
    fs.rmSync(filler)
    const again = await startIndex(work).exited
    tally.check("R18: with space again, the next run completes (no --retry-failed)", again.code === 0, () => `exit ${again.code}`)
    await compareWith(tally, work, ref, tree.queries, "disk full during LibreOffice, then space again")
  } finally {
    if (run !== undefined && run.child.exitCode === null && run.child.signalCode === null) {
      run.child.kill("SIGKILL")
      await run.exited
    }
    await sleep(200)
    if (spawnSync("umount", [mnt]).status !== 0) spawnSync("umount", ["-l", mnt])
  }
}

// Writes `file` until its disk is full (the run writes too, so a size measured first would race),
// then gives `leave` bytes back.
function fillLeaving(file: string, leave: number) {
  const fd = fs.openSync(file, "w")
  let size = 0
  try {
    for (const chunk of [Buffer.alloc(1 << 20), Buffer.alloc(4096)]) {
      for (;;) {
        try {
          size += fs.writeSync(fd, chunk)
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === "ENOSPC") break
          throw e
        }
      }
    }
    fs.ftruncateSync(fd, Math.max(0, size - leave))
  } finally {
    fs.closeSync(fd)
  }
}
