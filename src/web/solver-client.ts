/** The page's solver: a Web Worker made from the page's own script (main.ts), one solve at a time. */
import { type Deal, type PackedMove, type Rules } from '../game/index.js';
import { type SolveRequest } from '../solver/index.js';
import { type WorkerAnswer, type WorkerQuestion } from './data.js';

/** Talks to the solver worker: one solve at a time, a newer request ends the one running. */
export class SolverClient {
  private worker: Worker | null = null;
  private pending: { id: number; done: (a: WorkerAnswer) => void } | null = null;
  private seq = 0;
  private readonly url: string;

  constructor(source: string) {
    this.url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  }

  solve(deal: Deal, rules: Rules, from: readonly PackedMove[], solver: SolveRequest, done: (a: WorkerAnswer) => void): void {
    if (this.pending) {
      // A search cannot be interrupted from outside; a new worker is quicker than waiting.
      this.worker?.terminate();
      this.worker = null;
      this.pending = null;
    }
    if (!this.worker) {
      const w = new Worker(this.url);
      w.onmessage = (e: MessageEvent) => {
        const a = e.data as WorkerAnswer;
        if (this.pending && a.id === this.pending.id) {
          const p = this.pending;
          this.pending = null;
          p.done(a);
        }
      };
      w.onerror = (e: ErrorEvent) => {
        const p = this.pending;
        this.pending = null;
        this.worker = null;
        p?.done({ id: p.id, verdict: 'unknown', proof: null, limit: null, moves: null, nodes: 0, seconds: 0, error: e.message || 'the solver stopped' });
      };
      this.worker = w;
    }
    const id = ++this.seq;
    this.pending = { id, done };
    const question: WorkerQuestion = { id, deal, rules, from, solver };
    this.worker.postMessage(question);
  }
}
