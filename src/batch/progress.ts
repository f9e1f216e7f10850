/**
 * Progress of a batch on stderr: on a terminal, one line redrawn in place (a bar, deals done
 * of the total, deals per second, ETA, the running win rate); otherwise a plain line every
 * few seconds, for logs (a Slurm job's output file, `kubectl logs`).
 */
import { formatDuration } from '../util/duration.js';

export interface ProgressState {
  /** Deals in the file (resumed ones included) and the total of the part. */
  readonly done: number;
  readonly total: number;
  /** Deals done by this session (the rate counts these only). */
  readonly doneHere: number;
  readonly won: number;
  readonly unknown: number;
}

const pct = (a: number, b: number): string => (b > 0 ? `${((100 * a) / b).toFixed(1)}%` : '--');

export class Progress {
  private readonly t0 = performance.now();
  private last = 0;
  private drawn = false;
  private readonly tty: boolean;

  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly enabled = true,
    /** Milliseconds between plain lines when stderr is not a terminal. */
    private readonly lineEvery = 5000,
    /** What the line is headed with: `batch`, or an experiment's row. */
    private readonly label = 'batch',
  ) {
    this.tty = stream.isTTY === true;
    // Plain lines start after the first interval; the bar is drawn at once.
    if (!this.tty) this.last = this.t0;
  }

  private text(p: ProgressState, width: number): string {
    const secs = (performance.now() - this.t0) / 1000;
    const rate = secs > 0 ? p.doneHere / secs : 0;
    const eta = rate > 0 ? (p.total - p.done) / rate : NaN;
    const stats =
      `${p.done}/${p.total} deals · ${rate.toFixed(1)} deals/s · ETA ${formatDuration(eta)} · ` +
      `won ${pct(p.won, p.done)}${p.unknown > 0 ? ` (unknown ${pct(p.unknown, p.done)})` : ''}`;
    if (!this.tty) return `${this.label}: ${stats}`;
    // On a terminal the bar alone says it is a batch; another label goes in front of it.
    const head = this.label === 'batch' ? '' : `${this.label} `;
    const barWidth = Math.max(0, Math.min(30, width - head.length - stats.length - 3));
    if (barWidth < 5) return (head + stats).slice(0, Math.max(0, width - 1));
    const filled = p.total > 0 ? Math.round((barWidth * p.done) / p.total) : barWidth;
    return `${head}[${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}] ${stats}`;
  }

  update(p: ProgressState, force = false): void {
    if (!this.enabled) return;
    const now = performance.now();
    if (this.tty) {
      if (!force && now - this.last < 100) return;
      this.last = now;
      this.stream.write(`\r${this.text(p, this.stream.columns || 100)}\x1b[K`);
      this.drawn = true;
    } else {
      if (!force && now - this.last < this.lineEvery) return;
      this.last = now;
      this.stream.write(this.text(p, 0) + '\n');
    }
  }

  /** Ends the bar's line (on a terminal) so that what follows starts on a new line. */
  finish(p?: ProgressState): void {
    if (!this.enabled) return;
    if (p && this.tty) this.update(p, true);
    if (this.tty && this.drawn) this.stream.write('\n');
    this.drawn = false;
  }

  /** Says something on its own line, without breaking the bar. */
  note(text: string): void {
    if (this.tty && this.drawn) {
      this.stream.write(`\r\x1b[K${text}\n`);
      this.last = 0;
    } else this.stream.write(text + '\n');
  }
}
