// The pre-bundled CLI entry of bin/sagasu.js (issue 9: start-up time).
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
async function sourceKey() {
  const { createHash } = await import("node:crypto")
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
  const known = unchangedBundle(name)
  if (known !== undefined) return pathToFileURL(known).href
  try {
    const key = await sourceKey()
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
  const result = await esbuild.build({
    entryPoints: [source],
    metafile: true,
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
  writeInputs(out, result.metafile)
  // Bundles of older sources are of no further use.
  const prefix = path.basename(out).replace(/-[0-9a-f]+\.mjs$/, "-")
  for (const name of fs.readdirSync(cacheDir)) {
    if (name.startsWith(prefix) && (name.endsWith(".mjs") || name.endsWith(".inputs.json")) && !name.startsWith(path.basename(out, ".mjs"))) {
      fs.rmSync(path.join(cacheDir, name), { force: true })
    }
  }
}

// The cold start's shortcut (issue 13: a cold `sagasu search` costs little more than Node's start).
// Beside each bundle, `<bundle>.inputs.json` lists the files esbuild read for it (from its metafile),
// this builder and the lock file (not the packages' own files), each with its size and mtime. When every one of them is as it was,
// the bundle is current: a source can change what the bundle holds only by changing one of the files
// it was built from (a new file matters once an input imports it, which changes that input). This
// costs a stat per input (≈60 for the search bundle) instead of walking every source folder and
// loading node:crypto for the key (10–40 ms on this machine). Anything else — no list, a file gone
// or changed, a list that cannot be read — goes the full way through sourceKey().
const stampOf = (file) => {
  const st = fs.statSync(file)
  return `${st.size}:${st.mtimeMs}`
}
const alwaysInputs = () => [fileURLToPath(import.meta.url), path.join(root, "package-lock.json")].filter((f) => fs.existsSync(f))

function unchangedBundle(name) {
  try {
    const pointer = path.join(cacheDir, `${name}.current`)
    const bundle = path.join(cacheDir, fs.readFileSync(pointer, "utf8").trim())
    const inputs = JSON.parse(fs.readFileSync(`${bundle.slice(0, -".mjs".length)}.inputs.json`, "utf8"))
    for (const [file, stamp] of inputs) if (stampOf(file) !== stamp) return undefined
    return fs.existsSync(bundle) ? bundle : undefined
  } catch {
    return undefined
  }
}

// Writes the input list of the bundle `out` and points `<name>.current` at it (each through a temp
// file and a rename, so a reader sees the old list or the new one).
function writeInputs(out, metafile) {
  // Packages change only with the lock file, which is on the list: their thousands of files are not.
  const sources = Object.keys(metafile.inputs).map((f) => path.resolve(f)).filter((f) => !f.split(path.sep).includes("node_modules"))
  const files = [...sources, ...alwaysInputs()]
  const list = JSON.stringify([...new Set(files)].filter((f) => fs.existsSync(f)).map((f) => [f, stampOf(f)]))
  const listFile = `${out.slice(0, -".mjs".length)}.inputs.json`
  fs.writeFileSync(`${listFile}.${process.pid}.tmp`, list)
  fs.renameSync(`${listFile}.${process.pid}.tmp`, listFile)
  const name = path.basename(out).replace(/-[0-9a-f]+\.mjs$/, "")
  const pointer = path.join(cacheDir, `${name}.current`)
  fs.writeFileSync(`${pointer}.${process.pid}.tmp`, path.basename(out))
  fs.renameSync(`${pointer}.${process.pid}.tmp`, pointer)
}
