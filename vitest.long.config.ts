import { defineConfig } from 'vitest/config';

/** `npm run test:long`: the exhaustive cross-checks against the reference search (test/*.long.test.ts), alone. */
export default defineConfig({
  test: {
    include: ['test/**/*.long.test.ts'],
    maxWorkers: '100%',
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
