import { Either, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { seeded } from "./_test_corpus.ts"
import { ManifestSchema, parseManifest } from "./manifest.ts"

const bySchema = Schema.decodeUnknownEither(Schema.parseJson(ManifestSchema))

const valid = {
  format: 2, normalizer: "n", generation: 3, fresh: "fresh-000003.log", freshFrom: 120,
  segments: [{ id: "g1-0", docs: 2, lines: 5, textBytes: 40, deleted: "", deletedDocs: 0, deletedLines: 0 }]
}

// Damage one field of the valid manifest in one of several ways.
function damaged(random: () => number): unknown {
  const m: Record<string, unknown> = structuredClone(valid)
  const seg = (m.segments as Array<Record<string, unknown>>)[0]!
  const target = random() < 0.5 ? m : seg
  const keys = Object.keys(target)
  const key = keys[Math.floor(random() * keys.length)]!
  const how = Math.floor(random() * 5)
  if (how === 0) delete target[key]
  else if (how === 1) target[key] = "7"
  else if (how === 2) target[key] = 7
  else if (how === 3) target[key] = null
  else target[key] = [1]
  return m
}

describe("parseManifest() decodes what the Manifest Schema decodes (the hand decoder of the cold search path)", () => {
  it("the same value for valid manifests, the old format and absent fresh fields included", () => {
    const { fresh: _f, freshFrom: _ff, ...old } = { ...valid, format: 1 }
    for (const m of [valid, old, { ...valid, segments: [] }]) {
      const text = JSON.stringify(m)
      const schema = bySchema(text)
      expect(Either.isRight(schema)).toBe(true)
      expect(parseManifest(text)).toEqual(Either.getOrThrow(schema))
    }
  })

  it("rejects exactly what the Schema rejects, on 400 damaged manifests and non-objects", () => {
    const random = seeded(12)
    const samples: Array<string> = ["[]", "null", "3", '"x"', "{ torn", JSON.stringify({ ...valid, segments: {} })]
    for (let i = 0; i < 400; i++) samples.push(JSON.stringify(damaged(random)))
    let rejected = 0
    for (const text of samples) {
      const schema = bySchema(text)
      let ours: unknown
      try {
        ours = parseManifest(text)
      } catch {
        ours = undefined
      }
      if (Either.isLeft(schema)) {
        rejected++
        expect(ours, text).toBeUndefined()
      } else {
        expect(ours, text).toEqual(schema.right)
      }
    }
    expect(rejected).toBeGreaterThan(200)
  })
})
