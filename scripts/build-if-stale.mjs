#!/usr/bin/env node
// `npm start` runs this first: it builds (npm run build) only when a source is newer than the
// last build, so a second `npm start` goes straight to the run instead of spending ~30 s in tsc.
// The stamp is written after a build that succeeded; any file edited, pulled or checked out
// since (its mtime) makes the next start build again.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const STAMP = 'dist/.build-stamp';
const SOURCES = ['src', 'bench', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.web.json'];

/** The newest modification time under `path` (a file or a folder), in ms. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let t = st.mtimeMs;
  for (const e of readdirSync(path)) t = Math.max(t, newest(join(path, e)));
  return t;
}

const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : -1;
const changed = Math.max(...SOURCES.map(newest));
if (built < changed || !existsSync('dist/src/cli/main.js')) {
  execSync('npm run build --silent', { stdio: 'inherit' });
  writeFileSync(STAMP, `built ${new Date().toISOString()}\n`);
}
