/**
 * One memory budget that the tables of a solve draw from as they grow: the stages of a preset
 * share it, so the search that needs the memory (a proof) gets it, rather than a fixed share.
 * A table takes the bytes of an array before it allocates it and gives them back when it lets
 * the array go, so what the budget has handed out at any moment, a growth included, is what the
 * tables hold: the resident memory of a solve is the budget plus the process's own (a margin the
 * README states).
 */
export class MemoryBudget {
  /** Bytes handed out now. */
  used = 0;

  /** The cap can change between solves (a Solver keeps one budget for all its solves). */
  constructor(public cap: number) {}

  /** Takes `bytes` when the budget has them (true), else takes nothing (false). */
  take(bytes: number): boolean {
    if (this.used + bytes > this.cap) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }

  get free(): number {
    return this.cap - this.used;
  }
}

/** Bytes in a megabyte, as --max-memory counts them. */
export const MB = 1024 * 1024;
