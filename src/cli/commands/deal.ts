import { type Command, Option } from 'commander';
import {
  FULL_SIZE, PYSOL, UserError, formatCard, formatDealFile, formatPysolBoard, formatRules, formatSize, formatSolvitaireDeal, rulesEqual, sizeEqual,
} from '../../game/index.js';
import { type DealSourceOptions, addDealOptions, resolveDeal } from '../deals.js';
import { run } from '../exit.js';
import { examples } from '../options.js';
import { out, outJson } from '../output.js';
import { dealJson } from './show.js';

export interface DealOptions extends DealSourceOptions {
  format: 'file' | 'pysol' | 'solvitaire';
  json?: boolean;
}

export function registerDeal(program: Command): void {
  const cmd = program.command('deal').description('print a deal as a deal file (the RULES.md format: rows, stock), or as a PySolFC-style board');
  addDealOptions(cmd)
    .addOption(
      new Option(
        '--format <format>',
        "'file': a deal file (RULES.md); 'pysol': a board in the style of PySolFC's solver export (Talon:, Waste:, one line a column); 'solvitaire': the JSON deal of the C++ solver Solvitaire (its 'limited' preset is the pysol rules)",
      )
        .choices(['file', 'pysol', 'solvitaire'])
        .default('file'),
    )
    .option('--json', "print the deal as one JSON object (fields: docs/cli.md) instead of a deal file; not with --format")
    .addHelpText(
      'after',
      examples(
        'limited deal 1                             # deal 1 of the full game (2 packs, 12 columns of 3)',
        'limited deal 3 --size 1x5,4x3 --rules pysol > small.txt && limited show --deal small.txt   # write a deal file, read it back',
        'limited deal --pysol 123456                # the deal of PySolFC game 123456, as a deal file',
        'limited deal --pysol 123456 --format pysol # ... as a board: Talon:, Waste:, a line a column, exposed card last',
        'limited deal --pysol 7 --format solvitaire > p7.json && solvitaire --type limited --timeout 5000 p7.json',
        'limited deal 1 --json                      # {deal, source, rules, size, columns, stock}',
      ) +
        "\nDeal numbers (scheme v1) mean the same deal for ever. The output has a 'rules:' line\n" +
        "when --rules is given, the deal file had one, or the deal is --pysol (rules: pysol), and\n" +
        "always a size: line. With --format solvitaire, a note on stderr when the rules are not\n" +
        "pysol or the size not 2x13 12x3: Solvitaire's 'limited' preset plays those whatever the deal.\n" +
        '--json fields: deal (in words), source (the deal number, or "pysol GAME"; null for a deal\n' +
        'file without one), rules, size, columns (cards top row first, e.g. "5S"), stock (in the\n' +
        'order it is dealt).\n',
    )
    .action(
      run((n: string | undefined, o: DealOptions, c: Command) => {
        if (o.json && c.getOptionValueSource('format') === 'cli') throw new UserError('give --json or --format, not both (--json prints the deal as one JSON object)');
        const r = resolveDeal(n, o);
        if (o.json) {
          const d = r.deal;
          outJson({ ...dealJson(r), source: d.source ?? null, columns: d.columns.map((col) => col.map(formatCard)), stock: d.stock.map(formatCard) });
        } else if (o.format === 'pysol') out(formatPysolBoard(r.deal));
        else if (o.format === 'solvitaire') {
          // Solvitaire's `limited` preset plays the pysol rules at full size, whatever the
          // deal was meant for: say so when this one is not that, or the two solvers' verdicts
          // would be compared on different games. The JSON is written all the same.
          const other = [
            ...(rulesEqual(r.rules, PYSOL) ? [] : [`rules ${formatRules(r.rules)}`]),
            ...(sizeEqual(r.deal.size, FULL_SIZE) ? [] : [`size ${formatSize(r.deal.size)}`]),
          ];
          if (other.length > 0)
            process.stderr.write(
              `limited: note: Solvitaire's 'limited' preset plays rules pysol at size ${formatSize(FULL_SIZE)}, not ${other.join(' and ')} as here\n`,
            );
          out(formatSolvitaireDeal(r.deal));
        }
        else out(formatDealFile(r.deal, o.rules !== undefined ? r.rules : undefined));
      }),
    );
}
