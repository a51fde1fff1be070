import { defineConfig } from "vitest/config"

// CI runs every package's tests at once on 2 cores: a test that spawns runs, threads or
// processes can take seconds there, well past vitest's 5 s default, without being wrong.
export default defineConfig({ test: { testTimeout: 120_000, hookTimeout: 120_000 } })
