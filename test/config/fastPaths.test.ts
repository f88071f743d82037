import { describe, expect, it } from 'vitest';
import { fastPathsOff } from '../../src/config/fastPaths.js';

describe('FEEDSYNC_FAST_PATHS_OFF', () => {
  it('turns off the fast paths it names, spaces and empty names aside', () => {
    expect(fastPathsOff(' statementByLastPage, provenPages,,')).toEqual(new Set(['statementByLastPage', 'provenPages']));
  });

  it('turns off none when unset', () => {
    expect(fastPathsOff(undefined)).toEqual(new Set());
  });

  it('refuses an unknown name, naming the variable and the names it takes', () => {
    expect(() => fastPathsOff('provenPages,turbo')).toThrow(/^FEEDSYNC_FAST_PATHS_OFF: unknown fast path "turbo" \(known: provenPages, statementByLastPage\)$/);
  });
});
