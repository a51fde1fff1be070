/**
 * Which of the 2-gram round's own segments to merge next (R16, S1; issue
 * 20). A round writes a small segment every few seconds while a run
 * ingests; merging keeps their number down for the searches meanwhile, and
 * every merge rewrites the lines of its inputs.
 *
 * Until issue 20 the round kept at most `2 × factor` segments by merging the
 * `factor` neighbours with the fewest lines whenever there were more. Once
 * the older segments are large, every few flushes that window takes a new
 * small segment and three large ones: simulated over 900 flushes of a
 * drive's sizes (20,000–320,000 lines each, the domain test) each line is
 * rewritten ≈ 31 times, and on the 20,000-file drive benchmark merging was
 * a third of the 2-gram thread's CPU, which paced the run.
 *
 * Now the segments are tiered, as a logarithmic merge policy does: a
 * segment's *level* is ⌊log_factor(live lines)⌋, and `factor` neighbours on
 * one level are merged into one of the next level (the newest such window
 * first), so a line is rewritten about once per level, log_factor of the
 * run's size. Levels of uneven segments can leave many side by side; past
 * `maxSegments` the window with the fewest lines is merged as before. The
 * same simulation: ≈ 5.4 rewrites a line with `maxSegments` 24, the count
 * bounded by 24 (the update at the end of the run merges down to its own
 * limit).
 *
 * @module
 */

/** The level of a segment of `lines` live lines under `factor` (0 for an empty one). */
export function mergeLevel(lines: number, factor: number): number {
  let level = 0
  for (let size = factor; size <= lines; size *= factor) level++
  return level
}

/**
 * The start of the window of `factor` neighbouring segments to merge next,
 * or `undefined` when none should be. `lines` are the live lines of the
 * round's own segments in manifest order (oldest first); `factor ≥ 2`.
 * The newest window of `factor` segments on one {@link mergeLevel}; else,
 * when there are more than `maxSegments`, the window with the fewest lines
 * (the first of equals).
 */
export function chooseRoundMerge(lines: ReadonlyArray<number>, factor: number, maxSegments: number): number | undefined {
  if (lines.length < factor) return undefined
  const levels = lines.map((n) => mergeLevel(n, factor))
  for (let start = lines.length - factor; start >= 0; start--) {
    let same = true
    for (let k = start + 1; k < start + factor && same; k++) same = levels[k] === levels[start]
    if (same) return start
  }
  if (lines.length <= maxSegments) return undefined
  let best = 0
  let bestLines = Number.POSITIVE_INFINITY
  for (let start = 0; start + factor <= lines.length; start++) {
    let sum = 0
    for (let k = start; k < start + factor; k++) sum += lines[k] ?? 0
    if (sum < bestLines) {
      best = start
      bestLines = sum
    }
  }
  return best
}

/** A run of neighbouring segments to merge into one: `count` segments from `start`. */
export interface MergeWindow {
  readonly start: number
  readonly count: number
}

/**
 * The merges that bring the 2-gram index down to `maxSegments` at the end
 * of an update (R16; issue 20), each a run of neighbouring segments merged
 * into one in a single pass: of every way to cut the segments into
 * `maxSegments` runs of neighbours, the one that rewrites the fewest live
 * `lines` (a run of one segment is left alone; a run of several is written
 * once), each run's live `textBytes` within `maxTextBytes`. `lines` and
 * `textBytes` are per segment in manifest order, oldest first; neighbours
 * only, so the newest-first order of files survives. Returns the runs of
 * two or more, oldest first, without overlap; empty when there are not
 * more than `maxSegments` or no cut fits `maxTextBytes` (the caller then
 * merges pairs as before).
 *
 * Merging pairs (the two neighbours with the fewest lines, again and again)
 * rewrites a small segment once per merge it goes through: the 14 segments
 * the corpus run ended with went down to 8 in 6 pair merges writing 98,556
 * lines; the cheapest cut writes 55,678 in 2 merges (the domain test), and a
 * 4,000-file drive's final update took 15 pair merges.
 */
export function chooseFinalMerges(
  lines: ReadonlyArray<number>,
  textBytes: ReadonlyArray<number>,
  maxSegments: number,
  maxTextBytes: number
): ReadonlyArray<MergeWindow> {
  const n = lines.length
  const groups = Math.max(1, maxSegments)
  if (n <= groups) return []
  const prefixLines = [0]
  const prefixText = [0]
  for (let i = 0; i < n; i++) {
    prefixLines.push(prefixLines[i]! + (lines[i] ?? 0))
    prefixText.push(prefixText[i]! + (textBytes[i] ?? 0))
  }
  // The cost of merging segments j..i-1 into one: nothing for one segment, its lines for several.
  const cost = (j: number, i: number) =>
    i - j === 1 ? 0 : prefixText[i]! - prefixText[j]! <= maxTextBytes ? prefixLines[i]! - prefixLines[j]! : Number.POSITIVE_INFINITY
  // best[g][i]: the least cost of cutting the first i segments into g runs; from[g][i] where the last run starts.
  const best = Array.from({ length: groups + 1 }, () => new Array<number>(n + 1).fill(Number.POSITIVE_INFINITY))
  const from = Array.from({ length: groups + 1 }, () => new Array<number>(n + 1).fill(-1))
  best[0]![0] = 0
  for (let g = 1; g <= groups; g++) {
    for (let i = g; i <= n; i++) {
      for (let j = g - 1; j < i; j++) {
        const c = best[g - 1]![j]! + cost(j, i)
        if (c < best[g]![i]!) {
          best[g]![i] = c
          from[g]![i] = j
        }
      }
    }
  }
  if (best[groups]![n] === Number.POSITIVE_INFINITY) return []
  const runs: Array<MergeWindow> = []
  for (let g = groups, i = n; g > 0; g--) {
    const j = from[g]![i]!
    if (i - j > 1) runs.push({ start: j, count: i - j })
    i = j
  }
  return runs.reverse()
}
