import { describe, expect, it } from "vitest"
import { findMissingTargetFolder } from "./select_indexes.ts"

const a = { name: "A", path: "/a", enabled: true }
const b = { name: "B", path: "/b", enabled: true }
const c = { name: "C", path: "/c", enabled: true }

describe("findMissingTargetFolder() (R5, issue 16)", () => {
  it.each([
    { there: ["/a", "/b", "/c"], found: undefined },
    { there: ["/a", "/c"], found: { missing: b, others: ["A", "C"] } },
    { there: ["/c"], found: { missing: a, others: ["C"] } },
    { there: [], found: { missing: a, others: [] } }
  ])("folders there $there → $found", ({ there, found }) => {
    expect(findMissingTargetFolder([a, b, c], (p) => there.includes(p))).toEqual(found)
  })
})
