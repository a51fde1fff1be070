/**
 * bin/sagasu.js runs a bundle of the CLI (bin/bundle.js, issue 9). Inside it,
 * every source's `import.meta.url` must still be that source's own URL: the
 * GUI reads its page and the indexing run finds the worker's bundle relative
 * to it; a bundle that lost them falls back to transpiling the worker (seconds
 * per thread) or cannot serve the page.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"

const cliRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const repoRoot = path.resolve(cliRoot, "..", "..")
const cacheDir = path.join(repoRoot, "node_modules", ".cache", "sagasu")

describe("the bundled CLI (bin/bundle.js)", () => {
  it("keeps each source's import.meta.url and runs --version", () => {
    const run = spawnSync(process.execPath, [path.join(cliRoot, "bin", "sagasu.js"), "--version"], { encoding: "utf8" })
    expect(run.status).toBe(0)
    expect(run.stdout.trim()).toBe(JSON.parse(fs.readFileSync(path.join(cliRoot, "package.json"), "utf8")).version)
    const bundles = fs.readdirSync(cacheDir).filter((n) => n.startsWith("cli-") && n.endsWith(".mjs"))
    expect(bundles).toHaveLength(1)
    const text = fs.readFileSync(path.join(cacheDir, bundles[0] ?? ""), "utf8")
    // In our sources only the require() banner keeps the bundle's own URL: once on the first line, once as a string in
    // the worker's build options. (A package may keep its own: msgpackr looks for its optional native part with it, in the
    // GUI's code, which the bundle holds whole since only `sagasu gui` loads it.)
    const ours = text.split(/^\/\/ (?=\S+\.(?:ts|js|mjs|cjs)$)/m).filter((section) => !(section.split("\n", 1)[0] ?? "").includes("node_modules/"))
    expect(ours.join("").match(/import\.meta\.url/g)).toHaveLength(2)
    const sourceUrl = (rel: string) => JSON.stringify(pathToFileURL(path.join(repoRoot, rel)).href)
    expect(text).toContain(sourceUrl("libs/ingest/src/worker/worker_bundle.ts"))
    expect(text).toContain(sourceUrl("apps/gui/src/page_assets.ts"))
    // One byte a character in V8 (issue 20): a regular expression's ： or a comment's 午 made the whole source two.
    expect(text.match(/[^\u0000-\u00ff]/g) ?? []).toEqual([])
  }, 60_000)

  it("lists the files each bundle was built from, so a cold start checks those instead of walking every source folder (issue 13)", () => {
    expect(spawnSync(process.execPath, [path.join(cliRoot, "bin", "sagasu.js"), "--version"], { encoding: "utf8" }).status).toBe(0)
    // The full command an ES module, the cold-start search a CommonJS script (compiled with V8's code cache).
    for (const [name, entry, ext] of [["cli", "apps/cli/src/main.ts", "mjs"], ["search", "apps/cli/src/search_fast.ts", "cjs"]] as const) {
      const bundle = fs.readFileSync(path.join(cacheDir, `${name}.current`), "utf8").trim()
      expect(bundle).toMatch(new RegExp(`^${name}-[0-9a-f]{16}\\.${ext}$`))
      expect(fs.existsSync(path.join(cacheDir, bundle))).toBe(true)
      const inputs = JSON.parse(fs.readFileSync(path.join(cacheDir, bundle.replace(/\.[cm]js$/, ".inputs.json")), "utf8")) as Array<[string, string]>
      const stamp = (rel: string) => {
        const st = fs.statSync(path.join(repoRoot, rel))
        return `${st.size}:${st.mtimeMs}`
      }
      const listed = new Map(inputs)
      for (const rel of [entry, "libs/domain/src/normalize.ts", "apps/cli/bin/bundle.js", "package-lock.json"]) {
        expect(listed.get(path.join(repoRoot, rel)), rel).toBe(stamp(rel))
      }
      expect(inputs.filter(([f]) => f.includes(`${path.sep}node_modules${path.sep}`))).toEqual([])
    }
  }, 60_000)
})
