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
  // Parts stream, so what grows with the file is the text kept: the shared-string table and the lines held.
  maxTextChars: 128 * 1024 ** 2,
  maxXmlDepth: defaultMaxXmlDepth,
  maxFileBytes: 1024 ** 3
}

const tooManyLines = (where: string, limit: number) =>
  new ExtractError({ reason: "too-large", detail: `${where}: more than ${limit} lines of text` })

/**
 * Counts what one file keeps in memory against `maxLines` and
 * `maxTextChars`; throws `too-large` past either. Lines are counted per part
 * (sheet, document body, slide deck) and, when the extraction is held whole
 * in memory, also over the file; characters count while they are held, and
 * text handed on to a staging folder is {@link release}d.
 */
export class LineBudget {
  private partLines = 0
  private fileLines = 0
  private chars = 0
  private readonly maxPartLines: number
  private readonly maxChars: number
  private readonly maxFileLines: number

  /**
   * `maxPartLines` lines per part, `maxChars` characters held at once,
   * `maxFileLines` lines over the whole file (unbounded by default: a file
   * whose parts stream to disk is bounded by the bytes it stages instead).
   */
  constructor(maxPartLines: number, maxChars: number = defaultLimits.maxTextChars, maxFileLines = Infinity) {
    this.maxPartLines = maxPartLines
    this.maxChars = maxChars
    this.maxFileLines = maxFileLines
  }

  /** Starts counting the lines of the next part. */
  startPart(): void {
    this.partLines = 0
  }

  /** Forgets the lines counted for the current part: it is read again from its start. */
  restartPart(): void {
    this.fileLines -= this.partLines
    this.partLines = 0
  }

  /** Takes one line of `chars` characters from the budget. */
  take(where: string, chars = 0): void {
    this.fileLines++
    if (++this.partLines > this.maxPartLines) throw tooManyLines(where, this.maxPartLines)
    if (this.fileLines > this.maxFileLines) throw tooManyLines(where, this.maxFileLines)
    this.hold(where, chars)
  }

  /** Takes `chars` characters of text kept for later (the shared-string table). */
  hold(where: string, chars: number): void {
    this.chars += chars
    if (this.chars > this.maxChars) {
      throw new ExtractError({ reason: "too-large", detail: `${where}: more than ${this.maxChars} characters of text` })
    }
  }

  /** Gives back `chars` characters that are no longer held (lines written to disk, or dropped). */
  release(chars: number): void {
    this.chars -= chars
  }
}
