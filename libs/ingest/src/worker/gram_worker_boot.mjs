// Worker-thread bootstrap: tsx's loader does not reach worker threads on
// Node 20 (ARCHITECTURE.md "Known traps"), so register it here first.
import { register } from "tsx/esm/api"

register()
await import("./gram_worker.ts")
