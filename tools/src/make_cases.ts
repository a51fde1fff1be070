/**
 * Writes the inputs of ../shared/cases/cases.md (kinds XL, ZIP, DOC) to
 * `tools/testdata/cases/`, for opening in Excel, Word or PowerPoint by hand.
 * The tests do not need these files: extract_cases.test.ts builds the same
 * inputs in memory from the same recipes (libs/ingest/src/extract/_cases.ts,
 * imported here by path because it is test support, not the package's API).
 * The folder is ignored by git: nothing binary is committed.
 *
 * ```
 * npx tsx tools/src/make_cases.ts
 * ```
 *
 * @module
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { allCaseFiles } from "@sagasu/ingest/testing"
import { repoRoot } from "./corpus.ts"

const out = path.join(repoRoot, "tools", "testdata", "cases")
fs.mkdirSync(out, { recursive: true })
fs.writeFileSync(path.join(out, ".gitignore"), "*\n")
for (const { name, bytes } of await allCaseFiles()) fs.writeFileSync(path.join(out, name), bytes)
console.log(`wrote ${fs.readdirSync(out).length - 1} files to ${path.relative(process.cwd(), out) || "."}`)
