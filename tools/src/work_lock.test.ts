/**
 * The one-run lock (R3) through another path to the same work folder (issue
 * 15): two real `sagasu index` processes, one through the folder W and one
 * through a symbolic link L to it. The first is held at its plan question —
 * the lock taken, its log open — so the second is tried while the lock is
 * certainly held, with no guess of how long a run takes.
 */
import { messages } from "@sagasu/domain"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { type CliChild, makeWork, runCli, startCli } from "./chaos/_harness.ts"
import { makeTree } from "./make_tree.ts"

const base = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-lock-"))
afterAll(() => fs.rmSync(base, { recursive: true, force: true }))

const question = "取り込みを始めますか？"

/** Resolves once the child has printed `text` (or rejects when it exits first). */
const printed = (child: CliChild, text: string) =>
  new Promise<void>((resolve, reject) => {
    const check = () => child.out().includes(text) && resolve()
    child.onOut(check)
    check()
    void child.exited.then((e) => reject(new Error(`exited ${e.code} before printing ${text}: ${child.out().slice(-400)}`)))
  })

describe("sagasu index: one run per work folder, whatever path names it (R3)", () => {
  for (const [first, second] of [["W", "L"], ["L", "W"]] as const) {
    it(`a run through ${second} is refused while a run through ${first} holds the lock`, async () => {
      const dir = fs.mkdtempSync(path.join(base, `${first}${second}-`))
      const tree = path.join(dir, "tree")
      await makeTree(tree, { seed: 15, files: 2 })
      const work = await makeWork(path.join(dir, "W"), { tree })
      const link = path.join(dir, "L")
      fs.symlinkSync(work, link)
      const via = { W: work, L: link }

      const holder = startCli(["index", "--work", via[first]])
      await printed(holder, question) // the lock is held while the question waits
      const log = fs.readFileSync(path.join(work, "indexing_log.txt"))
      const refused = await runCli(["index", "--yes", "--work", via[second]])
      expect(refused.out).toContain(messages("ja").lockHeld)
      expect(refused.code).toBe(1)
      // R3: the refused run touched nothing, not even the log (no rotation).
      expect(fs.readFileSync(path.join(work, "indexing_log.txt")).equals(log)).toBe(true)
      expect(fs.existsSync(path.join(work, "indexing_log_previous.txt"))).toBe(false)
      // status says a run is going on, not 「前回の」 (new-user trial).
      const status = await runCli(["status", "--work", via[second]])
      expect(status.out.split("\n").slice(0, 2)).toEqual(["インデックス作成: 実行中 — 確認、処理済み 0、残り 2、失敗 0", `  いま: ${messages("ja").waitingForAnswer}`])

      holder.child.stdin?.end("y\n")
      const done = await holder.exited
      expect(done.code, holder.out().slice(-400)).toBe(0)
      expect(holder.out()).toContain("インデックス作成が完了しました。（成功: 2 件 / 失敗: 0 件）")
    }, 600_000)
  }
})
