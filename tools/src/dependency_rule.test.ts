/**
 * STYLE.md rules 1, 2 and 15 over the whole repository (dependency_rule.ts):
 * the functional core is pure, dependencies point inward, packages are
 * entered only through their declared doors — and the check itself finds
 * each kind of violation when one is planted (issue 17).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { type PackageDoors, type SourceText, allowedImports, dependencyViolations } from "./dependency_rule.ts"

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..")

const sourceFiles = (layer: string): Array<SourceText> => {
  const dir = path.join(repoRoot, layer, "src")
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.parentPath.includes("node_modules"))
    .map((e) => path.join(e.parentPath, e.name))
    .map((file) => ({ path: path.relative(repoRoot, file).split(path.sep).join("/"), text: fs.readFileSync(file, "utf8") }))
}

const repoPackages = (): PackageDoors =>
  Object.fromEntries(
    Object.keys(allowedImports).map((layer) => {
      const json = JSON.parse(fs.readFileSync(path.join(repoRoot, layer, "package.json"), "utf8")) as { name: string; exports?: Record<string, string> }
      return [layer, { name: json.name, doors: Object.keys(json.exports ?? { ".": "" }) }]
    })
  )

describe("dependency rule (STYLE.md rules 1, 2, 15)", () => {
  it("the repository keeps it: no file of any layer breaks it", () => {
    // This file's planted tree (below) is text in string literals, not imports of its own.
    const files = Object.keys(allowedImports).flatMap(sourceFiles).filter((f) => f.path !== "tools/src/dependency_rule.test.ts")
    // Guards against a check that passes because it read nothing.
    expect(files.filter((f) => f.path.startsWith("libs/domain/")).length).toBeGreaterThan(20)
    expect(files.filter((f) => f.path.startsWith("tools/")).length).toBeGreaterThan(20)
    expect(dependencyViolations(files, repoPackages())).toEqual([])
  })

  it("finds every kind of violation planted in a small tree", () => {
    const packages: PackageDoors = {
      "libs/domain": { name: "@sagasu/domain", doors: ["."] },
      "libs/store": { name: "@sagasu/store", doors: ["."] },
      "libs/ingest": { name: "@sagasu/ingest", doors: [".", "./testing"] },
      "apps/gui": { name: "@sagasu/gui", doors: ["."] },
      "apps/cli": { name: "@sagasu/cli", doors: ["."] },
      tools: { name: "@sagasu/tools", doors: ["."] }
    }
    const tree: Array<SourceText> = [
      { path: "libs/domain/src/a.ts", text: 'import * as fs from "node:fs"\nimport { b } from "./b.ts"\n' },
      { path: "libs/domain/src/b.ts", text: "// Date.now in a comment is fine\nexport const b = () => Date.now()\n" },
      { path: "libs/domain/src/c.test.ts", text: 'import { it } from "vitest"\nimport { b } from "./b.ts"\n' },
      { path: "libs/store/src/x.ts", text: 'import { runIndexer } from "@sagasu/ingest"\nimport { Schema } from "effect"\n' },
      { path: "libs/store/src/y.ts", text: 'export { decide } from "../../domain/src/plan.ts"\n' },
      { path: "libs/ingest/src/z.ts", text: 'const m = await import("@sagasu/store/src/lock.ts")\n' },
      { path: "apps/gui/src/w.ts", text: 'import { writeZip } from "@sagasu/ingest/testing"\n' },
      { path: "apps/gui/src/w.test.ts", text: 'import { writeZip } from "@sagasu/ingest/testing"\n' },
      { path: "apps/gui/src/server.ts", text: 'import { listIndexes } from "@sagasu/store"\nimport { x } from "@sagasu/cli"\n' },
      { path: "apps/cli/src/main.ts", text: 'import { startGui } from "@sagasu/gui"\nimport { p } from "../../gui/src/page.ts"\n' },
      { path: "tools/src/bench/b.ts", text: 'import { writeZip } from "@sagasu/ingest/testing"\nimport { c } from "../../../libs/ingest/src/extract/_cases.ts"\n' },
      { path: "tools/src/t.ts", text: 'import { m } from "./make_tree.ts"\nimport { q } from "@sagasu/store/gram"\n' }
    ]
    expect(dependencyViolations(tree, packages)).toEqual([
      "libs/domain/src/a.ts imports node:fs",
      "libs/domain/src/b.ts uses Date.now",
      "libs/store/src/x.ts imports @sagasu/ingest",
      "libs/store/src/y.ts imports outside its package (../../domain/src/plan.ts)",
      "libs/ingest/src/z.ts reaches inside @sagasu/store (@sagasu/store/src/lock.ts)",
      "apps/gui/src/w.ts imports test support (@sagasu/ingest/testing) outside a test",
      "apps/gui/src/server.ts imports @sagasu/cli",
      "apps/cli/src/main.ts imports outside its package (../../gui/src/page.ts)",
      "tools/src/bench/b.ts imports outside its package (../../../libs/ingest/src/extract/_cases.ts)",
      "tools/src/t.ts reaches inside @sagasu/store (@sagasu/store/gram)"
    ])
  })
})
