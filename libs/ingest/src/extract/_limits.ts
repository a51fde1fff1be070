/**
 * The limits of one extraction, so that no single file can exhaust a worker's
 * memory (BUG-10, BUG-26): inflated bytes, compression ratio, XML nesting,
 * lines and characters of text held.
 *
 * @module
 */
import { ExtractError } from "./extract_error.ts"
import { defaultMaxXmlDepth } from "./_xml.ts"

/** Limits in force for one file; see `ExtractFileOptions` for their meaning and defaults. */
export interface ExtractLimits {
  readonly maxInflatedBytes: number
  readonly maxRatio: number
  readonly maxLines: number
  readonly maxTextChars: number
  readonly maxXmlDepth: number
  readonly maxFileBytes: number
}

/** The defaults of {@link ExtractLimits}. */
export const defaultLimits: ExtractLimits = {
  maxInflatedBytes: 4 * 1024 ** 3,
  // Real parts reach about 150:1 (rows of styled empty cells); deflate's own ceiling is about 1032:1.
  maxRatio: 1000,
  maxLines: 5_000_000,
  // Parts stream, so what grows with the file is the text kept: the shared-string table and the lines.
  maxTextChars: 128 * 1024 ** 2,
  maxXmlDepth: defaultMaxXmlDepth,
  maxFileBytes: 1024 ** 3
}

/**
 * Counts what one file keeps in memory against `maxLines` and
 * `maxTextChars`; throws `too-large` past either.
 */
export class LineBudget {
  private lines = 0
  private chars = 0
  private readonly maxLines: number
  private readonly maxChars: number

  constructor(maxLines: number, maxChars: number = defaultLimits.maxTextChars) {
    this.maxLines = maxLines
    this.maxChars = maxChars
  }

  /** Takes one line of `chars` characters from the budget. */
  take(where: string, chars = 0): void {
    if (++this.lines > this.maxLines) {
      throw new ExtractError({ reason: "too-large", detail: `${where}: more than ${this.maxLines} lines of text` })
    }
    this.hold(where, chars)
  }

  /** Takes `chars` characters of text kept for later (the shared-string table). */
  hold(where: string, chars: number): void {
    this.chars += chars
    if (this.chars > this.maxChars) {
      throw new ExtractError({ reason: "too-large", detail: `${where}: more than ${this.maxChars} characters of text` })
    }
  }
}
