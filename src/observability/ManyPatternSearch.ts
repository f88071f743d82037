/** Two characters hashed to one slot of the shift table. */
const BLOCK = 2;
const SLOTS = 1 << 16;

const slotOf = (first: number, second: number): number => ((first << 8) ^ second) & (SLOTS - 1);

/**
 * Whether any of many patterns occurs in a text, in one pass that skips most of it (Wu–Manber):
 * a page is searched for every form of every secret as fast as a few `includes` would search it
 * for a few. Each pass looks at the two characters ending a window as long as the shortest
 * pattern; unless they end some pattern's start, the window slides as far as they allow.
 */
export class ManyPatternSearch {
  /** How long every pattern's start that the shift table knows is: the shortest pattern's length. */
  private readonly window: number;
  /** How far the window may slide when the two characters ending it hash to a slot. */
  private readonly shifts: Uint8Array;
  /** The patterns whose start ends with the characters of a slot whose shift is 0. */
  private readonly ending = new Map<number, string[]>();

  /** `patterns`: each at least BLOCK characters long. */
  constructor(private readonly patterns: readonly string[]) {
    this.window = Math.min(...patterns.map((pattern) => pattern.length), 255);
    this.shifts = new Uint8Array(SLOTS).fill(this.window - BLOCK + 1);
    for (const pattern of patterns) {
      for (let end = BLOCK - 1; end < this.window; end++) {
        const slot = slotOf(pattern.charCodeAt(end - 1), pattern.charCodeAt(end));
        const shift = this.window - 1 - end;
        if (shift < this.shifts[slot]!) this.shifts[slot] = shift;
        if (shift === 0) this.ending.set(slot, [...(this.ending.get(slot) ?? []), pattern]);
      }
    }
  }

  /** Whether some pattern occurs in `text`. */
  foundIn(text: string): boolean {
    if (this.patterns.length === 0) return false;
    const { window, shifts } = this;
    for (let end = window - 1; end < text.length; ) {
      const slot = slotOf(text.charCodeAt(end - 1), text.charCodeAt(end));
      const shift = shifts[slot]!;
      if (shift > 0) {
        end += shift;
        continue;
      }
      const start = end - window + 1;
      for (const pattern of this.ending.get(slot)!) if (text.startsWith(pattern, start)) return true;
      end += 1;
    }
    return false;
  }
}
