/**
 * The command line of a benchmark script: `--name value` options and
 * `--name` flags, read the same way by every script in `bench/`.
 *
 * @module
 */
import * as os from "node:os"
import * as path from "node:path"

/** The value after `--<name>` in `argv` (default: this process's arguments), or `fallback` when absent. */
export function opt(name: string, fallback: string, argv: ReadonlyArray<string> = process.argv.slice(2)): string {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? (argv[i + 1] ?? fallback) : fallback
}

/** Whether `--<name>` is in `argv` (default: this process's arguments). */
export function flag(name: string, argv: ReadonlyArray<string> = process.argv.slice(2)): boolean {
  return argv.includes(`--${name}`)
}

/** The options of the benchmarks that index a generated tree with sagasu and Recoll (ingest_bench.ts, drive_bench.ts). */
export interface TreeBenchOptions {
  /** `--files`: files in the tree. */
  readonly files: number
  /** `--seed`: the tree's seed. */
  readonly seed: number
  /** `--threads`: ingest threads (default: this machine's parallelism). */
  readonly threads: number
  /** `--cache`: where generated trees are kept between runs (default `<tmp>/sagasu-bench-ingest`). */
  readonly cache: string
  /** Not `--no-doc`: write the result into the benchmark's document. */
  readonly writeDoc: boolean
}

/** {@link TreeBenchOptions} from `argv`, with the script's own default tree size and seed. */
export function treeBenchOptions(
  defaults: { readonly files: number; readonly seed: number },
  argv: ReadonlyArray<string> = process.argv.slice(2)
): TreeBenchOptions {
  return {
    files: Number(opt("files", String(defaults.files), argv)),
    seed: Number(opt("seed", String(defaults.seed), argv)),
    threads: Number(opt("threads", String(os.availableParallelism()), argv)),
    cache: path.resolve(opt("cache", path.join(os.tmpdir(), "sagasu-bench-ingest"), argv)),
    writeDoc: !flag("no-doc", argv)
  }
}
