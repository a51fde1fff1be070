import { defineConfig } from "vitest/config"

// CI runs every package's tests at once on 2 cores: a test that spawns runs, servers or processes
// can take many seconds there without being wrong. This is a hang guard, not a limit a test checks
// (issue 15: no test's outcome depends on how fast the machine is).
export default defineConfig({ test: { testTimeout: 120_000, hookTimeout: 120_000 } })
