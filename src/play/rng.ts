/**
 * A small seeded generator for players (sfc32 seeded through splitmix32): fast, no allocation,
 * the same sequence on every platform. Not the deal generator (deals use scheme v1).
 */
export class Rng {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 1;

  constructor(seed = 0) {
    this.seed(seed);
  }

  /** Restarts the sequence from a seed (any number; its low 53 bits count). */
  seed(seed: number): void {
    let s = (seed >>> 0) ^ Math.imul(Math.floor(seed / 4294967296) >>> 0, 0x9e3779b1);
    const next = () => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A uniform integer in [0, n), n >= 1 (n < 2^32; the bias is below 2^-20 for n < 4096). */
  below(n: number): number {
    return Math.floor((this.next() / 4294967296) * n);
  }

  /** Shuffles a[from..to) in place (Fisher–Yates). */
  shuffle(a: Uint8Array | Int32Array | number[], from: number, to: number): void {
    for (let i = to - 1; i > from; i--) {
      const j = from + this.below(i - from + 1);
      const t = a[i]!;
      a[i] = a[j]!;
      a[j] = t;
    }
  }
}
