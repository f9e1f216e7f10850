/** What a results file records about the tool and the machine that made it. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus, hostname, platform, release } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: the nearest directory above this module with a package.json. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

export function toolVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

let commitCache: string | null | undefined;

/** The git commit of the package's checkout (with `-dirty` when it has uncommitted changes), or null when unknown. */
export function gitCommit(): string | null {
  if (commitCache !== undefined) return commitCache;
  commitCache = null;
  try {
    const opts = { cwd: packageRoot(), encoding: 'utf8' as const, stdio: ['ignore', 'pipe', 'ignore'] as ['ignore', 'pipe', 'ignore'], timeout: 3000 };
    const head = execFileSync('git', ['rev-parse', 'HEAD'], opts).trim();
    if (/^[0-9a-f]{40}$/.test(head)) {
      let dirty = false;
      try {
        dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', 'src', 'package.json'], opts).trim() !== '';
      } catch {
        // unknown: say nothing
      }
      commitCache = dirty ? `${head}-dirty` : head;
    }
  } catch {
    // no git, or not a checkout (an npm install): unknown
  }
  return commitCache;
}

export interface Machine {
  readonly cores: number;
  readonly cpu: string;
  readonly node: string;
  readonly host: string;
  readonly platform: string;
}

export function machine(): Machine {
  const c = cpus();
  return {
    cores: availableParallelism(),
    cpu: c.length > 0 ? c[0]!.model.trim() : 'unknown',
    node: process.version,
    host: hostname(),
    platform: `${platform()} ${release()}`,
  };
}
