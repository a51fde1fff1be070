// The pre-bundled CLI entry of bin/sagasu.js (issue 9: start-up time). A CommonJS module, as
// bin/sagasu.js (bin/package.json): an ES module entry costs a cold start 5-6 ms more (issue 13).
"use strict"
const fs = require("node:fs")
const { createRequire } = require("node:module")
const path = require("node:path")
const { fileURLToPath, pathToFileURL } = require("node:url")

const root = path.resolve(__dirname, "..", "..", "..")
// A packed install (tools/src/package_build.ts) has the bundles built at pack time in ../dist and no
// sources: they are used as they are, with no build and no write into the install folder.
const packedDir = path.resolve(__dirname, "..", "dist")
/** Whether this is a packed install (which has no sources for tsx to run). */
const isPacked = fs.existsSync(path.join(packedDir, "cli.mjs"))
// The full command, and the cold-start path of `sagasu search` (search_fast.ts: no Effect, no GUI).
const entryPoints = {
  cli: path.join(root, "apps", "cli", "src", "main.ts"),
  search: path.join(root, "apps", "cli", "src", "search_fast.ts")
}
/**
 * Each bundle's module format, as its file extension. The cold-start search is a CommonJS script so
 * that {@link loadScript} can compile it with V8's code cache (issue 13); the full command stays an ES module.
 */
const bundleExtensions = { cli: ".mjs", search: ".cjs" }
// Inside node_modules so that the bundle's external packages (esbuild) resolve from it.
const cacheDir = path.join(root, "node_modules", ".cache", "sagasu")
// The esbuild plugin every builder of Sagasu's bundles shares (a clone's file: a packed install never builds).
const oneByteModule = path.join(root, "libs", "ingest", "src", "worker", "one_byte_source.cjs")
const sourceDirs = ["libs/domain", "libs/store", "libs/ingest", "apps/gui", "apps/cli"].map((d) => path.join(root, d, "src"))

/** Sizes and mtimes of every source the CLI can import, this builder and the lock file: the bundle's cache key. */
async function sourceKey() {
  const { createHash } = require("node:crypto")
  const h = createHash("sha256")
  const self = __filename
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
async function bundledEntry(name = "cli") {
  const packed = path.join(packedDir, `${name}${bundleExtensions[name]}`)
  if (fs.existsSync(packed)) return pathToFileURL(packed).href
  const known = unchangedBundle(name)
  if (known !== undefined) return pathToFileURL(known).href
  try {
    const key = await sourceKey()
    const out = path.join(cacheDir, `${name}-${key}${bundleExtensions[name]}`)
    if (!fs.existsSync(out)) {
      try {
        for (const [entry, source] of Object.entries(entryPoints)) await build(source, path.join(cacheDir, `${entry}-${key}${bundleExtensions[entry]}`))
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
  const esm = out.endsWith(".mjs")
  const result = await esbuild.build({
    entryPoints: [source],
    metafile: true,
    bundle: true,
    platform: "node",
    format: esm ? "esm" : "cjs",
    target: "node20",
    outfile: temp,
    // esbuild has a native binary per platform: never bundled, resolved from node_modules.
    external: ["esbuild"],
    // Bundled CommonJS dependencies call require(): give the ES module one.
    ...(esm ? { banner: { js: "import { createRequire as __sagasuRequire } from 'node:module'; const require = __sagasuRequire(import.meta.url);" } } : {}),
    // Each thread keeps the bundle's source: one byte a character, not two (issue 20). Only a clone builds.
    plugins: [keepMetaUrl, require(oneByteModule).oneByteOutputs],
    logLevel: "silent"
  })
  fs.renameSync(temp, out)
  writeInputs(out, result.metafile)
  // Bundles of older sources, their lists and code caches, are of no further use.
  const prefix = path.basename(out).replace(/-[0-9a-f]+\.[cm]js$/, "-")
  for (const name of fs.readdirSync(cacheDir)) {
    if (name.startsWith(prefix) && /\.([cm]js|inputs\.json|v8cache)$/.test(name) && !name.startsWith(stem(path.basename(out)))) {
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
const alwaysInputs = () => [__filename, oneByteModule, path.join(root, "package-lock.json")].filter((f) => fs.existsSync(f))

function unchangedBundle(name) {
  try {
    const pointer = path.join(cacheDir, `${name}.current`)
    const bundle = path.join(cacheDir, fs.readFileSync(pointer, "utf8").trim())
    const inputs = JSON.parse(fs.readFileSync(`${stem(bundle)}.inputs.json`, "utf8"))
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
  const listFile = `${stem(out)}.inputs.json`
  fs.writeFileSync(`${listFile}.${process.pid}.tmp`, list)
  fs.renameSync(`${listFile}.${process.pid}.tmp`, listFile)
  const name = path.basename(out).replace(/-[0-9a-f]+\.[cm]js$/, "")
  const pointer = path.join(cacheDir, `${name}.current`)
  fs.writeFileSync(`${pointer}.${process.pid}.tmp`, path.basename(out))
  fs.renameSync(`${pointer}.${process.pid}.tmp`, pointer)
}

// A bundle's file name without its extension (`search-<key>` of `search-<key>.cjs`).
const stem = (file) => file.replace(/\.[cm]js$/, "")

/**
 * Runs the CommonJS bundle at `href` (a file URL) compiled with V8's code
 * cache, and returns its exports with `saveCodeCache()`, to be called once
 * the command's work is done (issue 13: compiling the cold-start search's
 * 190 KB on every start, and each function again on its first call, was
 * 7–8 ms of a 90 ms search). The cache lies beside the bundle in the clone's
 * cache folder, or, for a packed install (whose folder is never written), in
 * the user's own cache folder; never in a folder others can write, since V8
 * takes a cache for a source of the same length without reading the source.
 * Its name holds the bundle's size and mtime, V8's version and the machine's
 * architecture; a cache V8 rejects (other flags) is written anew, one that
 * cannot be read or written is done without.
 */
function loadScript(href) {
  const file = fileURLToPath(href)
  const source = fs.readFileSync(file, "utf8")
  const cacheFile = codeCacheFile(file)
  let cachedData
  try {
    if (cacheFile !== undefined) cachedData = fs.readFileSync(cacheFile)
  } catch {
    cachedData = undefined
  }
  const vm = require("node:vm")
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData })
  const module = { exports: {} }
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file))
  return {
    exports: module.exports,
    saveCodeCache() {
      if (cacheFile === undefined || (cachedData !== undefined && !script.cachedDataRejected)) return
      try {
        fs.mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 })
        const temp = `${cacheFile}.${process.pid}.tmp`
        fs.writeFileSync(temp, script.createCachedData())
        fs.renameSync(temp, cacheFile)
        // A packed install's caches of earlier versions or other Node versions.
        if (path.dirname(cacheFile) !== path.dirname(file)) {
          const prefix = `${stem(path.basename(file))}-`
          for (const name of fs.readdirSync(path.dirname(cacheFile))) {
            if (name.startsWith(prefix) && name.endsWith(".v8cache") && name !== path.basename(cacheFile)) fs.rmSync(path.join(path.dirname(cacheFile), name), { force: true })
          }
        }
      } catch {
        // No cache: the next start compiles the bundle as this one did.
      }
    }
  }
}

// Where the code cache of the bundle `file` lies (see loadScript); undefined when there is no such place.
function codeCacheFile(file) {
  try {
    const st = fs.statSync(file)
    const name = `${stem(path.basename(file))}-${st.size}-${Math.trunc(st.mtimeMs)}-v8-${process.versions.v8}-${process.arch}.v8cache`
    return path.join(file.startsWith(packedDir + path.sep) ? userCacheDir() : path.dirname(file), name)
  } catch {
    return undefined
  }
}

// The user's cache folder for Sagasu: %LOCALAPPDATA%\sagasu\Cache, ~/Library/Caches/sagasu, or $XDG_CACHE_HOME/sagasu (~/.cache/sagasu).
function userCacheDir() {
  const os = require("node:os")
  if (process.platform === "win32") return path.join(process.env.LOCALAPPDATA ?? path.join(os.homedir(), "AppData", "Local"), "sagasu", "Cache")
  if (process.platform === "darwin") return path.join(os.homedir(), "Library", "Caches", "sagasu")
  const xdg = process.env.XDG_CACHE_HOME
  return path.join(xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), ".cache"), "sagasu")
}

module.exports = { bundledEntry, isPacked, loadScript }
