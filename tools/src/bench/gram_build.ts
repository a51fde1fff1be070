/**
 * CPU of the 2-gram builder alone (issue 20): every body-index folder of a
 * work folder fed into segment builders of the round's budget, as the 2-gram
 * round does, without the run around it. Prints the CPU of tokenising
 * (`DocFeed.step` → `addRows`) and of computing the segments' files
 * (`segmentSteps`), best of `--repeat`, and a SHA-256 of every file the
 * segments hold, so two builds can be checked byte for byte.
 *
 * `npx tsx tools/src/bench/gram_build.ts --work DIR [--repeat 3]`
 *
 * @module
 */
import { createHash } from "node:crypto"
import * as path from "node:path"
import { defaultRoundBuilderBytes } from "@sagasu/store"
import { DocFeed, SegmentBuilder, tsvSourcesOf, walkBodyIndex } from "@sagasu/store/testing"

const args = process.argv.slice(2)
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback
}
const work = opt("work", "")
if (work === "") throw new Error("usage: gram_build.ts --work DIR [--repeat N]")
const repeat = Number(opt("repeat", "3"))
const folders = walkBodyIndex(path.join(work, "index"))

const cpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

let best = { tokenise: Number.POSITIVE_INFINITY, segments: Number.POSITIVE_INFINITY }
let digest = ""
let lines = 0
let textBytes = 0
for (let r = 0; r < repeat; r++) {
  const hash = createHash("sha256")
  let tokenise = 0
  let segments = 0
  let builder = new SegmentBuilder()
  let n = 0
  lines = 0
  textBytes = 0
  const flush = () => {
    const t = cpu()
    const steps = builder.segmentSteps(`s${n++}`)
    for (;;) {
      const s = steps.next()
      if (s.done === true) break
      if (s.value !== undefined) {
        hash.update(s.value.name)
        const data = s.value.data
        if (typeof data === "string") hash.update(data)
        else for (const d of data) hash.update(d)
      }
    }
    segments += cpu() - t
    lines += builder.lineCount
    textBytes += builder.textBytes
    builder = new SegmentBuilder()
  }
  for (const folder of folders) {
    const feed = new DocFeed({ index: folder.index, path: folder.path, fingerprint: folder.fingerprint, mtimeMs: 0 }, tsvSourcesOf(folder))
    const t = cpu()
    for (;;) {
      const more = feed.step(builder)
      if (builder.memoryBytes >= defaultRoundBuilderBytes) {
        feed.cut(builder)
        tokenise += cpu() - t
        flush()
      }
      if (!more) break
    }
    tokenise += cpu() - t
  }
  flush()
  digest = hash.digest("hex").slice(0, 16)
  best = { tokenise: Math.min(best.tokenise, tokenise), segments: Math.min(best.segments, segments) }
  console.log(`run ${r + 1}: tokenise ${tokenise.toFixed(2)} s, segments ${segments.toFixed(2)} s, sha256 ${digest}`)
}
console.log(
  `${folders.length} folders, ${lines} lines, ${(textBytes / 1e6).toFixed(1)} MB of rows: best tokenise ${best.tokenise.toFixed(2)} s ` +
    `(${(textBytes / 1e6 / best.tokenise).toFixed(1)} MB/s), segments ${best.segments.toFixed(2)} s, sha256 ${digest}`
)
