"use strict"
// Shared by every builder of Sagasu's bundles: bin/bundle.js (plain CommonJS, run before any
// TypeScript can load), worker_bundle.ts and tools/src/package_build.ts; hence JavaScript.
const fs = require("node:fs")
const path = require("node:path")

/**
 * `source` (a bundle's JavaScript) with every UTF-16 unit past U+00FF written as
 * a `\uXXXX` escape, so that V8 keeps the whole source as a one-byte string
 * instead of a two-byte one: half the memory, in every thread that loads it
 * (issue 20: the CLI's 4.9 MB bundle and the workers' 2.1 and 1.5 MB held
 * ≈ 10 MB more of a run's peak). esbuild already writes strings ASCII-only
 * (`charset: "ascii"`) but not regular expressions (`/[:：]/`) or comments.
 * The escape means the same character in a string, a template, a regular
 * expression (a surrogate pair as two escapes, read as one code point under
 * the `u` flag) and an identifier of the BMP; a character escaped by an odd
 * run of backslashes (`\：`, an identity escape) loses that one backslash,
 * since `\uXXXX` is already an escape. Latin-1 characters stay as they are.
 */
function oneByteSource(source) {
  return source.replace(/(\\*)([\u0100-\uffff])/g, (_, slashes, ch) => {
    const kept = slashes.length % 2 === 1 ? slashes.slice(1) : slashes
    return `${kept}\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`
  })
}

/**
 * An esbuild plugin that writes the build's output files itself (it turns
 * esbuild's own writing off), each JavaScript one (all but `.map` and `.css`)
 * through {@link oneByteSource}.
 */
const oneByteOutputs = {
  name: "one-byte-outputs",
  setup(build) {
    build.initialOptions.write = false
    build.onEnd((result) => {
      for (const file of result.outputFiles ?? []) {
        fs.mkdirSync(path.dirname(file.path), { recursive: true })
        // By what it is, not by its name: a builder may write to a temporary name (`….mjs.<pid>.tmp`).
        fs.writeFileSync(file.path, /\.(map|css)$/.test(file.path) ? file.contents : oneByteSource(file.text))
      }
    })
  }
}

module.exports = { oneByteOutputs, oneByteSource }
