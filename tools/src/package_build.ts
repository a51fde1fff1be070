/**
 * The installable package (issue 19): `npm run package` writes
 * `sagasu-<version>.tgz`, which `npm install -g ./sagasu-<version>.tgz`
 * turns into a `sagasu` command on a machine without this repository.
 *
 * Everything is bundled here, at pack time, with esbuild (a build tool, not
 * in the package): the CLI, its cold-start search (search_fast.ts), the
 * plain worker thread, the GUI's search thread and the GUI's page script.
 * The package therefore has no `dependencies` and installs offline; its
 * start builds nothing and writes nothing into its install folder:
 *
 * ```
 * package.json           name, version, bin; no dependencies
 * README.md
 * THIRD_PARTY_LICENSES.txt  the license of every package bundled into dist/
 * bin/sagasu.js          apps/cli/bin/sagasu.js as it is
 * bin/bundle.js          apps/cli/bin/bundle.js: finds ../dist/<name>.mjs (.cjs) first
 * bin/package.json       apps/cli/bin/package.json: the two scripts are CommonJS
 * dist/cli.mjs           apps/cli/src/main.ts
 * dist/search.cjs        apps/cli/src/search_fast.ts, a CommonJS script (compiled with V8's code cache)
 * dist/plain_worker.mjs  libs/ingest/src/worker/plain_worker.ts (worker_bundle.ts finds it beside cli.mjs)
 * dist/gram_worker.mjs   libs/ingest/src/worker/gram_worker.ts (likewise)
 * dist/search_worker.mjs apps/gui/src/search_worker.ts (likewise)
 * dist/page/             index.html, page.css and app.js, the page script built (page_assets.ts)
 * ```
 *
 * Inside every bundle `import.meta.url` is the bundle's own URL (unlike the
 * clone's cache of bin/bundle.js, which keeps each source's), so the
 * sources' look-ups relative to it land in `dist/`.
 *
 * Usage: `tsx tools/src/package_build.ts [OUT_DIR]` (default: the current folder).
 *
 * @module
 */
import { Effect } from "effect"
import * as esbuild from "esbuild"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
// The page is built by the GUI's own code, so the package serves what a clone serves.
// Through the GUI's second door (its package.json exports); @sagasu/gui is left out of tools'
// dependencies on purpose: turbo's ^test would hold every tools test back until the GUI's had run.
import { buildPageAssets, packedPageScript } from "@sagasu/gui/page-assets"
import { repoRoot } from "./corpus.ts"
import { oneByteOutputs } from "@sagasu/ingest/one-byte-source"

/** The bundles of `dist/`: output name → entry, relative to the repository. */
export const packageBundles: Readonly<Record<string, string>> = {
  cli: "apps/cli/src/main.ts",
  search: "apps/cli/src/search_fast.ts",
  plain_worker: "libs/ingest/src/worker/plain_worker.ts",
  gram_worker: "libs/ingest/src/worker/gram_worker.ts",
  search_worker: "apps/gui/src/search_worker.ts"
}

/** The package's version: the CLI's (`sagasu --version`). */
export const packageVersion = (): string =>
  (JSON.parse(fs.readFileSync(path.join(repoRoot, "apps", "cli", "package.json"), "utf8")) as { version: string }).version

/**
 * The license texts of the npm packages whose files are among `inputs` (esbuild's
 * metafile, paths relative to the repository), each under its name and version:
 * bundling copies their code, so their notices go with it.
 */
export function thirdPartyLicenses(inputs: ReadonlyArray<string>): string {
  const dirs = new Set<string>()
  for (const input of inputs) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.replace(/\\/g, "/"))
    if (m?.[1] !== undefined) dirs.add(path.join(repoRoot, m[1]))
  }
  const sections = [...dirs].map((dir) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name: string; version: string; license?: unknown }
    const file = fs.readdirSync(dir).sort().find((n) => /^(licen[cs]e|copying)/i.test(n))
    const text = file === undefined ? `License: ${String(pkg.license ?? "see the package")}` : fs.readFileSync(path.join(dir, file), "utf8").trim()
    return { name: `${pkg.name}@${pkg.version}`, text }
  })
  sections.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const unique = sections.filter((s, i) => i === 0 || sections[i - 1]?.name !== s.name)
  return `Sagasu's bundles (dist/) include these packages.\n\n${unique.map((s) => `${"=".repeat(72)}\n${s.name}\n\n${s.text}\n`).join("\n")}`
}

/** Lays the package's files out in `dir` (an empty or missing folder). */
export async function stagePackage(dir: string): Promise<void> {
  const root = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { description: string; engines: Record<string, string> }
  const dist = path.join(dir, "dist")
  fs.mkdirSync(path.join(dir, "bin"), { recursive: true })
  fs.mkdirSync(path.join(dist, "page"), { recursive: true })
  const manifest = {
    name: "sagasu",
    version: packageVersion(),
    description: root.description,
    type: "module",
    engines: root.engines,
    bin: { sagasu: "bin/sagasu.js" },
    files: ["bin", "dist", "README.md", "THIRD_PARTY_LICENSES.txt"]
  }
  fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`)
  fs.copyFileSync(path.join(repoRoot, "README.md"), path.join(dir, "README.md"))
  // bin/package.json makes the two CommonJS scripts (the package is "type": "module").
  for (const f of ["sagasu.js", "bundle.js", "package.json"]) {
    fs.copyFileSync(path.join(repoRoot, "apps", "cli", "bin", f), path.join(dir, "bin", f))
  }
  fs.chmodSync(path.join(dir, "bin", "sagasu.js"), 0o755)
  const common = {
    metafile: true as const,
    absWorkingDir: repoRoot,
    outdir: dist,
    bundle: true,
    platform: "node",
    target: "node20",
    // Never reached in a packed install: esbuild (the clone's builds, found packed first) and tsx (the clone's fallback).
    external: ["esbuild", "tsx", "tsx/*"],
    legalComments: "eof",
    // Each thread keeps a bundle's source: one byte a character, not two (issue 20).
    plugins: [oneByteOutputs],
    logLevel: "warning"
  } satisfies esbuild.BuildOptions
  const entry = (name: string) => path.join(repoRoot, packageBundles[name] ?? "")
  const modules = await esbuild.build({
    ...common,
    entryPoints: Object.fromEntries(Object.keys(packageBundles).filter((name) => name !== "search").map((name) => [name, entry(name)])),
    outExtension: { ".js": ".mjs" },
    format: "esm",
    // Bundled CommonJS dependencies call require(): give the ES module one.
    banner: { js: "import { createRequire as __sagasuRequire } from 'node:module'; const require = __sagasuRequire(import.meta.url);" }
  })
  // The cold-start search is a CommonJS script, which bin/bundle.js compiles with V8's code cache (issue 13).
  const script = await esbuild.build({ ...common, entryPoints: { search: entry("search") }, outExtension: { ".js": ".cjs" }, format: "cjs" })
  fs.writeFileSync(path.join(dir, "THIRD_PARTY_LICENSES.txt"), thirdPartyLicenses([...Object.keys(modules.metafile.inputs), ...Object.keys(script.metafile.inputs)]))
  const page = await Effect.runPromise(buildPageAssets)
  fs.writeFileSync(path.join(dist, "page", "index.html"), page.html)
  fs.writeFileSync(path.join(dist, "page", "page.css"), page.css)
  fs.writeFileSync(path.join(dist, "page", packedPageScript), page.js)
}

/** Builds the package and packs it with `npm pack` into `outDir`; returns the `.tgz`'s path. */
export async function buildPackage(outDir: string): Promise<string> {
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-package-"))
  try {
    await stagePackage(staging)
    fs.mkdirSync(outDir, { recursive: true })
    const out = execFileSync("npm", ["pack", "--json", "--loglevel=warn", "--no-update-notifier", "--pack-destination", path.resolve(outDir)], { cwd: staging, encoding: "utf8" })
    const [packed] = JSON.parse(out) as Array<{ filename: string }>
    if (packed === undefined) throw new Error("npm pack wrote no package")
    return path.join(path.resolve(outDir), packed.filename)
  } finally {
    fs.rmSync(staging, { recursive: true, force: true })
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const tgz = await buildPackage(process.argv[2] ?? process.cwd())
  process.stdout.write(`${tgz} (${Math.round(fs.statSync(tgz).size / 1024)} KB)\n`)
}
