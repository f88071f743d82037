import { describe, expect, it } from 'vitest';
import { numberBeyondNumeric } from '../../../src/storage/records/numericRange.js';

describe('numberBeyondNumeric', () => {
  it.each(['1e131071', '9e131071', '0.001e131074', '1e-16383', '1.5e-16382', '0e200000', '-12.50', '9007199254740993'])('passes %s, which Postgres numeric holds', (number) => {
    expect(numberBeyondNumeric(`{"v":[${number}]}`)).toBeUndefined();
  });

  it.each(['1e131072', '100e131070', '0.001e131075', '1e-16384', '1.5e-16383', '0e-20000', '-1E+200000'])('finds %s, which Postgres numeric refuses', (number) => {
    expect(numberBeyondNumeric(`{"v":[1,${number}]}`)).toBe(number);
  });

  it('finds a number written out with more fraction digits than numeric keeps', () => {
    const number = `0.${'1'.repeat(16_384)}`;
    expect(numberBeyondNumeric(`[${number}]`)).toBe(number);
  });

  it('does not read a number inside a string', () => {
    expect(numberBeyondNumeric('{"v":"1e200000 \\" 1e200000"}')).toBeUndefined();
  });
});
