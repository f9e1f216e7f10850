import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One test file per core (vitest's default leaves one core free: on the 2-core CI machine
    // that ran the files one after another). No test is timed, and each file works in a
    // directory of its own, so files may share the cores.
    maxWorkers: '100%',
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
