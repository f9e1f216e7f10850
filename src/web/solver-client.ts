/** The page's solver: a Web Worker made from the page's own script (main.ts), one solve at a time. */
import { type Deal, type PackedMove, type Rules } from '../game/index.js';
import { type SolveRequest } from '../solver/index.js';
import { type WorkerAnswer, type WorkerQuestion } from './data.js';

/**
 * Talks to the solver worker: one solve at a time; a newer question ends the one running. The
 * worker is made at once (the page makes the client as it loads), so that its script is read
 * while the player looks at the table; it searches in slices and reads each new question between
 * two, so it is never restarted and keeps its Solver's tables from solve to solve.
 */
export class SolverClient {
  private worker: Worker | null = null;
  private pending: { id: number; done: (a: WorkerAnswer) => void } | null = null;
  private seq = 0;
  private readonly url: string;

  constructor(source: string) {
    this.url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    this.start();
  }

  private start(): Worker {
    const w = new Worker(this.url);
    w.onmessage = (e: MessageEvent) => {
      const a = e.data as WorkerAnswer;
      const p = this.pending;
      if (p && a.id === p.id) {
        if (a.final) this.pending = null;
        p.done(a);
      }
    };
    w.onerror = (e: ErrorEvent) => {
      const p = this.pending;
      this.pending = null;
      this.worker = null;
      p?.done({ id: p.id, final: true, verdict: 'unknown', proof: null, limit: null, moves: null, nodes: 0, seconds: 0, error: e.message || 'the solver stopped' });
    };
    this.worker = w;
    return w;
  }

  /** Asks for a solve; `done` is called once, or twice with `patience` (an unknown that is not final, then the verdict). */
  solve(deal: Deal, rules: Rules, from: readonly PackedMove[], solver: SolveRequest, done: (a: WorkerAnswer) => void, patience?: number): void {
    const id = ++this.seq;
    this.pending = { id, done };
    const question: WorkerQuestion = { id, deal, rules, from, solver, ...(patience !== undefined ? { patience } : {}) };
    (this.worker ?? this.start()).postMessage(question);
  }

  /** Drops the question asked (its answers are ignored), so that the worker stops searching. */
  cancel(): void {
    if (!this.pending) return;
    this.pending = null;
    this.worker?.postMessage({ id: ++this.seq, cancel: true });
  }
}
