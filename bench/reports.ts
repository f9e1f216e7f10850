/**
 * Reading `bench/solve.js` reports back: every report in a directory that has its per-deal CSV
 * beside it (`--out X.md --csv X.csv`), with the CSV rows of one search (`preset portfolio`,
 * `dfs`, ...) grouped by rules. Used by bench/summary.ts (the totals) and bench/longer.ts (the
 * deals a budget left unknown, given more time).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvLine } from '../src/batch/csv.js';

/** One CSV row of a report: a deal solved by the search asked for. */
export interface ReportRow {
  /** The deal's number: a deal number, or a PySolFC game number for `pysol` rows ("pysol 17" in the CSV). */
  readonly deal: number;
  /** `won`, `unsolvable`, `unknown`, or `error` (a solution that failed to verify). */
  readonly verdict: string;
  /** `search` or `locks` for unsolvable, else ''. */
  readonly proof: string;
}

/** The rows of one rules in one report. */
export interface ReportPart {
  /** The report's name without `.md`. */
  readonly file: string;
  /** The report's text (Markdown). */
  readonly md: string;
  readonly rules: string;
  /** The budget per deal as the report gives it: "1 s", "60 s, 800 nodes". */
  readonly budget: string;
  /** In the CSV's order; the deals are one run of numbers (checked). */
  readonly rows: readonly ReportRow[];
}

/**
 * The reports in `dir` with rows of `search`, a part for each rules, in file-name order; and the
 * files left out, each with why (no CSV, not a bench/solve.js CSV, no rows of `search`).
 * Markdown files that are not reports are passed over in silence. Calls `fail` (a usage error;
 * it must not return) when the directory cannot be read, and `bad` (a file at fault; it must not
 * return either) when a CSV's deals are not one run of numbers.
 */
export function readReports(
  dir: string, search: string, fail: (message: string) => never, bad: (message: string) => never,
): { parts: ReportPart[]; skipped: string[] } {
  let names: string[];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith('.md')).sort();
  } catch (e) {
    return fail(`cannot read --dir '${dir}': ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const parts: ReportPart[] = [];
  const skipped: string[] = [];
  for (const name of names) {
    const stem = name.slice(0, -3);
    const md = readFileSync(join(dir, name), 'utf8');
    if (!md.startsWith('# Solver benchmark')) continue;
    let csv: string;
    try {
      csv = readFileSync(join(dir, `${stem}.csv`), 'utf8');
    } catch {
      skipped.push(`${name} (no ${stem}.csv)`);
      continue;
    }
    const budget = /^- budget per deal: ([^;]+);/m.exec(md)?.[1] ?? '?';
    const lines = csv.trimEnd().split('\n');
    const header = parseCsvLine(lines[0] ?? '');
    const cols = ['rules', 'deal', 'search', 'verdict', 'proof'].map((c) => header.indexOf(c));
    const [cRules, cDeal, cSearch, cVerdict, cProof] = cols as [number, number, number, number, number];
    if (cols.some((c) => c < 0)) {
      skipped.push(`${name} (${stem}.csv is not a bench/solve.js CSV)`);
      continue;
    }
    const byRules = new Map<string, ReportRow[]>();
    for (const line of lines.slice(1)) {
      const row = parseCsvLine(line);
      if (row[cSearch] !== search) continue;
      const rules = row[cRules]!;
      let list = byRules.get(rules);
      if (list === undefined) byRules.set(rules, (list = []));
      list.push({ deal: Number(row[cDeal]!.replace(/^pysol /, '')), verdict: row[cVerdict]!, proof: row[cProof]! });
    }
    if (byRules.size === 0) {
      skipped.push(`${name} (no rows of ${search})`);
      continue;
    }
    for (const [rules, rows] of byRules) {
      const deals = rows.map((r) => r.deal);
      const first = Math.min(...deals);
      const last = Math.max(...deals);
      if (new Set(deals).size !== deals.length || last - first + 1 !== deals.length)
        bad(`${name}: the ${rules} deals of ${search} are not one run of numbers (${deals.length} rows, ${first}..${last})`);
      parts.push({ file: stem, md, rules, budget, rows });
    }
  }
  return { parts, skipped };
}
