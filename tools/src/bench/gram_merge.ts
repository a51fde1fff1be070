/**
 * CPU of merging 2-gram segments (issue 20): every segment of a work
 * folder's manifest merged into one, as the merge policy does, written into
 * a scratch copy of the segments' folder and removed afterwards. Prints the
 * CPU of the merge, best of `--repeat`, and a SHA-256 of the merged files,
 * so two builds can be checked byte for byte.
 *
 * `npx tsx tools/src/bench/gram_merge.ts --work DIR [--repeat 3]`
 *
 * @module
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { SegmentReader, mergeSegments, readManifestSync } from "@sagasu/store/testing"
import { opt } from "./_args.ts"

const work = opt("work", "")
if (work === "") throw new Error("usage: gram_merge.ts --work DIR [--repeat N]")
const repeat = Number(opt("repeat", "3"))
const gramDir = path.join(work, "gram")
const manifest = readManifestSync(gramDir)
if (manifest === undefined) throw new Error(`no manifest in ${gramDir}`)
// A scratch folder of links to the segments' files, so the merged files land outside the work folder.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-gram-merge-"))
for (const name of fs.readdirSync(gramDir)) {
  const from = path.join(gramDir, name)
  if (fs.statSync(from).isFile()) fs.symlinkSync(from, path.join(scratch, name))
}
const cpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}
let best = Number.POSITIVE_INFINITY
try {
  for (let r = 0; r < repeat; r++) {
    const readers = manifest.segments.map((s) => SegmentReader.open(scratch, s, path.join(work, "index")))
    const t = cpu()
    const written = mergeSegments(scratch, `merged-${r}`, readers)
    const took = cpu() - t
    for (const x of readers) x.close()
    const hash = createHash("sha256")
    for (const ext of [".post", ".dict", ".dix", ".offs", ".docs"]) hash.update(fs.readFileSync(path.join(scratch, `merged-${r}${ext}`)))
    best = Math.min(best, took)
    console.log(`run ${r + 1}: merge ${took.toFixed(2)} s, ${written.segment.lines} lines, ${written.segment.textBytes} text bytes, sha256 ${hash.digest("hex").slice(0, 16)}`)
    for (const ext of [".post", ".dict", ".dix", ".offs", ".docs"]) fs.rmSync(path.join(scratch, `merged-${r}${ext}`))
  }
} finally {
  fs.rmSync(scratch, { recursive: true, force: true })
}
console.log(`${manifest.segments.length} segments: best merge ${best.toFixed(2)} s`)
