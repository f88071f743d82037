import { describe, expect, it } from 'vitest';
import { depthBeyond } from '../../../src/config/records/jsonDepth.js';

const nested = (depth: number, inner = '1') => `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;

describe('depthBeyond', () => {
  it('gives the depth of objects and arrays nested past the limit', () => {
    expect(depthBeyond(nested(3, '[[1]]'), 4)).toBe(5);
  });

  it('gives nothing for text nested no deeper than the limit', () => {
    expect(depthBeyond(`[${nested(4)},${nested(4)},${nested(4)}]`, 5)).toBeUndefined();
  });

  it('does not read text of at most twice the limit, which cannot nest deeper', () => {
    expect(depthBeyond('[[[[[[', 3)).toBeUndefined();
  });

  it('counts no bracket inside a string, escaped quotes and backslashes included', () => {
    expect(depthBeyond(`{"a":"\\"[[[[\\\\","b":"{{{{\\\\\\"[[[["}`, 1)).toBeUndefined();
  });

  it('measures text nested 200,000 deep without overflowing the stack', () => {
    expect(depthBeyond(nested(200_000), 1_000)).toBe(200_000);
  });
});
