import { describe, expect, it } from "vitest"
import { GRAM_END, GRAM_RADIX } from "./gram.ts"
import { normalizeForSearch } from "./normalize.ts"
import { seededRandom } from "./seeded_random.ts"
import { type Settings, defaultSettings } from "./settings.ts"
import type { RunOutcome } from "./settle_run.ts"
import { decidePublishCommand, decideTeamConnect, decideTeamPublish, decideTeamRound, planTeamSync, redactConnection, searchesTeamServer, teamGramsOfLine, teamKeysOfTerm } from "./team.ts"

const key = (a: string, b?: string) => (a.codePointAt(0) ?? 0) * GRAM_RADIX + (b === undefined ? GRAM_END : (b.codePointAt(0) ?? 0))

describe("teamGramsOfLine() (issue 18)", () => {
  it("holds every character's 1-gram and every neighbour pair, once, ascending", () => {
    const grams = teamGramsOfLine("見積見積", "")
    expect(grams).toEqual([key("見", "積"), key("見"), key("積", "見"), key("積")].sort((a, b) => a - b))
  })

  it("takes the forms apart from the text: no pair across the two (S4)", () => {
    expect(teamGramsOfLine("a", "1")).toEqual([key("1"), key("a")].sort((a, b) => a - b))
  })

  it("counts a character outside the BMP as one code point", () => {
    expect(teamGramsOfLine("𠮷野", "")).toEqual([key("𠮷", "野"), key("𠮷"), key("野")].sort((a, b) => a - b))
  })

  it("is empty for an empty line", () => {
    expect(teamGramsOfLine("", "")).toEqual([])
  })
})

describe("teamKeysOfTerm() (issue 18)", () => {
  it("asks a 1-character term for its 1-gram, a longer one for its 2-grams", () => {
    expect(teamKeysOfTerm("見")).toEqual([key("見")])
    expect(teamKeysOfTerm("見積書")).toEqual([key("見", "積"), key("積", "書")])
    expect(teamKeysOfTerm("")).toEqual([])
  })

  it("never loses a line: every line holding a term holds the term's keys (seeded random texts)", () => {
    const random = seededRandom(18)
    const alphabet = [..."あいうアイウ見積書ab-ｰ1２𠮷 "]
    for (let n = 0; n < 500; n++) {
      const line = Array.from({ length: 1 + Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]).join("")
      const norm = normalizeForSearch(line)
      const cps = [...norm]
      const from = Math.floor(random() * cps.length)
      const term = cps.slice(from, from + 1 + Math.floor(random() * 3)).join("")
      const grams = new Set(teamGramsOfLine(norm, ""))
      for (const k of teamKeysOfTerm(term)) expect(grams.has(k)).toBe(true)
    }
  })
})

describe("planTeamSync() (issue 18)", () => {
  it("publishes what is new or changed, removes what is gone, keeps the rest", () => {
    const local = new Map([["b.xlsx", "1"], ["a.docx", "2"], ["c.pptx", "3"]])
    const server = new Map([["a.docx", "2"], ["c.pptx", "old"], ["gone.xlsx", "4"]])
    expect(planTeamSync(local, server)).toEqual({ publish: ["b.xlsx", "c.pptx"], remove: ["gone.xlsx"], unchanged: 1 })
  })

  it("plans nothing once the server holds the body index", () => {
    const both = new Map([["a", "1"]])
    expect(planTeamSync(both, both)).toEqual({ publish: [], remove: [], unchanged: 1 })
  })
})

describe("decideTeamPublish() (issue 18)", () => {
  const team: Settings = {
    ...defaultSettings,
    targetFolders: [{ name: "共有", path: "/s", enabled: true }, { name: "旧", path: "/o", enabled: false }],
    teamServer: { url: "postgres://i@db/sagasu", passwordEnv: "P", search: false }
  }
  const ingested: RunOutcome = { _tag: "Ingested", stopped: true, folderLost: "lost", workFolderError: undefined, finallyError: undefined, done: 1, failed: [] }
  it.each([
    { name: "no targets", outcome: { _tag: "NoTargets", message: "" } as RunOutcome, publish: true },
    { name: "ingested, stopped, folder lost", outcome: ingested, publish: true },
    { name: "cancelled", outcome: { _tag: "Cancelled", why: { _tag: "declined" } } as RunOutcome, publish: false },
    { name: "error", outcome: { _tag: "Error", message: "x" } as RunOutcome, publish: false }
  ])("$name → publish $publish", ({ outcome, publish }) => {
    const step = decideTeamPublish(team, outcome)
    expect(step._tag).toBe(publish ? "Publish" : "Skip")
    if (step._tag === "Publish") expect(step.indexes).toEqual(["共有", "旧"])
  })

  it("skips without a team server", () => {
    expect(decideTeamPublish(defaultSettings, { _tag: "NoTargets", message: "" })._tag).toBe("Skip")
    expect(decideTeamRound(defaultSettings)._tag).toBe("Skip")
  })

  it("sends every registered index's files while the run ingests when a team server is set", () => {
    expect(decideTeamRound(team)).toEqual({ _tag: "Publish", server: team.teamServer, indexes: ["共有", "旧"] })
  })
})

describe("searchesTeamServer() and redactConnection() (issue 18)", () => {
  it("searches the server when asked or set, never without one", () => {
    const team = { ...defaultSettings, teamServer: { url: "postgres://u@h/d", passwordEnv: "P", search: false } }
    expect(searchesTeamServer(true, team)).toBe(true)
    expect(searchesTeamServer(false, team)).toBe(false)
    expect(searchesTeamServer(false, { ...team, teamServer: { ...team.teamServer, search: true } })).toBe(true)
    expect(searchesTeamServer(true, defaultSettings)).toBe(false)
  })

  it.each([
    ["postgres://u:secret@db:5432/sagasu", "postgres://u:***@db:5432/sagasu"],
    ["postgres://u@db/sagasu", "postgres://u@db/sagasu"],
    ["postgres://db/sagasu?user=u&password=secret&sslmode=require", "postgres://db/sagasu?user=u&password=***&sslmode=require"],
    ["host=db password=secret", "***"]
  ])("%s → %s", (url, shown) => {
    expect(redactConnection(url)).toBe(shown)
    expect(redactConnection(url)).not.toContain("secret")
  })
})

describe("decidePublishCommand() (issue 18)", () => {
  const settings: Settings = {
    ...defaultSettings,
    targetFolders: [{ name: "共有", path: "/s", enabled: true }, { name: "旧", path: "/o", enabled: false }],
    teamServer: { url: "postgres://i@db/sagasu", passwordEnv: "P", search: false }
  }
  it("publishes every registered index, or the ones named", () => {
    expect(decidePublishCommand(settings, [])).toEqual({ _tag: "Publish", server: settings.teamServer, indexes: ["共有", "旧"] })
    expect(decidePublishCommand(settings, ["旧", "旧"])).toEqual({ _tag: "Publish", server: settings.teamServer, indexes: ["旧"] })
  })
  it("refuses an unknown name and a work folder without a team server", () => {
    expect(decidePublishCommand(settings, ["営業"])).toEqual({ _tag: "UnknownIndex", name: "営業", known: ["共有", "旧"] })
    expect(decidePublishCommand(defaultSettings, [])).toEqual({ _tag: "NotConfigured" })
  })
})

describe("decideTeamConnect() (issue 18)", () => {
  it("keeps a postgres:// URL without a password, the password's place and whether to search there", () => {
    expect(decideTeamConnect(" postgres://alice@db.example.com:5432/sagasu ", { search: true })).toEqual({
      _tag: "Set", server: { url: "postgres://alice@db.example.com:5432/sagasu", passwordEnv: "SAGASU_TEAM_PASSWORD", search: true }
    })
    expect(decideTeamConnect("postgresql://db/sagasu?sslmode=require", { search: false, passwordFile: "/etc/sagasu/pw" })).toEqual({
      _tag: "Set", server: { url: "postgresql://db/sagasu?sslmode=require", passwordEnv: "SAGASU_TEAM_PASSWORD", passwordFile: "/etc/sagasu/pw", search: false }
    })
  })
  it.each([
    ["postgres://alice:secret@db/sagasu", "password-in-url"],
    ["postgres://db/sagasu?user=a&password=secret", "password-in-url"],
    ["mysql://db/sagasu", "not-postgres-url"],
    ["host=db dbname=sagasu", "not-postgres-url"]
  ])("refuses %s (%s)", (url, reason) => {
    expect(decideTeamConnect(url, { search: false })).toEqual({ _tag: "Refused", reason })
  })
})
