/**
 * The dependency rule of STYLE.md (rules 1, 2 and 15) as a pure check over
 * source texts, so that its test can run it on the repository and on a tree
 * with violations planted on purpose (issue 17: a check that cannot fail is
 * a defect).
 *
 * - `libs/domain` imports nothing but `effect` and its own files, and uses
 *   no clock, randomness, process or `require` (rule 2).
 * - Each layer imports only the `@sagasu` packages below it (domain ← store ←
 *   team ← ingest ← apps; tools may import them all), and only through a door the
 *   package declares in its `package.json` `exports` (`.` is `src/mod.ts`;
 *   `@sagasu/ingest/testing` holds test and benchmark support).
 * - A `testing` door is for tests and tools only: production files of the
 *   libs and apps never import it.
 * - No relative import leaves its package: nobody reaches into another
 *   package's folders, its private `_` files included (rules 1, 15).
 *
 * @module
 */

/** One source file: its path relative to the repository (`/`-separated) and its text. */
export interface SourceText {
  readonly path: string
  readonly text: string
}

/** The packages of the repository: folder (`libs/store`) → its name and declared doors (`exports` keys). */
export type PackageDoors = Readonly<Record<string, { readonly name: string; readonly doors: ReadonlyArray<string> }>>

/** Which `@sagasu` packages each layer's files may import (STYLE rule 2; `libs/team`, the team server, sits between the store and the run, issue 18). */
export const allowedImports: Readonly<Record<string, ReadonlyArray<string>>> = {
  "libs/domain": [],
  "libs/store": ["@sagasu/domain"],
  "libs/team": ["@sagasu/domain", "@sagasu/store"],
  "libs/ingest": ["@sagasu/domain", "@sagasu/store", "@sagasu/team"],
  "apps/gui": ["@sagasu/domain", "@sagasu/store", "@sagasu/team", "@sagasu/ingest"],
  "apps/cli": ["@sagasu/domain", "@sagasu/store", "@sagasu/team", "@sagasu/ingest", "@sagasu/gui"],
  tools: ["@sagasu/domain", "@sagasu/store", "@sagasu/team", "@sagasu/ingest", "@sagasu/gui", "@sagasu/cli"]
}

/** The module specifiers a TypeScript/JavaScript text imports or re-exports (static and dynamic). */
export function importsOf(text: string): Array<string> {
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)].map(
    (m) => m[1] ?? m[2] ?? ""
  )
}

const bannedInDomain = ["Date.now", "new Date(", "Math.random", "process.", "require("]

// The folder a path's directory plus a relative specifier lands in, `/`-separated (`..` past the root stays).
const resolveRelative = (fromFile: string, spec: string): string => {
  const parts = fromFile.split("/").slice(0, -1)
  for (const step of spec.split("/")) {
    if (step === "" || step === ".") continue
    if (step === ".." && parts.length > 0 && parts[parts.length - 1] !== "..") parts.pop()
    else parts.push(step)
  }
  return parts.join("/")
}

/**
 * Every violation of the rule in `files`, one sentence each (`<path> imports
 * <spec>`, …), in file order; `[]` when the tree keeps it. `packages` names
 * each package folder's declared doors; a file belongs to the layer whose
 * folder (`libs/store`, `tools`, …) its path starts with.
 */
export function dependencyViolations(files: ReadonlyArray<SourceText>, packages: PackageDoors): Array<string> {
  const out: Array<string> = []
  const byName = new Map(Object.values(packages).map((p) => [p.name, p.doors] as const))
  for (const file of files) {
    const layer = Object.keys(allowedImports).find((l) => file.path.startsWith(`${l}/`))
    if (layer === undefined) continue
    const isTest = /\.test\.tsx?$/.test(file.path) || /\/_test_[^/]*$/.test(file.path)
    const may = allowedImports[layer] ?? []
    for (const spec of importsOf(file.text)) {
      if (layer === "libs/domain") {
        const ok = spec.startsWith("./") || spec === "effect" || (isTest && (spec === "vitest" || spec === "@effect/vitest"))
        if (!ok) out.push(`${file.path} imports ${spec}`)
        continue
      }
      if (spec.startsWith("@sagasu/")) {
        const pkg = spec.split("/").slice(0, 2).join("/")
        const door = spec === pkg ? "." : `.${spec.slice(pkg.length)}`
        if (!may.includes(pkg)) out.push(`${file.path} imports ${spec}`)
        else if (!(byName.get(pkg) ?? ["."]).includes(door)) out.push(`${file.path} reaches inside ${pkg} (${spec})`)
        else if (door === "./testing" && layer !== "tools" && !isTest) out.push(`${file.path} imports test support (${spec}) outside a test`)
      }
      if (spec.startsWith(".")) {
        const target = resolveRelative(file.path, spec)
        if (target !== layer && !target.startsWith(`${layer}/`)) out.push(`${file.path} imports outside its package (${spec})`)
      }
    }
    if (layer === "libs/domain" && !isTest) {
      const code = file.text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "")
      for (const banned of bannedInDomain) if (code.includes(banned)) out.push(`${file.path} uses ${banned}`)
    }
  }
  return out
}
