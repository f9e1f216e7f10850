/**
 * The files of a batch under stress: results files of earlier versions (test/fixtures/batch and
 * the committed sidecars of results/) resumed and merged as before.
 */
import { copyFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMeta } from '../src/batch/sidecar.js';
import { ROOT, type Result, runCli, withTempDir } from './cli-helpers.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'batch');

let dir: string;
const path = (name: string): string => join(dir, name);

withTempDir('limited-batch-files-', (d) => (dir = d));

function ok(args: string[], env: Record<string, string> = {}): Result {
  const r = runCli(args, { env });
  expect(r.status, r.stderr).toBe(0);
  return r;
}

/** A summary file without what depends on where it is (its own path). */
function figures(file: string): Record<string, unknown> {
  const { file: _, ...rest } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return rest;
}

/** The fixtures copied into the test's directory (the runs write beside them). */
function copyFixtures(): void {
  for (const f of readdirSync(FIXTURES)) if (/\.(csv|json)$/.test(f)) copyFileSync(join(FIXTURES, f), path(f));
}

const SOLVE = ['--from', '1', '--count', '60', '--size', '1x6,5x3', '--preset', 'fast', '--max-nodes', '5000', '--no-progress', '--workers', '1'];
const GREEDY = ['--from', '1', '--count', '100', '--size', '1x6,5x3', '--player', 'greedy', '--no-progress', '--workers', '1'];

describe('results files of earlier versions', () => {
  it('resume to nothing left to do, their rows and figures as they were', () => {
    copyFixtures();
    for (const [args, csv] of [
      [[...SOLVE, '--shard', '1/2'], 'solve.shard-1-of-2.csv'],
      [[...SOLVE, '--shard', '2/2'], 'solve.shard-2-of-2.csv'],
      [GREEDY, 'greedy.csv'],
    ] as const) {
      const r = ok(['batch', ...args, '--out', path(csv.replace(/\.shard-.*/, '.csv'))]);
      expect(r.stderr).toMatch(/nothing left to do/);
      expect(readFileSync(path(csv), 'utf8')).toBe(readFileSync(join(FIXTURES, csv), 'utf8'));
      const summary = csv.replace(/\.csv$/, '.summary.json');
      expect(figures(path(summary))).toEqual(figures(join(FIXTURES, summary)));
    }
  });

  it('merge to the same file and figures as the version that wrote them', () => {
    copyFixtures();
    ok(['merge', path('solve.shard-2-of-2.csv'), path('solve.shard-1-of-2.csv'), '--out', path('m/solve.csv')]);
    expect(readFileSync(path('m/solve.csv'), 'utf8')).toBe(readFileSync(join(FIXTURES, 'expected', 'merged-solve.csv'), 'utf8'));
    expect(figures(path('m/solve.summary.json'))).toEqual(figures(join(FIXTURES, 'expected', 'merged-solve.summary.json')));
  });

  it("the committed sidecars of results/ read as batch sidecars", () => {
    const tactics = join(ROOT, 'results', 'tactics');
    const metas = readdirSync(tactics).filter((f) => f.endsWith('.meta.json'));
    expect(metas.length).toBeGreaterThan(20);
    for (const f of metas) {
      const m = readMeta(join(tactics, f.replace(/\.meta\.json$/, '.csv')));
      expect(m, f).not.toBeNull();
      expect(m!.complete, f).toBe(true);
      expect(['solve', 'play'], f).toContain(m!.job.kind);
    }
  });
});
