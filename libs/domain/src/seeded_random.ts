/**
 * A seeded generator of numbers in [0, 1) (mulberry32): the same sequence for
 * the same seed on every run and machine, for generated test trees,
 * benchmark corpora and property tests (STYLE rule 16: a test does not
 * depend on the run). Not for anything secret. Pure: the state lives in the
 * returned closure.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
