import { describe, expect, it } from "vitest"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { ensureFreshLogSync } from "./fresh.ts"
import { writeManifestSync } from "./manifest.ts"

describe("ensureFreshLogSync() (S1)", () => {
  it("reads a manifest replaced since its last call, also one of the same size (issue 20: the last read is kept while the file is the same)", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-fresh-"))
    const gram = path.join(root, "gram")
    const index = path.join(root, "index")
    fs.mkdirSync(index)
    const first = ensureFreshLogSync(gram, index)
    expect(first.generation).toBe(1)
    expect(ensureFreshLogSync(gram, index)).toEqual(first)
    // Another writer (a 2-gram round) replaces the manifest: a new fresh log, the same number of bytes.
    const fresh = first.fresh.replace(/1/, "2")
    expect(fresh).not.toBe(first.fresh)
    writeManifestSync(gram, { ...first, generation: 2, fresh })
    expect(ensureFreshLogSync(gram, index)).toMatchObject({ generation: 2, fresh })
    // Removed: a new one is made (generation 1 again, as for a work folder without one).
    fs.rmSync(path.join(gram, "manifest.json"))
    expect(ensureFreshLogSync(gram, index).generation).toBe(1)
    fs.rmSync(root, { recursive: true, force: true })
  })
})
