/**
 * `npm start`: the main job on the built-in samples, as a new user would do
 * it with the CLI. Makes the sample documents in a temporary folder, creates a
 * work folder there, registers the samples as an index, runs an indexing run
 * and two searches (one Japanese), printing everything the CLI prints.
 *
 * @module
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { makeSamples } from "./make_samples.ts"

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..")
const bin = path.join(repoRoot, "apps", "cli", "bin", "sagasu.js")

const base = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-demo-"))
const samples = path.join(base, "samples")
const work = path.join(base, "work")

const sagasu = (...args: Array<string>): void => {
  console.log(`\n$ sagasu ${args.map((a) => (/[\s"]/.test(a) ? JSON.stringify(a) : a)).join(" ")}`)
  const result = spawnSync(process.execPath, [bin, ...args, "--work", work], { stdio: "inherit" })
  if (result.status !== 0) {
    console.error(`sagasu ${args[0]} exited with ${result.status}`)
    process.exit(result.status ?? 1)
  }
}

const files = await makeSamples(samples)
console.log(`Sample documents (${files.length} files, incl. a lock file and a hidden file to skip) in ${samples}`)
sagasu("init")
sagasu("add", "サンプル", samples)
sagasu("index", "--yes")
sagasu("search", "見積番号")
sagasu("search", "inv-2024")
console.log(`\nEverything is in ${base}; delete it when done.`)
