/**
 * Issue 18 end to end, against a real PostgreSQL the test starts: the
 * real-file corpus indexed by the indexing run with a `teamServer` set (the
 * run publishes at its end), then every MANIFEST expected string — typed as
 * it stands — and short Japanese queries searched locally and on the
 * server: the same files with the same hits and shown locations (where
 * the local 2-gram index disagrees, the local scan of the body index, its
 * reference, must agree with the server). And the
 * CLI: `sagasu search --server --json` answers what the local search
 * answers, `sagasu publish` finds nothing left to send.
 */
import type { NodeContext } from "@effect/platform-node"
import { defaultSettings } from "@sagasu/domain"
import { makeChannel, runIndexer } from "@sagasu/ingest"
import { type FileHit, type WorkStore, formatSettings } from "@sagasu/store"
import {
  NodeWithWorkStore, initWorkFolder, openGramRound, readIngestList, scanBodyIndexFiles, searchIndexFiles, updateGramIndexesOfRound, writeSettings
} from "@sagasu/store/testing"
import { searchTeamFiles } from "@sagasu/team"
import { type PrivateCluster, postgresMissing, startPrivateCluster } from "@sagasu/team/testing"
import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest"
import { corpusDir, readManifest, repoRoot } from "./corpus.ts"

const run = <A, E>(effect: Effect.Effect<A, E, NodeContext.NodeContext | WorkStore>) => Effect.runPromise(Effect.provide(effect, NodeWithWorkStore))

const missing = postgresMissing()
if (missing !== undefined) console.warn(`team server tests skipped: ${missing}`)

// A file as both searches must give it: where, how many hits, and each shown location with its snippet.
const shape = (f: FileHit) =>
  `${f.index}\t${f.path}\t${f.hits}\t${f.nameTerms}\t${f.near}\t${f.modifiedMs}\t${f.size}\t` + f.locations.map((l) => `${l.location}=${l.snippet}`).join("|")
const shapes = (files: ReadonlyArray<FileHit>) => files.map(shape).sort()

describe.skipIf(missing !== undefined)("the team server on the corpus (issue 18)", () => {
  let cluster: PrivateCluster
  beforeAll(async () => {
    cluster = await startPrivateCluster()
    cluster.psql("CREATE DATABASE corpus")
  })
  afterAll(() => cluster?.stop())

  it("publishes the corpus at the end of the run; the server's hits equal the local search's for every expected string", async () => {
    process.env.SAGASU_TEST_TEAM_PASSWORD = cluster.adminPassword
    const server = { url: cluster.url({ database: "corpus" }), passwordEnv: "SAGASU_TEST_TEAM_PASSWORD", search: false }
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-team-corpus-"))
    // The corpus's work folder (≈ 145 MB) goes once the test has run.
    onTestFinished(() => fs.rmSync(work, { recursive: true, force: true }))
    const paths = await run(initWorkFolder(work, formatSettings(defaultSettings)))
    await run(writeSettings(paths, {
      ...defaultSettings,
      targetFolders: [{ name: "corpus", path: path.join(corpusDir, "files"), enabled: true }],
      teamServer: server
    }))
    const code = await run(Effect.flatMap(makeChannel(), (channel) =>
      runIndexer(channel, { work, version: "test", updateGram: (p, changes) => updateGramIndexesOfRound(p, changes), gramRound: (p) => openGramRound(p) })))
    expect(code).toBe(0)
    const log = fs.readFileSync(path.join(work, "indexing_log.txt"), "utf8")
    const rows = await run(readIngestList(paths))
    const done = rows.filter((r) => r.status === "done")
    expect(log).toContain(`チームサーバーに公開しました: インデックス「corpus」 公開 ${done.length} 件 / 削除 0 件 / 変更なし 0 件（世代 1）`)

    const doneRows = new Set(done.map((r) => r.path))
    const queries = new Set<string>(["見", "日本", "会議", "表", "の", "2009", "\"next meeting\""])
    for (const row of readManifest()) {
      if (!doneRows.has(row.path.replace(/^files\//, ""))) continue
      for (const expected of row.expected) queries.add(expected)
    }
    expect(queries.size).toBeGreaterThan(200)
    const page = { limit: 10_000, locations: 3 }
    let files = 0
    const differ: Array<string> = []
    const gramDiffers: Array<string> = []
    const same = (a: { files: ReadonlyArray<FileHit>; totals: { hits: number } }, b: { files: ReadonlyArray<FileHit>; totals: { hits: number } }) =>
      JSON.stringify(shapes(a.files)) === JSON.stringify(shapes(b.files)) && a.totals.hits === b.totals.hits
    for (const q of queries) {
      const local = await run(searchIndexFiles(paths, q, page))
      const remote = await Effect.runPromise(searchTeamFiles(server, q, page))
      expect(local.engine).toBe("gram")
      expect(local.partial).toBe(false)
      files += remote.files.length
      if (same(remote, local)) continue
      // Where the 2-gram index and the server disagree, the local scan of the body index — the reference the
      // 2-gram index is tested against — decides: the server must give what it gives.
      const scanned = await run(scanBodyIndexFiles(paths, q, page))
      if (!same(remote, scanned)) differ.push(q)
      else gramDiffers.push(q)
    }
    console.log(`team server vs local search on the corpus: ${queries.size} queries, ${files} files found, ${differ.length} differing; ` +
      `the local 2-gram index differs from the scan (and the server) for ${gramDiffers.length}: ${gramDiffers.join(" / ")}`)
    expect(differ).toEqual([])
    expect(files).toBeGreaterThan(queries.size)

    // The CLI, as a person types it: the same files as the local search; a second publish sends nothing.
    const cli = (...args: ReadonlyArray<string>) =>
      spawnSync(process.execPath, [path.join(repoRoot, "apps", "cli", "bin", "sagasu.js"), ...args, "--work", work], {
        encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }
      })
    for (const q of ["見", "会議"]) {
      const onServer = cli("search", q, "--server", "--json", "--limit", "500")
      const here = cli("search", q, "--json", "--limit", "500")
      expect(onServer.status, onServer.stderr).toBe(0)
      const byPath = (out: string) => (JSON.parse(out) as Array<{ path: string; hits: number }>).map((f) => `${f.path}:${f.hits}`).sort()
      expect(byPath(onServer.stdout)).toEqual(byPath(here.stdout))
      expect(byPath(onServer.stdout).length).toBeGreaterThan(0)
    }
    const again = cli("publish")
    expect(again.status, again.stderr).toBe(0)
    expect(again.stdout).toContain(`公開 0 件 / 削除 0 件 / 変更なし ${done.length} 件（世代 1）`)
  }, 1_800_000)
})
