/**
 * STYLE.md rules 1 and 2 over the whole repository: the functional core is
 * pure, dependencies point inward, and libs are entered only through their
 * package name (`src/mod.ts`).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..")

const sourceFiles = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.parentPath.includes("node_modules"))
    .map((e) => path.join(e.parentPath, e.name))

const importsOf = (file: string): Array<string> => {
  const text = fs.readFileSync(file, "utf8")
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)]
    .map((m) => m[1] ?? m[2] ?? "")
}

// Which @sagasu packages each layer may import (STYLE rule 2: domain ← store ← ingest ← apps).
const allowed: Record<string, ReadonlyArray<string>> = {
  "libs/domain": [],
  "libs/store": ["@sagasu/domain"],
  "libs/ingest": ["@sagasu/domain", "@sagasu/store"],
  "apps/cli": ["@sagasu/domain", "@sagasu/store", "@sagasu/ingest", "@sagasu/gui"],
  "apps/gui": ["@sagasu/domain", "@sagasu/store", "@sagasu/ingest"]
}

describe("dependency rule (STYLE.md rules 1, 2)", () => {
  it("libs/domain imports nothing but effect and its own files, and uses no clock, randomness or process", () => {
    const offenders: Array<string> = []
    for (const file of sourceFiles(path.join(repoRoot, "libs/domain/src"))) {
      const rel = path.relative(repoRoot, file)
      const isTest = file.endsWith(".test.ts")
      for (const spec of importsOf(file)) {
        const ok = spec.startsWith("./") || spec === "effect" || (isTest && (spec === "vitest" || spec === "@effect/vitest"))
        if (!ok) offenders.push(`${rel} imports ${spec}`)
      }
      if (!isTest) {
        const text = fs.readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "")
        for (const banned of ["Date.now", "new Date(", "Math.random", "process.", "require("]) {
          if (text.includes(banned)) offenders.push(`${rel} uses ${banned}`)
        }
      }
    }
    expect(offenders).toEqual([])
  })

  it("every layer imports only the layers below it, through their package names", () => {
    const offenders: Array<string> = []
    for (const [layer, may] of Object.entries(allowed)) {
      const dir = path.join(repoRoot, layer, "src")
      if (!fs.existsSync(dir)) continue
      for (const file of sourceFiles(dir)) {
        for (const spec of importsOf(file)) {
          if (spec.startsWith("@sagasu/")) {
            const pkg = spec.split("/").slice(0, 2).join("/")
            if (!may.includes(pkg)) offenders.push(`${path.relative(repoRoot, file)} imports ${spec}`)
            if (spec !== pkg) offenders.push(`${path.relative(repoRoot, file)} reaches inside ${pkg} (${spec})`)
          }
          if (spec.startsWith("../") && path.relative(dir, path.resolve(path.dirname(file), spec)).startsWith("..")) {
            offenders.push(`${path.relative(repoRoot, file)} imports outside its package (${spec})`)
          }
        }
      }
    }
    expect(offenders).toEqual([])
  })

  it("the checker sees a violation when there is one", () => {
    // Guards against a checker that finds nothing because it reads nothing.
    expect(importsOf(path.join(repoRoot, "libs/store/src/work_folder.ts"))).toContain("@effect/platform")
    expect(sourceFiles(path.join(repoRoot, "libs/domain/src")).length).toBeGreaterThan(5)
  })
})
