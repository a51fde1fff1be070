/**
 * Concurrency (R3, R4): rounds of four `sagasu index` started at the same
 * moment on one work folder. Exactly one may run; the others must exit 1
 * with the seed's message and touch nothing — not even the log: after the
 * round `indexing_log_previous.txt` is byte for byte the log from before the
 * round (one rotation happened) and `indexing_log.txt` is the winner's.
 *
 * Half of each round's runs name the work folder through a symbolic link to
 * it (issue 15: runs through W and a link L both ran, shared one LibreOffice
 * profile and lost a log); the other half name the folder itself.
 *
 * @module
 */
import { messages, seededRandom } from "@sagasu/domain"
import * as fs from "node:fs"
import * as path from "node:path"
import { type Tally, lockIsFree, makeWork, startIndex, touch } from "./_harness.ts"
import { makeMixedTree } from "./_mixed_tree.ts"

/** Options of {@link concurrencyPart}. */
export interface ConcurrencyOptions {
  readonly base: string
  readonly seed: number
  readonly rounds: number
  /** Runs started at once per round. */
  readonly runners: number
}

/** Runs the concurrency part into `tally`. */
export async function concurrencyPart(options: ConcurrencyOptions, tally: Tally): Promise<void> {
  const started = Date.now()
  // Two slow files keep the winner busy for longer than the others' start-up can differ.
  const tree = await makeMixedTree(path.join(options.base, "tree"), { seed: options.seed, good: 20, slow: 2, slowRows: 20_000, failing: 0, office: 0 })
  const work = await makeWork(path.join(options.base, "work"), { tree: tree.root })
  const link = path.join(options.base, "work-link")
  fs.symlinkSync(work, link)
  const first = await startIndex(work).exited
  if (first.code !== 0) throw new Error(`the first run failed (${first.code})`)
  const held = messages("ja").lockHeld
  const log = path.join(work, "indexing_log.txt")
  const previous = path.join(work, "indexing_log_previous.txt")
  const rand = seededRandom(options.seed + 3)
  const overlaps: Array<number> = []

  for (let round = 1; round <= options.rounds; round++) {
    // The winner needs work: the slow files and a seeded few others change (R8).
    for (const f of tree.files) {
      if (f.kind === "slow" || rand() < 0.3) touch(path.join(tree.root, ...f.path.split("/")), Date.now() - Math.floor(rand() * 1e9))
    }
    const logBefore = fs.readFileSync(log)
    // Through the folder and through the link, alternately (the order shifts each round).
    const children = Array.from({ length: options.runners }, (_, i) => startIndex((i + round) % 2 === 0 ? work : link))
    const exits = await Promise.all(children.map((c) => c.exited))
    tally.fault(`${options.runners} runs started at once`)
    tally.fault("symlinked work folder: runs through the folder and a link to it, at once")
    const winners = children.filter((_, i) => exits[i]?.code === 0)
    const losers = children.filter((_, i) => exits[i]?.code === 1)
    tally.check("R3: exactly one of the runs started at once runs", winners.length === 1, () => `round ${round}: exit codes ${exits.map((e) => e.code).join(", ")}`)
    tally.check("R3: the others exit 1", losers.length === options.runners - 1, () => `round ${round}: exit codes ${exits.map((e) => e.code).join(", ")}`)
    for (const l of losers) {
      const out = l.out()
      tally.check("R3: the others say the seed's message", out.includes(held), () => `round ${round}: ${out.slice(0, 300)}`)
      tally.check("R3, R4: the others write no log (no header printed)", !/^Sagasu \S+ — /m.test(out), () => `round ${round}: ${out.slice(0, 300)}`)
    }
    const winner = winners[0]
    if (winner !== undefined) {
      const logAfter = fs.readFileSync(log, "utf8")
      tally.check("R4: the log is the one winner's", logAfter.includes(`プロセス番号 ${winner.child.pid}\n`) && logAfter.includes("インデックス作成が完了しました"), () => `round ${round}: ${logAfter.slice(0, 400)}`)
      tally.check("R3: the log was rotated exactly once (the others left it untouched)", fs.readFileSync(previous).equals(logBefore), () => `round ${round}: indexing_log_previous.txt is not the log from before the round`)
      // How long the losers' attempts overlapped the winner's run: the margin this round had.
      const lastLoser = Math.max(...losers.map((l) => l.started + (exits[children.indexOf(l)]?.ms ?? 0)))
      overlaps.push(winner.started + (exits[children.indexOf(winner)]?.ms ?? 0) - lastLoser)
    }
    tally.check("R3: the lock is free after the round", await lockIsFree(work), () => `round ${round}: the lock is held`)
    if (round % 10 === 0) console.log(`  concurrency: ${round}/${options.rounds} rounds, ${tally.violations.length} violations, ${Math.round((Date.now() - started) / 1000)} s`)
  }
  overlaps.sort((a, b) => a - b)
  tally.figures.set("concurrency: the winner outlived the last refused run by", `min ${overlaps[0] ?? 0} ms, median ${overlaps[Math.floor(overlaps.length / 2)] ?? 0} ms`)
  tally.note(`concurrency: ${options.rounds} rounds of ${options.runners} in ${Math.round((Date.now() - started) / 1000)} s`)
}
