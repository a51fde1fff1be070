/**
 * Reads a V8 `.cpuprofile` (from `node --cpu-prof`, one per thread) and
 * prints where the time went: self time by package or source module, then by
 * function. Frames of an esbuild bundle (the plain worker's) are mapped back
 * to their source modules through the bundle's `// path` comments.
 *
 * `npx tsx tools/src/bench/ingest_profile.ts FILE.cpuprofile [TOP]`
 *
 * @module
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
}
interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

const short = (s: string) => s.replace(/.*node_modules\//, "nm/").replace(/.*\/libs\//, "libs/").replace(/.*\/tools\//, "tools/")

// esbuild marks each bundled module with a "// path" line: bundle line → source module.
const bundles = new Map<string, Array<readonly [number, string]>>()
function moduleOf(url: string, line: number): string | undefined {
  if (!/sagasu-plain-worker-.*\.mjs$/.test(url)) return undefined
  let marks = bundles.get(url)
  if (marks === undefined) {
    const found: Array<readonly [number, string]> = []
    try {
      fs.readFileSync(new URL(url), "utf8").split("\n").forEach((l, i) => {
        const m = /^\/\/ (\S+\.(?:ts|js|mjs|cjs))$/.exec(l)
        if (m?.[1] !== undefined) found.push([i, m[1]])
      })
    } catch {
      // The bundle is gone (another source version): frames stay unnamed.
    }
    marks = found
    bundles.set(url, marks)
  }
  let name = "bundle"
  for (const [at, module] of marks) {
    if (at > line) break
    name = module
  }
  return short(name)
}

/** Self time (µs) by package/module and by function, with the total. */
export function summarize(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map<number, number>()
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
  const total = [...self.values()].reduce((a, b) => a + b, 0)
  const byModule = new Map<string, number>()
  const byFunction = new Map<string, number>()
  for (const [id, t] of self) {
    const frame = byId.get(id)?.callFrame
    if (frame === undefined) continue
    const module = moduleOf(frame.url, frame.lineNumber) ?? (frame.url === "" ? frame.functionName : short(frame.url))
    const pkg = module.replace(/^(nm\/(@[^/]+\/)?[^/]+).*/, "$1")
    byModule.set(pkg, (byModule.get(pkg) ?? 0) + t)
    const key = `${frame.functionName || "(anonymous)"} ${module}`
    byFunction.set(key, (byFunction.get(key) ?? 0) + t)
  }
  return { total, byModule, byFunction }
}

const file = process.argv[2]
if (file !== undefined && process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const top = Number(process.argv[3] ?? 30)
  const { total, byModule, byFunction } = summarize(JSON.parse(fs.readFileSync(file, "utf8")) as Profile)
  const list = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`).join("\n")
  console.log(`${(total / 1e6).toFixed(2)} s sampled\n-- by package / module\n${list(byModule)}\n-- by function\n${list(byFunction)}`)
}
