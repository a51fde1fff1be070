/**
 * The handlers of `sagasu init` and `sagasu add`: each reads/writes through
 * the store, prints for a person and sets the exit code.
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { IndexName, type Settings, defaultSettings } from "@sagasu/domain"
import { checkWorkFolder, formatSettings, initWorkFolder, readSettings, writeSettings } from "@sagasu/store"
import { Console, Effect, Either, Option, ParseResult, Schema } from "effect"
import * as path from "node:path"

const decodeIndexName = Schema.decodeUnknownEither(IndexName)

/** Prints an error for a person and sets exit code 1 (no stack trace). */
const failWith = (message: string) =>
  Effect.gen(function* () {
    yield* Console.error(message)
    process.exitCode = 1
  })

/** `sagasu init`: creates the work folder. */
export const initCommand = (work: string) =>
  initWorkFolder(work, formatSettings(defaultSettings)).pipe(
    Effect.flatMap((paths) => Console.log(`Work folder ready: ${paths.root}\nNext: sagasu add NAME PATH`)),
    Effect.catchAll((e) => failWith(e.message))
  )

/** `sagasu add NAME PATH`: registers a folder (made absolute) as an enabled index. */
export const addCommand = (work: string, name: string, folder: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const paths = yield* checkWorkFolder(work)
    const settings = yield* readSettings(paths)
    const absolute = path.resolve(folder)
    const info = yield* fs.stat(absolute).pipe(Effect.option)
    if (Option.isNone(info) || info.value.type !== "Directory") {
      return yield* failWith(`Cannot add "${name}": ${absolute} is not a folder.`)
    }
    if (settings.targetFolders.some((t) => t.name === name)) {
      return yield* failWith(`Cannot add "${name}": an index of that name exists already.`)
    }
    // Validate the new entry through the Schema (index name rules) before anything is encoded or written.
    const decoded = decodeIndexName(name)
    if (Either.isLeft(decoded)) {
      return yield* failWith(`Cannot add "${name}": ${ParseResult.ArrayFormatter.formatErrorSync(decoded.left).map((i) => i.message).join("; ")}`)
    }
    const next: Settings = { ...settings, targetFolders: [...settings.targetFolders, { name, path: absolute, enabled: true }] }
    yield* writeSettings(paths, next)
    yield* Console.log(`Added index "${name}": ${absolute}\nNext: sagasu index`)
  }).pipe(Effect.catchAll((e) => failWith(e.message)))
