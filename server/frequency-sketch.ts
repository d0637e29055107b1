/**
 * How often each page key was asked for lately, approximately, in fixed memory: the TinyLFU frequency sketch
 * (Einziger, Friedman and Manes, "TinyLFU: A Highly Efficient Cache Admission Policy", 2017) that the page
 * cache (server/page-cache.ts) consults before a new page may push kept ones out (ADR 62).
 *
 * A count-min sketch: `DEPTH` rows of small counters, a key counted in one counter per row, its estimate the
 * smallest of them (collisions only ever add, so it never under-counts). Counters stop at 15 (what TinyLFU
 * needs: "asked for often" and "once" apart). Once ten requests per expected key were recorded, every counter
 * is halved, so a page popular yesterday gives way to today's and the sketch never fills up. Rows are four
 * times as wide as the keys expected, so between two halvings a counter holds 2.5 other keys' requests on
 * average (as Caffeine's sketch, from which these proportions come).
 */
export class FrequencySketch {
  private readonly rows: Uint8Array;
  private readonly mask: number;
  private readonly sampleSize: number;
  private additions = 0;
  private h1 = 0;
  private h2 = 0;

  /** `expectedKeys`: about how many different keys matter at once (the kept pages); a power of two is used. */
  constructor(expectedKeys: number) {
    let width = 64;
    while (width < expectedKeys * 4) width *= 2;
    this.mask = width - 1;
    this.rows = new Uint8Array(width * DEPTH);
    this.sampleSize = Math.max(1, Math.round(expectedKeys)) * 10;
  }

  /** Counts one request for `key`. */
  record(key: string): void {
    this.hash(key);
    let added = false;
    for (let row = 0; row < DEPTH; row++) {
      const index = this.index(row);
      const count = this.rows[index] ?? MAX_COUNT;
      if (count < MAX_COUNT) {
        this.rows[index] = count + 1;
        added = true;
      }
    }
    if (added && ++this.additions >= this.sampleSize) this.halve();
  }

  /** About how many times `key` was recorded lately (0 to 15); never less than the truth since the last halving. */
  frequency(key: string): number {
    this.hash(key);
    let least = MAX_COUNT;
    for (let row = 0; row < DEPTH; row++) least = Math.min(least, this.rows[this.index(row)] ?? 0);
    return least;
  }

  /** The rows' indices are h1 + row × h2 (Kirsch and Mitzenmacher): two hashes make the four. */
  private index(row: number): number {
    return row * (this.mask + 1) + ((this.h1 + Math.imul(row, this.h2)) & this.mask);
  }

  /**
   * Two 32-bit hashes of a string, kept in fields (no array per request on the page cache's path): FNV-1a,
   * then a multiply-xorshift finaliser of it for the second, odd so each row's step reaches every counter.
   */
  private hash(key: string): void {
    let h = 0x811c9dc5;
    for (let index = 0; index < key.length; index++) {
      h ^= key.charCodeAt(index);
      h = Math.imul(h, 0x01000193);
    }
    let g = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    g = Math.imul(g ^ (g >>> 13), 0xc2b2ae35);
    this.h1 = h >>> 0;
    this.h2 = (g ^ (g >>> 16)) | 1;
  }

  /** Ages every count: halved, so recent requests weigh as much as all older ones together. */
  private halve(): void {
    for (let index = 0; index < this.rows.length; index++) this.rows[index] = (this.rows[index] ?? 0) >> 1;
    this.additions = Math.floor(this.additions / 2);
  }
}

const DEPTH = 4;
const MAX_COUNT = 15;
