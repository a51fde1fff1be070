/**
 * Worker-thread code as pre-bundled ES modules. A worker thread that
 * registers tsx and transpiles the TypeScript sources takes ≈2 s to start on
 * this class of machine (ARCHITECTURE.md "Known traps"); a bundle loads in a
 * fraction of that. Each is built with esbuild on first use and cached in the
 * OS temp folder under a key made of the sources' sizes and mtimes, so an
 * edited source is never run stale. Used for the plain workers (W2) and the
 * GUI's search thread (S2). A packed install (tools/src/package_build.ts)
 * has neither sources nor esbuild: each worker's bundle, built at pack time,
 * lies beside the CLI's bundle as `<entry's name>.mjs`, and is used as it is.
 *
 * @module
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { oneByteOutputs } from "./one_byte_source.cjs"

const here = path.dirname(fileURLToPath(import.meta.url))
const libs = path.resolve(here, "..", "..", "..")

// Sizes and mtimes of every source under `dirs`, plus the lock file.
function sourceKey(dirs: ReadonlyArray<string>): string {
  const h = createHash("sha256")
  for (const dir of dirs) {
    for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || !/\.(ts|cjs)$/.test(e.name)) continue
      const st = fs.statSync(path.join(e.parentPath, e.name))
      h.update(`${e.parentPath}/${e.name}:${st.size}:${st.mtimeMs}\n`)
    }
  }
  const lock = path.resolve(libs, "..", "package-lock.json")
  if (fs.existsSync(lock)) h.update(`lock:${fs.statSync(lock).mtimeMs}`)
  return h.digest("hex").slice(0, 16)
}

/** What to bundle: the worker's entry, a name for the cache file, and the sources it may import. */
export interface WorkerBundle {
  /** The worker's entry, a `.ts` file. */
  readonly entry: string
  /** Name of the bundle in the temp folder (`sagasu-<name>-<key>.mjs`). */
  readonly name: string
  /** Folders of sources the entry can import, beyond libs/domain, libs/store and libs/ingest. */
  readonly extraSourceDirs?: ReadonlyArray<string>
  /** What to start when esbuild is not available (a bootstrap that registers tsx). */
  readonly fallback: URL
}

// One build per bundle and process: threads that start at once share it.
const cached = new Map<string, Promise<URL>>()
// Builds under way in this process (they share esbuild's one service process).
let building = 0

/**
 * The URL a worker thread of `bundle` is started from: the cached bundle,
 * built now if needed (≈1 s, once per source change); its fallback when
 * esbuild is not available.
 */
export function workerBundleUrl(bundle: WorkerBundle): Promise<URL> {
  const known = cached.get(bundle.name)
  if (known !== undefined) return known
  const url = buildBundle(bundle)
  cached.set(bundle.name, url)
  return url
}

async function buildBundle(bundle: WorkerBundle): Promise<URL> {
  try {
    // In a packed install every source's `import.meta.url` is the CLI bundle's, so the entry
    // names a file beside it; in a clone no `.mjs` of that name exists beside the source.
    const packed = bundle.entry.replace(/\.ts$/, ".mjs")
    if (fs.existsSync(packed)) return pathToFileURL(packed)
    const dirs = [...["domain", "store", "ingest"].map((lib) => path.join(libs, lib, "src")), ...(bundle.extraSourceDirs ?? [])]
    const out = path.join(os.tmpdir(), `sagasu-${bundle.name}-${sourceKey(dirs)}.mjs`)
    if (!fs.existsSync(out)) {
      const esbuild = await import("esbuild")
      const temp = `${out}.${process.pid}.tmp`
      building++
      try {
        await esbuild.build({
          entryPoints: [bundle.entry],
          bundle: true,
          platform: "node",
          format: "esm",
          target: "node20",
          outfile: temp,
          // Bundled CommonJS dependencies call require(): give the ES module one.
          banner: { js: "import { createRequire as __sagasuRequire } from 'node:module'; const require = __sagasuRequire(import.meta.url);" },
          // Each thread keeps the bundle's source: one byte a character, not two (issue 20).
          plugins: [oneByteOutputs],
          logLevel: "silent"
        })
      } finally {
        // esbuild's service process (≈300 MB resident after a build) would otherwise live as long as
        // this process: through a whole indexing run (issue 20, the process tree's memory). Stopped
        // when no other build of this process needs it; a later build starts it again.
        if (--building === 0) await esbuild.stop()
      }
      fs.renameSync(temp, out)
    }
    return pathToFileURL(out)
  } catch {
    return bundle.fallback
  }
}

/**
 * The URL a plain worker thread is started from: the cached bundle, built
 * now if needed; the tsx bootstrap when esbuild is not available.
 */
export const plainWorkerUrl = (): Promise<URL> =>
  workerBundleUrl({ entry: path.join(here, "plain_worker.ts"), name: "plain-worker", fallback: new URL("./plain_worker_boot.mjs", import.meta.url) })

/**
 * The URL the 2-gram round's thread is started from (gram_worker.ts, issue
 * 20): the cached bundle, built now if needed; the tsx bootstrap when
 * esbuild is not available.
 */
export const gramWorkerUrl = (): Promise<URL> =>
  workerBundleUrl({ entry: path.join(here, "gram_worker.ts"), name: "gram-worker", fallback: new URL("./gram_worker_boot.mjs", import.meta.url) })
