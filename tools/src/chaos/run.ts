/**
 * `npm run chaos`: the fault-injection campaign of issue 8, seeded, writing
 * its table to `docs/reliability.md`.
 *
 * ```
 * npm run chaos                         # the full campaign (≈ 40 min on 2 cores)
 * npm run chaos -- --seed 7             # another seed
 * npm run chaos -- --scale ci           # the reduced campaign that `npm test` runs
 * npm run chaos -- --only crash,stop    # some parts only (the document is not written)
 * npm run chaos -- --out /tmp/r.md      # write the table elsewhere
 * ```
 *
 * Exit code 0 when no invariant was violated, 1 otherwise.
 *
 * @module
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { type PartName, type Scale, partNames, reliabilityDocument, renderReport, runCampaign } from "./campaign.ts"
import { repoRoot } from "./_harness.ts"

const args = process.argv.slice(2)
const option = (name: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : undefined
}
const seed = Number(option("seed") ?? "20261129")
const scale = (option("scale") ?? "full") as Scale
const only = option("only")?.split(",").filter((p): p is PartName => (partNames as ReadonlyArray<string>).includes(p))
const out = option("out") ?? (only === undefined && scale === "full" ? path.join(repoRoot, "docs", "reliability.md") : undefined)

const report = await runCampaign({ seed, scale, ...(only !== undefined ? { only } : {}) })
console.log("\n" + renderReport(report))
if (out !== undefined) {
  fs.mkdirSync(path.dirname(out), { recursive: true })
  fs.writeFileSync(out, reliabilityDocument(report))
  console.log(`written: ${path.relative(process.cwd(), out)}`)
}
process.exitCode = report.violations === 0 ? 0 : 1
