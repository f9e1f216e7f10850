import { type Command, Option } from 'commander';
import { formatDealFile, formatPysolBoard, formatSolvitaireDeal } from '../../game/index.js';
import { type DealSourceOptions, addDealOptions, examples, out, resolveDeal, run } from '../common.js';

export interface DealOptions extends DealSourceOptions {
  format: 'file' | 'pysol' | 'solvitaire';
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
    .addHelpText(
      'after',
      examples(
        'limited deal 1                             # deal 1 of the full game (2 packs, 12 columns of 3)',
        'limited deal 3 --size 1x5,4x3 --rules pysol > small.txt',
        'limited show --deal small.txt              # read it back',
        'limited deal --pysol 123456                # the deal of PySolFC game 123456, as a deal file',
        'limited deal --pysol 123456 --format pysol # ... as a board: Talon:, Waste:, a line a column, exposed card last',
        'limited deal --pysol 7 --format solvitaire > p7.json && solvitaire --type limited --timeout 5000 p7.json',
      ) +
        "\nDeal numbers (scheme v1) mean the same deal for ever. The output has a 'rules:' line\n" +
        "when --rules is given, the deal file had one, or the deal is --pysol (rules: pysol), and\n" +
        'always a size: line.\n',
    )
    .action(
      run((n: string | undefined, o: DealOptions) => {
        const r = resolveDeal(n, o);
        if (o.format === 'pysol') out(formatPysolBoard(r.deal));
        else if (o.format === 'solvitaire') out(formatSolvitaireDeal(r.deal));
        else out(formatDealFile(r.deal, o.rules !== undefined ? r.rules : undefined));
      }),
    );
}
