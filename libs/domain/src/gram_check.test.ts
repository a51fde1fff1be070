import { describe, expect, it } from "vitest"
import { type GramCheckFacts, decideGramCheck, sameBoot } from "./gram_check.ts"

const boot = { id: "3f1c-boot", bootedAtS: 1_764_600_000 }
const manifest = '{\n "format": 3,\n "generation": 41,\n "fresh": "fresh-000041.log",\n "freshFrom": 0\n}\n'
const place = "2049:1835011"
const inLine: GramCheckFacts = {
  changes: 0, rebuild: false, mark: { manifest, freshBytes: 0, boot, place }, manifest, freshBytes: 0, boot, place
}

describe("decideGramCheck() (R12, R16, S1; issue 20)", () => {
  it.each([
    { name: "nothing changed since the mark", facts: inLine, expected: "Skip" },
    { name: "the run removed a vanished file (R12)", facts: { ...inLine, changes: 1 }, expected: "changes" },
    { name: "the manifest is damaged or of another format", facts: { ...inLine, rebuild: true }, expected: "rebuild" },
    { name: "no mark (first update of this version, or a failed write)", facts: { ...inLine, mark: undefined }, expected: "no-mark" },
    {
      name: "a round replaced the manifest (a stopped run's segments went live)",
      facts: { ...inLine, manifest: manifest.replace('"generation": 41', '"generation": 42') }, expected: "manifest-replaced"
    },
    { name: "a killed run noted a publish in the fresh log", facts: { ...inLine, freshBytes: 31 }, expected: "log-changed" },
    { name: "a log shorter than the mark says (replaced by hand)", facts: { ...inLine, mark: { manifest, freshBytes: 64, boot, place } }, expected: "log-changed" },
    { name: "the machine restarted (a note may be lost)", facts: { ...inLine, boot: { id: "7aa0-boot", bootedAtS: boot.bootedAtS + 3600 } }, expected: "restarted" },
    { name: "the same boot, seen from a system without a boot id", facts: { ...inLine, boot: { id: "", bootedAtS: boot.bootedAtS + 1 } }, expected: "Skip" },
    { name: "a restart, seen from a system without a boot id", facts: { ...inLine, boot: { id: "", bootedAtS: boot.bootedAtS + 95 } }, expected: "restarted" },
    { name: "the work folder was copied, restored or moved (its folders have other inodes)", facts: { ...inLine, place: "2049:9437185" }, expected: "moved" },
    { name: "changes come first, whatever the mark says", facts: { ...inLine, changes: 3, mark: undefined, freshBytes: 9 }, expected: "changes" }
  ])("$name → $expected", ({ facts, expected }) => {
    const check = decideGramCheck(facts)
    expect(check._tag === "Skip" ? "Skip" : check.reason).toBe(expected)
  })
})

describe("sameBoot()", () => {
  it.each([
    { a: { id: "x", bootedAtS: 100 }, b: { id: "x", bootedAtS: 130 }, same: true }, // the id decides: uptime jitter and clock steps do not matter
    { a: { id: "x", bootedAtS: 100 }, b: { id: "y", bootedAtS: 100 }, same: false },
    { a: { id: "", bootedAtS: 100 }, b: { id: "", bootedAtS: 102 }, same: true },
    { a: { id: "", bootedAtS: 100 }, b: { id: "", bootedAtS: 103 }, same: false },
    { a: { id: "x", bootedAtS: 100 }, b: { id: "", bootedAtS: 99 }, same: true }
  ])("$a.id@$a.bootedAtS vs $b.id@$b.bootedAtS → $same", ({ a, b, same }) => {
    expect(sameBoot(a, b)).toBe(same)
  })
})
