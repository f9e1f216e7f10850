/**
 * The `limited` command line, run when imported (main.ts is the entry). Each command lives in
 * commands/<name>.ts and registers itself here; shared pieces (deal sources, errors and exit
 * statuses) are in common.ts.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { watchStopSignals } from '../util/stop.js';
import { oneLine, reportError } from './exit.js';
import { preloadInputs } from './files.js';
import { examples } from './options.js';
import { registerBatch } from './commands/batch.js';
import { registerBench } from './commands/bench.js';
import { registerDeal } from './commands/deal.js';
import { registerExperiment } from './commands/experiment.js';
import { registerMerge } from './commands/merge.js';
import { registerHint } from './commands/hint.js';
import { registerMoves } from './commands/moves.js';
import { registerReport } from './commands/report.js';
import { registerShow } from './commands/show.js';
import { registerStart } from './commands/start.js';
import { registerSolve } from './commands/solve.js';
import { registerVerify } from './commands/verify.js';
import { registerVerifyResults } from './commands/verify-results.js';
import { registerPlay, registerView } from './commands/view.js';

/** The commands that stop cleanly on SIGINT and SIGTERM, from their first moment (src/util/stop.ts). */
const STOPPABLE = new Set(['batch', 'start', 'experiment', 'bench']);

/** The commands, in the order `limited --help` lists them. */
const COMMANDS: readonly ((program: Command) => void)[] = [
  registerStart, registerDeal, registerShow, registerMoves, registerVerify, registerVerifyResults, registerSolve, registerBatch, registerMerge, registerBench,
  registerExperiment, registerHint, registerView, registerPlay, registerReport,
];

function packageVersion(): string {
  // dist/src/cli/main.js (the bundle) or cli.js (tsc's) -> the package root, three levels up.
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** A commander error message as one line: `limited: unknown option '--x' (see 'limited show --help')`. */
function usageLine(helpHint: string) {
  return (str: string, write: (s: string) => void) => write(`limited: ${oneLine(str.replace(/^error: /, ''))} (see '${helpHint}')\n`);
}

/**
 * `help [command]` of a command with subcommands, in place of commander's, which for an unknown
 * name prints the whole help as an error without saying what was wrong: this one says
 * `unknown command 'foo'` as `limited foo` does (exit 2).
 */
function addHelpCommand(parent: Command, name: string): void {
  parent.helpCommand(false);
  parent
    .command('help')
    .configureOutput({ outputError: usageLine(`${name} help --help`) })
    .description('display help for command')
    .argument('[command]', 'the command')
    .action((name: string | undefined) => {
      if (name === undefined) return parent.help();
      const cmd = parent.commands.find((c) => c.name() === name || c.aliases().includes(name));
      if (!cmd) return parent.error(`unknown command '${name}'`, { code: 'commander.unknownCommand' });
      return cmd.help();
    });
}

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('limited')
    .version(packageVersion(), '-V, --version', 'print the version')
    .description(
      'Solver and win-rate research tool for Limited, a two-deck patience of the Napoleon at St Helena family: ' +
        '12 columns of 3, cards built in pairs, one limited second deal through 4 privileged cards.',
    )
    .exitOverride()
    .configureOutput({ outputError: usageLine('limited --help') })
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      examples(
        'limited show 1                            # deal 1 as a player sees it',
        'limited moves 1                           # its legal moves, in move notation',
        'limited deal 1 > deal1.txt                # as a deal file',
        'limited solve 1 --max-seconds 10          # solve deal 1 (won, unsolvable or unknown)',
        'limited solve 4 --size 1x5,4x3 --solution-out win.txt && limited verify 4 --size 1x5,4x3 --solution win.txt   # check a solution',
        'limited solve --pysol 123456              # solve the deal of PySolFC game 123456',
        'limited batch --from 1 --count 1000 --preset fast --max-nodes 50000   # win rate of deals 1-1000, every core',
        'limited bench --from 1 --count 200 --heuristics waste,blend       # compare heuristics on the same deals',
        'limited experiment winrate --count 200 --sample 10                # how often the game is won, to within an interval',
      ) +
        "\nEach command has its own help with examples: 'limited COMMAND --help'.\n" +
        'Deals: a deal number N (0 to 2^53-1, the same deal for ever), --deal FILE, or --pysol GAME\n' +
        "(the deal of PySolFC's Limited game number GAME, played by the pysol rules unless --rules).\n" +
        'Exit status: 0 ok (for solve: any verdict, won, unsolvable or unknown), 1 invalid solution,\n' +
        '2 bad input (one line on stderr), 3 a solver solution that fails to verify (a bug),\n' +
        '70 internal error; batch, start, experiment and bench: 130 or 143 when interrupted\n' +
        '(SIGINT, SIGTERM), after saving what was done (run the command again to resume; bench\n' +
        'starts over); solve: 130 or 143 after its report so far (unknown, limit interrupted).\n',
    );
  for (const register of COMMANDS) register(program);
  program.hook('preAction', async (_, action) => {
    let top = action;
    while (top.parent && top.parent !== program) top = top.parent;
    if (STOPPABLE.has(top.name())) watchStopSignals();
    await preloadInputs(action.opts());
  });
  addHelpCommand(program, 'limited');
  for (const cmd of program.commands) if (cmd.commands.length > 0) addHelpCommand(cmd, `limited ${cmd.name()}`);
  for (const cmd of program.commands) cmd.configureOutput({ outputError: usageLine(`limited ${cmd.name()} --help`) });
  return program;
}

// Output piped into `head` and the like: stop quietly when the reader goes away.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

try {
  await buildProgram().parseAsync(process.argv);
} catch (e) {
  reportError(e);
}
