// Search-thread bootstrap when esbuild is not available: tsx's loader does not
// reach worker threads on Node 20 (ARCHITECTURE.md "Known traps").
import { register } from "tsx/esm/api"

register()
await import("./search_worker.ts")
