import { type Command } from 'commander';
import { formatDealFile } from '../../game/index.js';
import { type DealSourceOptions, addDealOptions, examples, out, resolveDeal, run } from '../common.js';

export function registerDeal(program: Command): void {
  const cmd = program.command('deal').description('print a deal as a deal file (the RULES.md format: rows, stock)');
  addDealOptions(cmd)
    .addHelpText(
      'after',
      examples(
        'limited deal 1                             # deal 1 of the full game (2 packs, 12 columns of 3)',
        'limited deal 3 --size 1x5,4x3 --rules pysol > small.txt',
        'limited show --deal small.txt              # read it back',
      ) +
        "\nDeal numbers (scheme v1) mean the same deal for ever. The output has a 'rules:' line\n" +
        'when --rules is given (or the deal file had one) and always a size: line.\n',
    )
    .action(
      run((n: string | undefined, o: DealSourceOptions) => {
        const r = resolveDeal(n, o);
        out(formatDealFile(r.deal, o.rules !== undefined ? r.rules : undefined));
      }),
    );
}
