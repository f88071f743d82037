import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { pageDerivation, recordsDerivation } from '../../src/sync/recordsDerivation.js';
import { queryOf } from '../support/syncFixture.js';

/** The derivation of a one-query job whose settings `change` alters from a baseline. */
function derivationWith(change: { records?: object; response?: object; q?: string; mode?: string } = {}) {
  const config = parseConfig(
    {
      sources: { api: { baseUrl: 'http://127.0.0.1:1', path: '/api', auth: { type: 'none' }, response: { preset: 'plain', ...change.response } } },
      jobs: [{ name: 'list', source: 'api', ...(change.mode ? { mode: change.mode } : {}), records: { path: 'items', kind: 'item', ...change.records }, queries: [{ q: change.q ?? 'x' }] }],
    },
    'test config',
    {},
  );
  return recordsDerivation(queryOf(config, 'list'));
}

describe('recordsDerivation', () => {
  it('is the same for the same config', () => {
    expect(derivationWith()).toBe(derivationWith());
  });

  it.each([
    ['the records key', { records: { key: 'uid' } }],
    ['the records path', { records: { path: 'rows' } }],
    ['the kind', { records: { kind: 'other' } }],
    ['the response preset', { response: { preset: 'envelope' } }],
    ['the subject (a $query key part)', { q: 'y' }],
  ])('changes with %s', (_name, change) => {
    expect(derivationWith(change)).not.toBe(derivationWith());
  });

  it('is null for a full_refresh query, whose pages always need their keys', () => {
    expect(derivationWith({ mode: 'full_refresh' })).toBeNull();
  });
});

describe('pageDerivation', () => {
  it('is the query derivation for a page with no keys left out', () => {
    expect(pageDerivation('abc', undefined)).toBe('abc');
    expect(pageDerivation('abc', [])).toBe('abc');
  });

  it('differs by the keys a slid window leaves out, and is the same for the same ones', () => {
    expect(pageDerivation('abc', ['k1'])).not.toBe('abc');
    expect(pageDerivation('abc', ['k1'])).toBe(pageDerivation('abc', ['k1']));
    expect(pageDerivation('abc', ['k1'])).not.toBe(pageDerivation('abc', ['k2']));
  });
});
