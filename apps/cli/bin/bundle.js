// The pre-bundled CLI entry of bin/sagasu.js (issue 9: start-up time).
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
// A packed install (tools/src/package_build.ts) has the bundles built at pack time in ../dist and no
// sources: they are used as they are, with no build and no write into the install folder.
const packedDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "dist")
/** Whether this is a packed install (which has no sources for tsx to run). */
export const isPacked = fs.existsSync(path.join(packedDir, "cli.mjs"))
// The full command, and the cold-start path of `sagasu search` (search_fast.ts: no Effect, no GUI).
const entryPoints = {
  cli: path.join(root, "apps", "cli", "src", "main.ts"),
  search: path.join(root, "apps", "cli", "src", "search_fast.ts")
}
// Inside node_modules so that the bundle's external packages (esbuild) resolve from it.
const cacheDir = path.join(root, "node_modules", ".cache", "sagasu")
const sourceDirs = ["libs/domain", "libs/store", "libs/ingest", "apps/gui", "apps/cli"].map((d) => path.join(root, d, "src"))

/** Sizes and mtimes of every source the CLI can import, this builder and the lock file: the bundle's cache key. */
function sourceKey() {
  const h = createHash("sha256")
  const self = fileURLToPath(import.meta.url)
  h.update(`${self}:${fs.statSync(self).size}:${fs.statSync(self).mtimeMs}\n`)
  for (const dir of sourceDirs) {
    for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || !e.name.endsWith(".ts") || e.name.endsWith(".test.ts")) continue
      const file = path.join(e.parentPath, e.name)
      const st = fs.statSync(file)
      h.update(`${file}:${st.size}:${st.mtimeMs}\n`)
    }
  }
  const lock = path.join(root, "package-lock.json")
  if (fs.existsSync(lock)) h.update(`lock:${fs.statSync(lock).mtimeMs}`)
  return h.digest("hex").slice(0, 16)
}

// A source's `import.meta.url` stays the source file's URL inside the bundle
// (the GUI reads its page and the worker finds its bundle relative to it).
// The look-behind leaves alone the banner's `__sagasuRequire(import.meta.url)`,
// which is a string in the worker's bundle options (libs/ingest/src/worker).
const keepMetaUrl = {
  name: "keep-import-meta-url",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = fs.readFileSync(args.path, "utf8")
      const url = JSON.stringify(pathToFileURL(args.path).href)
      return { contents: source.replace(/(?<!__sagasuRequire\()\bimport\.meta\.url\b/g, url), loader: "ts" }
    })
  }
}

/**
 * The file URL of the bundled entry `name` (`cli`, the whole command, or
 * `search`, the cold-start search): a packed install's, else built now when the sources changed;
 * undefined when it cannot be built (no esbuild, a read-only install), so
 * the caller runs the sources through tsx.
 */
export async function bundledEntry(name = "cli") {
  const packed = path.join(packedDir, `${name}.mjs`)
  if (fs.existsSync(packed)) return pathToFileURL(packed).href
  try {
    const key = sourceKey()
    const out = path.join(cacheDir, `${name}-${key}.mjs`)
    if (!fs.existsSync(out)) {
      try {
        for (const [entry, source] of Object.entries(entryPoints)) await build(source, path.join(cacheDir, `${entry}-${key}.mjs`))
      } finally {
        // esbuild's service process (≈300 MB resident after a build) would otherwise live as long as
        // the command: through a whole indexing run (issue 20, the process tree's memory).
        await (await import("esbuild")).stop()
      }
    }
    return pathToFileURL(out).href
  } catch {
    return undefined
  }
}

// Bundles `source` into `out` (through a temp file, so a reader never sees half of it) and removes
// the bundles of older sources.
async function build(source, out) {
  const esbuild = await import("esbuild")
  fs.mkdirSync(cacheDir, { recursive: true })
  const temp = `${out}.${process.pid}.tmp`
  await esbuild.build({
    entryPoints: [source],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: temp,
    // esbuild has a native binary per platform: never bundled, resolved from node_modules.
    external: ["esbuild"],
    // Bundled CommonJS dependencies call require(): give the ES module one.
    banner: { js: "import { createRequire as __sagasuRequire } from 'node:module'; const require = __sagasuRequire(import.meta.url);" },
    plugins: [keepMetaUrl],
    logLevel: "silent"
  })
  fs.renameSync(temp, out)
  // Bundles of older sources are of no further use.
  const prefix = path.basename(out).replace(/-[0-9a-f]+\.mjs$/, "-")
  for (const name of fs.readdirSync(cacheDir)) {
    if (name.startsWith(prefix) && name.endsWith(".mjs") && path.join(cacheDir, name) !== out) {
      fs.rmSync(path.join(cacheDir, name), { force: true })
    }
  }
}
