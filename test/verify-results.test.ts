/**
 * Certificates (src/batch/certs.ts: a won deal's moves, how a lost one was proved) and
 * `limited verify-results` (src/batch/verify-results.ts): a batch and an estimate keep them, a
 * kill loses none, and the check replays every solution, exits 0 when all is well and 1 naming
 * the file, line and deal when a solution or a row is damaged.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { dealFromNumber, parseRules, parseSize, replay } from '../src/game/index.js';
import { certsGzPath, certsPath, readCerts } from '../src/batch/certs.js';
import { MAIN, ROOT, expectUsageError, runCli, withTempDir } from './cli-helpers.js';
import { referenceSolve } from './reference.js';

let dir = '';
withTempDir('limited-verify-results-', (d) => (dir = d));

const SMALL = ['--size', '1x8,4x3'];
const batch = (out: string, more: string[] = []): string[] => ['batch', '--from', '1', '--count', '120', ...SMALL, '--max-nodes', '3000', '--workers', '2', '--no-progress', '--out', out, ...more];

const gzLines = (csv: string): string[] => gunzipSync(readFileSync(certsGzPath(csv))).toString('utf8').split('\n').filter((l) => l !== '');
const writeGzLines = (csv: string, lines: readonly string[]): void => writeFileSync(certsGzPath(csv), gzipSync(lines.map((l) => l + '\n').join('')));

/** Runs the CLI and kills it (SIGKILL: no clean-up) once `file` has more than `lines` lines. */
async function killOnceLines(args: string[], file: string, lines: number): Promise<void> {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, stdio: 'ignore' });
  const closed = new Promise((res) => child.on('close', res));
  let killed = false;
  while (!killed && child.exitCode === null) {
    if (existsSync(file) && readFileSync(file, 'utf8').split('\n').length > lines) {
      child.kill('SIGKILL');
      killed = true;
    } else await new Promise((res) => setTimeout(res, 20));
  }
  await closed;
  expect(killed, 'the run ended before it was killed').toBe(true);
}

describe('certificates and limited verify-results', () => {
  it('a batch keeps a certificate of every decided deal, each true to the reference; verify-results replays them and exits 0', () => {
    const out = join(dir, 'a', 'run.csv');
    const r = runCli(batch(out, ['--certificates']));
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(certsGzPath(out))).toBe(true);
    expect(existsSync(certsPath(out))).toBe(false);
    const certs = readCerts(out)!;
    const rows = readFileSync(out, 'utf8').split('\n').slice(1).filter((l) => l !== '').map((l) => l.split(','));
    const decided = rows.filter((f) => f[9] === 'won' || f[9] === 'unsolvable');
    expect(decided.length).toBeGreaterThan(60);
    expect([...certs.keys()]).toEqual(decided.map((f) => Number(f[0])));
    const size = parseSize('1x8 4x3');
    const book = parseRules('book');
    for (const f of decided) {
      const c = certs.get(Number(f[0]))!;
      expect(c.verdict).toBe(f[9]);
      if (f[9] === 'won') {
        const played = replay(dealFromNumber(Number(f[0]), size), book, c.words.join('\n'));
        expect(played.won).toBe(true);
        expect(played.played).toBe(Number(f[13]));
      } else {
        expect(['locks', 'search']).toContain(c.words[0]);
        expect(referenceSolve(dealFromNumber(Number(f[0]), size), book).verdict).toBe('unsolvable');
      }
    }
    const v = runCli(['verify-results', join(dir, 'a')]);
    expect(v.status, v.stdout + v.stderr).toBe(0);
    const won = decided.filter((f) => f[9] === 'won').length;
    expect(v.stdout).toContain(`ok ${out}: 120 rows (${won} won, ${decided.length - won} unsolvable, ${120 - decided.length} unknown); ${decided.length} certificates: ${won} solutions replayed, losses proved `);
    expect(v.stdout).toMatch(/^ok: 1 results file, every one good$/m);
    // A second run only summarizes; one without --certificates is refused only while work is left.
    expect(runCli(batch(out)).status).toBe(0);
  });

  it('a damaged solution, a lost certificate, a damaged row: exit 1, naming the file, line and deal', () => {
    const out = join(dir, 'b', 'run.csv');
    expect(runCli(batch(out, ['--certificates'])).status).toBe(0);
    const lines = gzLines(out);
    const i = lines.findIndex((l) => l.split(' ')[1] === 'won');
    const deal = Number(lines[i]!.split(' ')[0]);
    // A solution with its last move gone: it no longer wins.
    const cut = [...lines];
    cut[i] = cut[i]!.split(' ').slice(0, -1).join(' ');
    writeGzLines(out, cut);
    let v = runCli(['verify-results', out]);
    expect(v.status).toBe(1);
    expect(v.stdout).toMatch(new RegExp(`^FAILED ${out}: `, 'm'));
    expect(v.stdout).toContain(`${certsGzPath(out)}, line ${i + 1}: deal ${deal}: the solution stops after`);
    expect(v.stdout).toMatch(/^FAILED: 1 results file, 1 with problems$/m);
    // A move that is not legal there.
    const bad = [...lines];
    const words = bad[i]!.split(' ');
    words[2] = 'c9>c1';
    bad[i] = words.join(' ');
    writeGzLines(out, bad);
    v = runCli(['verify-results', out]);
    expect(v.status).toBe(1);
    expect(v.stdout).toContain(`${certsGzPath(out)}, line ${i + 1}: deal ${deal}: move 1 'c9>c1'`);
    // A certificate lost.
    writeGzLines(out, lines.filter((_, k) => k !== i));
    v = runCli(['verify-results', out]);
    expect(v.status).toBe(1);
    expect(v.stdout).toMatch(new RegExp(`${out}, line \\d+: deal ${deal}: won without a certificate`));
    writeGzLines(out, lines);
    expect(runCli(['verify-results', out]).status).toBe(0);
    // A row whose best_home is past the deck, and one whose verdict was changed.
    const csv = readFileSync(out, 'utf8').split('\n');
    const k = csv.findIndex((l) => l.startsWith(`${deal},`));
    const f = csv[k]!.split(',');
    f[14] = '999';
    writeFileSync(out, csv.map((l, j) => (j === k ? f.join(',') : l)).join('\n'));
    v = runCli(['verify-results', out]);
    expect(v.status).toBe(1);
    expect(v.stdout).toContain(`${out}, line ${k + 1}: best_home '999' is more than the 32 cards of the deck (deal ${deal})`);
    const g = csv[k]!.split(',');
    g[9] = 'unsolvable';
    writeFileSync(out, csv.map((l, j) => (j === k ? g.join(',') : l)).join('\n'));
    v = runCli(['verify-results', out]);
    expect(v.status).toBe(1);
    expect(v.stdout).toContain(`${out}, line ${k + 1}: solution_length ${f[13]} with verdict unsolvable`);
    // Bad input is exit 2.
    expectUsageError(runCli(['verify-results', join(dir, 'nothing-here')]), /cannot read/);
  });

  it('a kill loses no certificate; resume keeps them, and a run with or without --certificates must match the file', async () => {
    const out = join(dir, 'c', 'run.csv');
    const args = ['batch', '--from', '1', '--count', '300', ...SMALL, '--max-nodes', '20000', '--workers', '1', '--chunk', '2', '--no-progress', '--out', out, '--certificates'];
    await killOnceLines(args, certsPath(out), 20);
    expect(existsSync(certsGzPath(out))).toBe(false);
    expectUsageError(runCli(args.filter((a) => a !== '--certificates')), /keeps certificates of its rows .*give --certificates to resume it/);
    const r = runCli(args);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/resuming/);
    const v = runCli(['verify-results', out]);
    expect(v.status, v.stdout).toBe(0);
    expect(existsSync(certsPath(out))).toBe(false);
    // A file begun without certificates cannot be finished with them.
    const other = join(dir, 'c', 'plain.csv');
    const plain = [...args.filter((a) => a !== '--certificates' && a !== out), other];
    await killOnceLines(plain, other, 20);
    expectUsageError(runCli([...plain, '--certificates']), /was begun without certificates: its \d+ rows have none/);
  });

  it('experiment winrate --certificates: each phase keeps them, and verify-results checks the directory', () => {
    const out = join(dir, 'winrate');
    const r = runCli(['experiment', 'winrate', ...SMALL.map((a) => a.replace(' ', ',')), '--count', '80', '--max-nodes', '300', '--sample', '8', '--long-nodes', '200000', '--workers', '2', '--out-dir', out, '--no-progress', '--certificates']);
    expect(r.status, r.stderr).toBe(0);
    for (const f of ['phase1.certs.gz', 'phase2.certs.gz']) expect(existsSync(join(out, f)), f).toBe(true);
    const v = runCli(['verify-results', out]);
    expect(v.status, v.stdout).toBe(0);
    expect(v.stdout).toMatch(/^ok .*phase1\.csv: 80 rows/m);
    expect(v.stdout).toMatch(/^ok .*phase2\.csv: \d+ rows .*solutions replayed/m);
  });

  it('experiment tactics --certificates: the solver rows keep them (the players\' rows prove nothing), and verify-results checks them', () => {
    const out = join(dir, 'tactics');
    const r = runCli([
      'experiment', 'tactics', ...SMALL.map((a) => a.replace(' ', ',')), '--count', '40', '--solver-count', '40', '--max-nodes', '3000', '--sample', '4',
      '--only', 'solver-free,solver-pairing-never,greedy-always-eager', '--workers', '2', '--out-dir', out, '--no-progress', '--certificates',
    ]);
    expect(r.status, r.stderr).toBe(0);
    for (const row of ['solver-free', 'solver-pairing-never']) expect(existsSync(certsGzPath(join(out, `${row}.csv`))), row).toBe(true);
    expect(existsSync(certsGzPath(join(out, 'greedy-always-eager.csv')))).toBe(false);
    const v = runCli(['verify-results', out]);
    expect(v.status, v.stdout).toBe(0);
    expect(v.stdout).toMatch(/^ok .*solver-free\.csv: 40 rows .*solutions replayed/m);
    expect(v.stdout).toMatch(/^ok .*solver-pairing-never\.csv: 40 rows .*certificates/m);
  });
});
