/** A line of a bench's progress, on stdout. */
export const say = (line: string): void => void process.stdout.write(`${line}\n`);

/** The whole number after `flag` in a bench mode's arguments (`--analytics-rows N`), or `fallback` without it; at least `min`. */
export function wholeNumberArg(args: readonly string[], flag: string, fallback: number, min: number): number {
  const at = args.indexOf(flag);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value < min) throw new Error(`${flag} must be a whole number of at least ${min}, got "${args[at + 1]}"`);
  return value;
}
