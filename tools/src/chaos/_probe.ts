import { makeMixedTree } from "./_mixed_tree.ts"
import { makeWork, runCli, ingestRows } from "./_harness.ts"
const base = process.argv[2]!
const t = await makeMixedTree(base + "/tree", { seed: 20261129, good: 10, slow: 4, slowRows: 20000, failing: 0, office: 0 })
const w = await makeWork(base + "/w", { tree: t.root })
const r = await runCli(["index", "--yes", "--work", w], { preload: true, env: { SAGASU_CHAOS_COUNT: w + "/gram/:" + base + "/ops.txt" } })
console.log(r.code, r.ms)
for (const [k, v] of await ingestRows(w)) if (v.status !== "done") console.log(k, v.status, v.reason)
