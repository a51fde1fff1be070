/**
 * The plain worker's code as one pre-bundled ES module. A worker thread that
 * registers tsx and transpiles the TypeScript sources takes ≈2 s to start on
 * this class of machine (ARCHITECTURE.md "Known traps"); the bundle loads in a
 * fraction of that. It is built with esbuild on first use and cached in the
 * OS temp folder under a key made of the sources' sizes and mtimes, so an
 * edited source is never run stale.
 *
 * @module
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const here = path.dirname(fileURLToPath(import.meta.url))
const libs = path.resolve(here, "..", "..", "..")
const entry = path.join(here, "plain_worker.ts")
const fallback = new URL("./plain_worker_boot.mjs", import.meta.url)

// Sizes and mtimes of every source the worker can import, plus the lock file.
function sourceKey(): string {
  const h = createHash("sha256")
  for (const lib of ["domain", "store", "ingest"]) {
    const dir = path.join(libs, lib, "src")
    for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || !e.name.endsWith(".ts")) continue
      const st = fs.statSync(path.join(e.parentPath, e.name))
      h.update(`${e.parentPath}/${e.name}:${st.size}:${st.mtimeMs}\n`)
    }
  }
  const lock = path.resolve(libs, "..", "package-lock.json")
  if (fs.existsSync(lock)) h.update(`lock:${fs.statSync(lock).mtimeMs}`)
  return h.digest("hex").slice(0, 16)
}

let cached: URL | undefined

/**
 * The URL a plain worker thread is started from: the cached bundle, built
 * now if needed (≈1 s, once per source change); the tsx bootstrap when
 * esbuild is not available.
 */
export async function plainWorkerUrl(): Promise<URL> {
  if (cached !== undefined) return cached
  try {
    const out = path.join(os.tmpdir(), `sagasu-plain-worker-${sourceKey()}.mjs`)
    if (!fs.existsSync(out)) {
      const esbuild = await import("esbuild")
      const temp = `${out}.${process.pid}.tmp`
      await esbuild.build({
        entryPoints: [entry],
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        outfile: temp,
        // Bundled CommonJS dependencies call require(): give the ES module one.
        banner: { js: "import { createRequire as __sagasuRequire } from 'node:module'; const require = __sagasuRequire(import.meta.url);" },
        logLevel: "silent"
      })
      fs.renameSync(temp, out)
    }
    cached = pathToFileURL(out)
  } catch {
    cached = fallback
  }
  return cached
}
