/**
 * The limits of one extraction, so that no single file can exhaust a worker's
 * memory (BUG-10, BUG-26): inflated bytes, compression ratio, lines of text.
 *
 * @module
 */
import { ExtractError } from "./extract_error.ts"

/** Limits in force for one file; see `ExtractFileOptions` for their meaning and defaults. */
export interface ExtractLimits {
  readonly maxInflatedBytes: number
  readonly maxRatio: number
  readonly maxLines: number
}

export const defaultLimits: ExtractLimits = {
  maxInflatedBytes: 1024 ** 3,
  // Real parts reach about 150:1 (rows of styled empty cells); deflate's own ceiling is about 1032:1.
  maxRatio: 1000,
  maxLines: 5_000_000
}

/** Counts the lines of one file against `maxLines`; throws `too-large` past it. */
export class LineBudget {
  private used = 0
  private readonly max: number

  constructor(max: number) {
    this.max = max
  }

  /** Takes one line from the budget. */
  take(where: string): void {
    if (++this.used > this.max) {
      throw new ExtractError({ reason: "too-large", detail: `${where}: more than ${this.max} lines of text` })
    }
  }
}
