// The floors of src/ (DESIGN.md, README "The code"): a module imports its own folder or a floor
// below it, never one above or beside it, and no import circle closes. Read from the sources'
// import lines, type-only imports included.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cli-helpers.js';

/** Each folder (or file) of src/ and its floor, lowest first. */
const FLOORS: Readonly<Record<string, number>> = {
  game: 0,
  util: 1,
  solver: 2,
  play: 3,
  web: 3,
  batch: 4,
  experiment: 5,
  compare: 5,
  pages: 6,
  cli: 7,
  'index.ts': 8,
};

const SRC = join(ROOT, 'src');
const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => join(SRC, f));
const room = (file: string): string => relative(SRC, file).split('/')[0]!;

/** The modules of src/ a file imports (static and dynamic imports, and re-exports). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...[...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']+)'/gms)].map((m) => m[1]!),
    ...[...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)].map((m) => m[1]!),
  ];
  return specs.map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
}

const graph = new Map(files.map((f) => [f, importsOf(f)]));

describe('the floors of src/', () => {
  it('every folder has a floor', () => {
    expect([...new Set(files.map(room))].filter((r) => !(r in FLOORS))).toEqual([]);
  });

  it('no module imports a floor above its own, or another folder of its floor', () => {
    const bad: string[] = [];
    for (const [f, deps] of graph)
      for (const d of deps) {
        const [a, b] = [room(f), room(d)];
        if (a !== b && FLOORS[b]! >= FLOORS[a]!) bad.push(`${relative(SRC, f)} imports ${relative(SRC, d)}`);
      }
    expect(bad).toEqual([]);
  });

  it('no import circle', () => {
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const circles: string[] = [];
    const visit = (f: string): void => {
      state.set(f, 'open');
      path.push(f);
      for (const d of graph.get(f) ?? []) {
        if (!graph.has(d)) continue;
        if (state.get(d) === 'open') circles.push([...path.slice(path.indexOf(d)), d].map((x) => relative(SRC, x)).join(' -> '));
        else if (!state.has(d)) visit(d);
      }
      path.pop();
      state.set(f, 'done');
    };
    for (const f of graph.keys()) if (!state.has(f)) visit(f);
    expect(circles).toEqual([]);
  });

  it('imports resolve to files of src/', () => {
    const missing = [...graph].flatMap(([f, deps]) => deps.filter((d) => d.startsWith(SRC) && !graph.has(d)).map((d) => `${relative(SRC, f)}: ${relative(SRC, d)}`));
    expect(missing).toEqual([]);
  });
});
