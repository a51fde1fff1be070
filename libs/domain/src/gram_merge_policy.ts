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
