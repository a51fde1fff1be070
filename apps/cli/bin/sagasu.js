#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node
// The `sagasu` command. The TypeScript sources are bundled into one ES module
// with esbuild on the first start after a change (≈2 s) and cached in
// node_modules/.cache/sagasu under a key made of the sources' sizes and
// mtimes, so an edited source is never run stale; later starts load the
// bundle (≈0.2 s instead of ≈1.6 s through tsx, issue 9). Without esbuild or
// a writable cache, or with SAGASU_NO_BUNDLE=1, the sources run through tsx
// as before (ARCHITECTURE.md "Deno-style").
//
// The first line sets what only the process's start can (ARCHITECTURE.md "Memory of a run", issue 20):
// at most two glibc malloc arenas for all threads — on the corpus the run's peak RSS ≈ 40 MB lower.
// No V8 option here: any makes Node's built-in code cache unusable (≈ 10 ms more on every start).
// `node bin/sagasu.js` runs without it.
"use strict"
const { bundledEntry, isPacked, loadScript } = require("./bundle.js")

// A CommonJS script (bin/package.json): an ES module entry costs a cold start 5-6 ms more than this
// one (issue 13); the full command's bundle is an ES module, imported below.
async function main() {
  // A packed install (tools/src/package_build.ts) always runs its bundles: it has no sources.
  const bundled = isPacked || process.env.SAGASU_NO_BUNDLE !== "1"
  // `sagasu search` starts a small bundle of its own first (S2: a cold search costs little more than
  // Node's start), compiled with V8's code cache; it hands over to the full command whenever it
  // cannot answer by itself.
  // `sagasu --work W search …` too: the cold path reads a leading --work as the full command does.
  const args = process.argv.slice(2)
  const fast = bundled && searchCommand(args) ? await bundledEntry("search") : undefined
  const search = fast !== undefined ? loadScript(fast) : undefined
  const answered = search !== undefined && (await search.exports.fastCommand(args))
  if (answered) {
    search.saveCodeCache()
    return
  }
  const entry = bundled ? await bundledEntry() : undefined
  if (entry !== undefined) {
    await import(entry)
  } else {
    const { register } = await import("tsx/esm/api")
    register()
    await import("../src/main.ts")
  }
}

/** Whether the command after any leading `--work DIR` / `--work=DIR` is `search`. */
function searchCommand(args) {
  let at = 0
  while (args[at] === "--work" || args[at]?.startsWith("--work=")) at += args[at] === "--work" ? 2 : 1
  return args[at] === "search"
}

main().catch((e) => {
  // What the full command does not catch itself: as an uncaught error would show it.
  process.exitCode = 1
  console.error(e)
})
