/**
 * The source files of the fresh tail (S1) as a search reads them: straight
 * from the body index (or their staging folder), whole, each time. Effect-free:
 * on the path of every cold search.
 *
 * @module
 */
import { type BodyLine, type Locator, type SourceStamp, parseBodyTsv } from "@sagasu/domain"
import * as fs from "node:fs"
import * as path from "node:path"
import { type BodyFolder, isMissing, sourceStampOf } from "./body_walk.ts"

/** A source file of the fresh tail, read from the body index when a search needs it. */
export interface FreshDoc {
  readonly index: string
  readonly path: string
  readonly normIndex: string
  readonly normPath: string
  readonly type: string
  /** When its folder was published (ms). */
  readonly mtimeMs: number
  readonly folder: BodyFolder
}

/** One part of a fresh source file: its TSV's name, locator and lines (with their forms, S4). */
export interface FreshPart {
  readonly file: string
  readonly locator: Locator
  readonly lines: ReadonlyArray<BodyLine>
}

/**
 * The parts of a fresh folder as the body index holds them now (undefined
 * when it vanished). A TSV that cannot be read (damaged by hand, a link
 * loop) is left out: one file never fails a search; the next update reports
 * it.
 */
export function readFreshParts(folder: BodyFolder): Array<FreshPart> | undefined {
  const out: Array<FreshPart> = []
  for (const file of folder.files) {
    let text: string
    try {
      text = fs.readFileSync(path.join(folder.dir, file), "utf8")
    } catch (e) {
      if (isMissing(e)) return undefined
      continue
    }
    const tsv = parseBodyTsv(text)
    out.push({ file, locator: tsv.locator, lines: tsv.lines })
  }
  return out
}

/** The size and modified time of a fresh source file (its `.complete` mark), when known. */
export function freshStampOf(doc: FreshDoc): SourceStamp | undefined {
  return sourceStampOf(doc.folder.dir)
}
