import type { Plugin } from "esbuild"

/** `source` with every UTF-16 unit past U+00FF as a `\uXXXX` escape: a one-byte string for V8 (issue 20). See the .cjs. */
export declare function oneByteSource(source: string): string
/** An esbuild plugin rewriting each JavaScript output with {@link oneByteSource} when the build ends. */
export declare const oneByteOutputs: Plugin
