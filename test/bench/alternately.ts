/**
 * Measures each side `alternations` times, with (`on`) and without, the order flipped each time:
 * the machine's speed drifts by tens of percent within minutes, and alternating lets the drift
 * fall on both sides. Returns each side's measurements in order, the nth of each a pair.
 */
export async function alternately<T>(alternations: number, measure: (on: boolean, alternation: number) => Promise<T>): Promise<{ on: T[]; off: T[] }> {
  const on: T[] = [];
  const off: T[] = [];
  for (let alternation = 0; alternation < alternations; alternation++) {
    for (const side of alternation % 2 === 0 ? [true, false] : [false, true]) (side ? on : off).push(await measure(side, alternation));
  }
  return { on, off };
}
