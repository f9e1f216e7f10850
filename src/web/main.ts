/**
 * The page's script, bundled with the engine and the solver (npm run build: dist/web/app.js).
 * The same script runs twice: in the page, where it draws the table and lets a person step
 * through a solution or play; and as the page's Web Worker (made from the script's own text
 * through a Blob URL, so that the page stays one file), where it runs the solver.
 */
import { App } from './app.js';
import { type WorkerAnswer, type WorkerQuestion } from './data.js';
import { Solver, solveOutcome, solveRequest } from '../solver/index.js';

interface WorkerScope {
  onmessage: ((e: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
}

/** The worker: one solve a message, on a Solver kept from solve to solve. */
function workerMain(scope: WorkerScope): void {
  const solver = new Solver();
  scope.onmessage = (e: MessageEvent) => {
    const r = e.data as WorkerQuestion;
    let a: WorkerAnswer;
    try {
      const { verdict, proof, limit, moves, nodes, seconds } = solveOutcome(solveRequest(solver, r.deal, r.rules, r.solver, r.from));
      a = { id: r.id, verdict, proof, limit, moves, nodes, seconds };
    } catch (err) {
      a = { id: r.id, verdict: 'unknown', proof: null, limit: null, moves: null, nodes: 0, seconds: 0, error: err instanceof Error ? err.message : String(err) };
    }
    scope.postMessage(a);
  };
}

if (typeof document === 'undefined') workerMain(self as unknown as WorkerScope);
else App.start();
