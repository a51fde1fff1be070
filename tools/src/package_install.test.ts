/**
 * The installable package (issue 19): `buildPackage` (package_build.ts) packs
 * `sagasu-<version>.tgz`, `npm install -g --prefix` installs it offline into
 * a temporary prefix outside the repository, and the installed `sagasu` runs
 * init / add / index / search / status on the sample documents and serves
 * the GUI's page, from a folder outside the repository. Nothing is built at
 * start (no worker bundle appears in the temp folder) and nothing is written
 * into the install folder.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort } from "@sagasu/team/testing"
import { repoRoot } from "./corpus.ts"
import { makeSamples } from "./make_samples.ts"
import { buildPackage, packageVersion } from "./package_build.ts"

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-package-")))
const prefix = path.join(base, "prefix")
const installed = path.join(prefix, "lib", "node_modules", "sagasu")
const bin = path.join(prefix, "bin", "sagasu")
const work = path.join(base, "work")
const samples = path.join(base, "samples")
// The children's temp folder: a worker bundle built at start would land here.
const tmp = path.join(base, "tmp")
let tgz = ""

// No npm_* variables of the test run, no NODE_PATH: the command sees what a user's shell gives it.
// No XDG_CACHE_HOME: the user's cache folder is then under HOME, the test's folder.
const env = (): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("npm_") && !["NODE_PATH", "NODE_OPTIONS", "XDG_CACHE_HOME"].includes(k)) e[k] = v
  return { ...e, NO_COLOR: "1", TMPDIR: tmp, HOME: base, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}` }
}
const sagasu = (...args: Array<string>) => {
  const r = spawnSync(bin, [...args, "--work", work], { cwd: base, encoding: "utf8", env: env() })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

/** Every file of `dir` with its size and modified time. */
const snapshot = (dir: string): Record<string, string> =>
  Object.fromEntries(
    fs.readdirSync(dir, { recursive: true, withFileTypes: true }).map((e) => {
      const file = path.join(e.parentPath, e.name)
      const st = fs.lstatSync(file)
      return [path.relative(dir, file), `${st.size}:${st.mtimeMs}`]
    })
  )
let installedFiles: Record<string, string> = {}

beforeAll(async () => {
  fs.mkdirSync(tmp)
  tgz = await buildPackage(path.join(base, "out"))
  execFileSync("npm", ["install", "-g", "--prefix", prefix, tgz, "--offline", "--no-audit", "--no-fund", "--no-update-notifier", "--loglevel=warn", "--cache", path.join(base, "npm-cache")], {
    cwd: base,
    encoding: "utf8",
    env: env()
  })
  installedFiles = snapshot(installed)
  await makeSamples(samples)
}, 600_000)
afterAll(() => fs.rmSync(base, { recursive: true, force: true }))

// The per-test limits are hang guards, not speeds (issue 15 item 11).
describe("the sagasu package, installed outside the repository (issue 19)", () => {
  it("is sagasu-<version>.tgz with the bundles, the page and no dependencies", () => {
    expect(path.basename(tgz)).toBe(`sagasu-${packageVersion()}.tgz`)
    expect(path.relative(repoRoot, base).startsWith("..")).toBe(true)
    const files = execFileSync("tar", ["-tzf", tgz], { encoding: "utf8" }).trim().split("\n").sort()
    expect(files).toEqual(
      [
        "README.md", "THIRD_PARTY_LICENSES.txt", "bin/bundle.js", "bin/package.json", "bin/sagasu.js", "dist/cli.mjs", "dist/gram_worker.mjs", "dist/page/app.js", "dist/page/index.html",
        "dist/page/page.css", "dist/plain_worker.mjs", "dist/search.cjs", "dist/search_worker.mjs", "package.json"
      ].map((f) => `package/${f}`)
    )
    // The notices of the bundled packages, such as Effect's and jszip's.
    const notices = fs.readFileSync(path.join(installed, "THIRD_PARTY_LICENSES.txt"), "utf8")
    for (const name of ["effect@", "@effect/cli@", "jszip@", "saxes@"]) expect(notices).toContain(`\n${name}`)
    const manifest = JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8")) as Record<string, unknown>
    expect(manifest).toMatchObject({ name: "sagasu", version: packageVersion(), bin: { sagasu: "bin/sagasu.js" } })
    expect(manifest.dependencies).toBeUndefined()
    // Nothing else was installed: the bundles hold every runtime dependency.
    expect(fs.readdirSync(path.join(prefix, "lib", "node_modules"))).toEqual(["sagasu"])
  })

  it("runs --version, init, add, index, search and status on the samples", () => {
    const v = sagasu("--version")
    expect(v.code).toBe(0)
    expect(v.out.trim()).toBe(packageVersion())
    // SAGASU_NO_BUNDLE=1 (run the sources through tsx) means nothing to a package without sources.
    const unbundled = spawnSync(bin, ["--version"], { cwd: base, encoding: "utf8", env: { ...env(), SAGASU_NO_BUNDLE: "1" } })
    expect([unbundled.status, unbundled.stdout.trim()]).toEqual([0, packageVersion()])
    expect(sagasu("init").code).toBe(0)
    expect(fs.existsSync(path.join(work, "setting.config"))).toBe(true)
    const add = sagasu("add", "サンプル", samples)
    expect(add.code).toBe(0)
    expect(add.out).toContain(`インデックス「サンプル」を追加しました: ${samples}`)

    const index = sagasu("index", "--yes")
    expect(index.err).toBe("")
    expect(index.code).toBe(0)
    expect(index.out).toContain("インデックス作成が完了しました。（成功: 4 件 / 失敗: 0 件）")

    // The cold-start search (dist/search.cjs) and the full command (--json is the same path; a
    // wrong --type hands over to dist/cli.mjs).
    const search = sagasu("search", "見積番号")
    expect(search.code).toBe(0)
    expect(search.out).toMatch(/^サンプル {2}見積\/見積書_A-1234\.xlsx {2}\(1 件 · \d{4}-\d{2}-\d{2} · \d+ KB\)\n {2}見積書!B3\n {4}【見積番号】 A-1234\n/)
    expect(search.out).toContain("1 件（1 ファイル）: 1〜1 ファイル目\n")
    // Its V8 code cache went to the user's cache folder (HOME is the test's folder), never the install's;
    // the next search runs from it and prints the same.
    const userCache = path.join(base, ".cache", "sagasu")
    expect(fs.readdirSync(userCache).filter((n) => /^search-\d+-\d+-v8-.+\.v8cache$/.test(n))).toHaveLength(1)
    expect(sagasu("search", "見積番号")).toEqual(search)
    const json = sagasu("search", "見積番号", "--json")
    expect(json.code).toBe(0)
    expect(JSON.parse(json.out)).toMatchObject([{ index: "サンプル", path: "見積/見積書_A-1234.xlsx", absolutePath: path.join(samples, "見積", "見積書_A-1234.xlsx"), location: "見積書!B3" }])
    const wrong = sagasu("search", "見積番号", "--type", "foo")
    expect(wrong.code).toBe(1)
    expect(wrong.err).toContain("foo")

    const status = sagasu("status")
    expect(status.code).toBe(0)
    expect(status.out).toContain(`サンプル  ${samples}  済 4 / 失敗 0 / 未取り込み 0`)
  }, 300_000)

  it("serves the GUI's page and searches through its search thread (gui --no-open)", async () => {
    const port = await freePort()
    const child: ChildProcess = spawn(bin, ["gui", "--no-open", "--port", String(port), "--work", work], { cwd: base, env: env(), stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    let err = ""
    child.stdout?.on("data", (b: Buffer) => (out += b.toString()))
    child.stderr?.on("data", (b: Buffer) => (err += b.toString()))
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const look = () => {
          const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(out)
          if (m !== null) resolve(m[0])
        }
        child.stdout?.on("data", look)
        void exited.then((code) => reject(new Error(`gui exited ${code}: ${out}${err}`)))
      })
      expect(url.startsWith(`http://127.0.0.1:${port}/?token=`)).toBe(true)
      const page = await fetch(url)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain("<title>Sagasu</title>")
      const script = await fetch(`http://127.0.0.1:${port}/app.js`)
      expect(script.status).toBe(200)
      expect(await script.text()).toBe(fs.readFileSync(path.join(installed, "dist", "page", "app.js"), "utf8"))
      const token = new URL(url).searchParams.get("token") ?? ""
      const found = await fetch(`http://127.0.0.1:${port}/api/search?q=${encodeURIComponent("見積番号")}`, { headers: { "X-Sagasu-Token": token } })
      expect(found.status).toBe(200)
      expect(await found.json()).toMatchObject({ files: [{ index: "サンプル", path: "見積/見積書_A-1234.xlsx" }], totals: { files: 1 } })
    } finally {
      child.kill("SIGINT")
      await exited
    }
    expect(err).toBe("")
  }, 300_000)

  it("built nothing at start and wrote nothing into its install folder", () => {
    expect(fs.readdirSync(tmp).filter((n) => n.startsWith("sagasu-"))).toEqual([])
    expect(snapshot(installed)).toEqual(installedFiles)
  })
})
