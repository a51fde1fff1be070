/**
 * How far two readings of the same file agree, line by line: the plain
 * reader's and LibreOffice's (issue 20's agreement figure). The lines are
 * aligned in order (longest common subsequence), so one extra or missing
 * line costs one line, not the rest of the file.
 *
 * @module
 */

/** The agreement of two readings of one file. */
export interface LineAgreement {
  /** Lines identical in both, in the same order. */
  readonly identical: number
  /** Lines of the aligned readings: identical ones plus those found in only one. */
  readonly total: number
  /** Lines only the first reading has (in order). */
  readonly onlyFirst: ReadonlyArray<string>
  /** Lines only the second reading has (in order). */
  readonly onlySecond: ReadonlyArray<string>
}

/** Aligns `first` and `second` (texts of lines, in order) and counts the lines they share. O(n·m) time, O(n·m) bits of memory. */
export function compareLines(first: ReadonlyArray<string>, second: ReadonlyArray<string>): LineAgreement {
  const n = first.length
  const m = second.length
  // lcs[i][j] = length of the longest common subsequence of first[i..] and second[j..].
  const width = m + 1
  const lcs = new Uint32Array((n + 1) * width)
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] = first[i] === second[j] ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0)
    }
  }
  const onlyFirst: Array<string> = []
  const onlySecond: Array<string> = []
  let identical = 0
  let i = 0
  let j = 0
  while (i < n && j < m) {
    if (first[i] === second[j]) {
      identical++
      i++
      j++
    } else if ((lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0)) {
      onlyFirst.push(first[i++] ?? "")
    } else {
      onlySecond.push(second[j++] ?? "")
    }
  }
  while (i < n) onlyFirst.push(first[i++] ?? "")
  while (j < m) onlySecond.push(second[j++] ?? "")
  return { identical, total: identical + onlyFirst.length + onlySecond.length, onlyFirst, onlySecond }
}
