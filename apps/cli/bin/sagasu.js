#!/usr/bin/env node
// The `sagasu` command: TypeScript runs directly through tsx (ARCHITECTURE.md
// "Deno-style"); Node 20 cannot strip types itself.
import { register } from "tsx/esm/api"

register()
await import("../src/main.ts")
