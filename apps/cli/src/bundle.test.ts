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
    // Only the require() banner keeps the bundle's own URL: once on the first line, once as a string in the worker's build options.
    expect(text.match(/import\.meta\.url/g)).toHaveLength(2)
    const sourceUrl = (rel: string) => JSON.stringify(pathToFileURL(path.join(repoRoot, rel)).href)
    expect(text).toContain(sourceUrl("libs/ingest/src/worker/worker_bundle.ts"))
    expect(text).toContain(sourceUrl("apps/gui/src/page_assets.ts"))
  }, 60_000)
})
