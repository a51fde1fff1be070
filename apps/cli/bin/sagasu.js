#!/usr/bin/env node
// The `sagasu` command. The TypeScript sources are bundled into one ES module
// with esbuild on the first start after a change (≈2 s) and cached in
// node_modules/.cache/sagasu under a key made of the sources' sizes and
// mtimes, so an edited source is never run stale; later starts load the
// bundle (≈0.2 s instead of ≈1.6 s through tsx, issue 9). Without esbuild or
// a writable cache, or with SAGASU_NO_BUNDLE=1, the sources run through tsx
// as before (ARCHITECTURE.md "Deno-style").
import { bundledEntry } from "./bundle.js"

const entry = process.env.SAGASU_NO_BUNDLE === "1" ? undefined : await bundledEntry()
if (entry !== undefined) {
  await import(entry)
} else {
  const { register } = await import("tsx/esm/api")
  register()
  await import("../src/main.ts")
}
