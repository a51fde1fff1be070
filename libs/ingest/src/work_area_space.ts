/**
 * A full disk on the Office path (R18, issue 15). LibreOffice keeps its
 * profile, its temporary files, the copy of the source and its output in the
 * work folder's work area (`tmp/office/`); when that disk is full it
 * fails in ways that blame the file — `office-start-failed … insufficient
 * free disk space`, `conversion-failed … Error Area:Io Class:Space`, or a
 * truncated output read as `corrupt`. Such a failure is the work folder's:
 * the file is not recorded as failed, it stays pending and the run ends with
 * the disk-full error, like a plain worker whose TSVs could not be written.
 *
 * Before LibreOffice is asked at all, {@link workAreaTooFull}: with less free
 * space than it needs it does not fail cleanly — seen here with 1 MB left
 * on a tmpfs, its soffice.bin died while starting and the launcher waited for
 * ever, so the file would have hung until its time limit.
 *
 * After a failure, two kinds of evidence: what the failure says (the system's `ENOSPC`,
 * LibreOffice's words for it), and the work area's free space right after
 * the failure (a nearly full disk makes any failure of a step that writes
 * there suspect; a failure found from the source's bytes alone —
 * `encrypted`, `empty-file` — or `office-missing` never is).
 *
 * @module
 */
import type { Failure, FailureReason } from "@sagasu/domain"
import * as fs from "node:fs"

/** What a failure says when a disk was full: the system's codes and LibreOffice's own words. */
const diskFullWords = /ENOSPC|EDQUOT|no space left|disk (is )?full|Class:Space|insufficient free disk space|not enough (free )?(disk )?space/i

/** Whether `text` (a failure's detail, LibreOffice's output) says a disk was full. */
export function saysDiskFull(text: string): boolean {
  return diskFullWords.test(text)
}

/** Reasons that are found from the source's bytes alone, or before anything is written: never the disk's. */
const notFromWriting: ReadonlySet<FailureReason> = new Set(["encrypted", "empty-file", "office-missing"])

/**
 * The free space LibreOffice needs in the work area for one file: its
 * profile and temporary files (≈16 MiB, generous), the source's copy and an
 * output about as large.
 */
export function spaceNeededFor(sourceBytes: number): number {
  return 16 * 1024 * 1024 + 2 * Math.max(0, sourceBytes)
}

/** Bytes free to this process on the file system of `dir`, or `undefined` when it cannot be told. */
export function freeBytes(dir: string): number | undefined {
  try {
    const s = fs.statfsSync(dir)
    return s.bavail * s.bsize
  } catch {
    return undefined
  }
}

/**
 * The `work-folder` failure when the work area has less free space than
 * LibreOffice needs for a source of `sourceBytes` ({@link spaceNeededFor}),
 * else `undefined`. `free` measures it (default {@link freeBytes}); an
 * unknown amount is not "too full".
 */
export function workAreaTooFull(workArea: string, sourceBytes: number, free: (dir: string) => number | undefined = freeBytes): Failure | undefined {
  const have = free(workArea)
  const need = spaceNeededFor(sourceBytes)
  return have !== undefined && have < need
    ? { reason: "work-folder", detail: `no space left on the disk of the work folder for LibreOffice (${have} bytes free, it needs about ${need})` }
    : undefined
}

/** Options of {@link workFolderFailure}. */
export interface WorkFolderFailureOptions {
  /** The work area LibreOffice writes into (`<work>/tmp`). */
  readonly workArea: string
  /** The source file's size in bytes. */
  readonly sourceBytes: number
  /** How free space is measured (tests inject it; default {@link freeBytes}). */
  readonly freeBytes?: (dir: string) => number | undefined
}

/**
 * The `work-folder` failure for an Office owner's `failure` when it was the
 * work area's disk being full (the free space, or LibreOffice's own words in
 * the detail: it gives no code), else `undefined` (the failure stands as the
 * file's or the environment's).
 */
export function workFolderFailure(
  failure: Failure,
  options: WorkFolderFailureOptions
): Failure | undefined {
  if (notFromWriting.has(failure.reason)) return undefined
  const free = (options.freeBytes ?? freeBytes)(options.workArea)
  const nearlyFull = free !== undefined && free < spaceNeededFor(options.sourceBytes)
  if (!saysDiskFull(failure.detail) && !nearlyFull) return undefined
  const space = free === undefined ? "" : `${free} bytes free; `
  return { reason: "work-folder", detail: `no space left on the disk of the work folder for LibreOffice (${space}it said ${failure.reason}: ${failure.detail})` }
}
