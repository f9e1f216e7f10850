import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files first, the rollout's tests and then LockBound's (the solver's longest since
 * its tests are a file a concept), then vitest's own order (longest first by its cache, else
 * larger files first). On a fresh clone vitest has no durations, and a long small file would
 * start last and run alone at the end.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = LONGEST.findIndex((name) => f.moduleId.endsWith(name));
      return i < 0 ? LONGEST.length : i;
    };
    // Array sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

const LONGEST = ['/test/rollout.test.ts', '/test/lockbound.test.ts'];

export default defineConfig({
  test: {
    // `npm test`. The exhaustive cross-checks (test/*.long.test.ts, about 150 s) are
    // `npm run test:long` (vitest.long.config.ts), which CI runs as well.
    include: ['test/**/*.test.ts'],
    exclude: ['test/**/*.long.test.ts', '**/node_modules/**'],
    // One test file per core (vitest's default leaves one core free: on the 2-core CI machine
    // that ran the files one after another). No test is timed, and each file works in a
    // directory of its own, so files may share the cores.
    maxWorkers: '100%',
    sequence: { sequencer: LongestFirst },
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
