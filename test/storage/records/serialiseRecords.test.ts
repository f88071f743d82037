import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../src/config/records/exactJson.js';
import { MAX_RECORD_DEPTH } from '../../../src/config/records/jsonDepth.js';
import { serialiseRecords } from '../../../src/storage/records/serialiseRecords.js';

/** The records' payloads as text. */
const linesOf = (records: ReturnType<typeof serialiseRecords>): string | undefined => records.payloads?.toString('utf8');

describe('serialiseRecords', () => {
  it('writes each record as a line of JSON, with its key and hash', () => {
    const records = serialiseRecords(['a', 'b'], [{ id: 'a' }, { id: 'b' }]);
    expect(records).toMatchObject({ keys: ['a', 'b'], invalid: [], collapsed: 0, nulsRemoved: 0 });
    expect(linesOf(records)).toBe('{"id":"a"}\n{"id":"b"}');
    expect(records.hashes).toHaveLength(2);
  });

  it('keeps the last of repeated keys and counts the others as collapsed', () => {
    const records = serialiseRecords(['a', 'b', 'a'], [{ v: 1 }, { v: 2 }, { v: 3 }]);
    expect(records).toMatchObject({ keys: ['b', 'a'], collapsed: 1 });
    expect(linesOf(records)).toBe('{"v":2}\n{"v":3}');
  });

  it('removes NUL characters from payloads and counts them', () => {
    const records = serialiseRecords(['a'], [{ v: 'x\u0000y\u0000' }]);
    expect(records).toMatchObject({ nulsRemoved: 2 });
    expect(linesOf(records)).toBe('{"v":"xy"}');
  });

  it('leaves alone text that only spells a NUL escape (an escaped backslash before it)', () => {
    const records = serialiseRecords(['a'], [{ v: '\\u0000' }]);
    expect(records).toMatchObject({ nulsRemoved: 0 });
    expect(linesOf(records)).toBe('{"v":"\\\\u0000"}');
  });

  it('leaves out a record with a lone surrogate, saying why, but not one with a surrogate pair', () => {
    const records = serialiseRecords(['lone', 'pair', 'spelled'], [{ v: '\ud800' }, { v: '\ud83d\ude00' }, { v: '\\ud800' }]);
    expect(records.keys).toEqual(['pair', 'spelled']);
    expect(records.invalid).toEqual([{ index: 0, key: 'lone', reason: 'it holds a lone UTF-16 surrogate (\\ud800), which Postgres jsonb cannot', raw: '{"v":"\\ud800"}' }]);
  });

  it('leaves out a record whose key holds a NUL or a lone surrogate', () => {
    const records = serialiseRecords(['a\u0000', '\udc00'], [{}, {}]);
    expect(records.keys).toEqual([]);
    expect(records.invalid.map((record) => record.reason)).toEqual(['its key holds a NUL character, which Postgres text cannot', 'its key holds a lone UTF-16 surrogate, which Postgres text cannot']);
  });

  it('has no payloads for a page without records', () => {
    expect(serialiseRecords([], []).payloads).toBeNull();
  });

  it('leaves out a record that cannot be written as JSON', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const records = serialiseRecords(['c'], [cyclic]);
    expect(records.invalid).toMatchObject([{ index: 0, key: 'c', raw: null, reason: expect.stringMatching(/^it cannot be written as JSON \(Converting circular structure/) as string }]);
  });

  it('leaves out a record nested past MAX_RECORD_DEPTH, saying how deep, and keeps the rest', () => {
    let deep: unknown = 1;
    for (let level = 0; level < MAX_RECORD_DEPTH; level++) deep = [deep];
    const records = serialiseRecords(['deep', 'flat'], [{ v: deep }, { v: 1 }]);
    expect(records.keys).toEqual(['flat']);
    expect(records.invalid).toMatchObject([{ index: 0, key: 'deep', reason: `it is nested ${MAX_RECORD_DEPTH + 1} levels deep, past the ${MAX_RECORD_DEPTH} a record may nest (Postgres jsonb refuses deep nesting)` }]);
  });

  it('writes a record parsed exactly with its numbers as the upstream wrote them, and hashes that text', () => {
    const text = '{"id":9007199254740993,"price":0.1000000000000000000000001,"fee":1.50,"n":2}';
    const records = serialiseRecords(['9007199254740993'], [parseJson(text)]);
    expect(linesOf(records)).toBe(text);
    expect(records.hashes).toEqual([hash('sha1', text, 'base64')]);
  });

  it('removes NULs from and checks for lone surrogates a record parsed exactly as any other', () => {
    const records = serialiseRecords(['nul', 'lone'], (parseJson('[{"fee":1.50,"v":"a\\u0000b"},{"fee":1.50,"v":"\\ud800"}]') as unknown[]));
    expect(records).toMatchObject({ keys: ['nul'], nulsRemoved: 1 });
    expect(linesOf(records)).toBe('{"fee":1.50,"v":"ab"}');
    expect(records.invalid).toMatchObject([{ key: 'lone', raw: '{"fee":1.50,"v":"\\ud800"}' }]);
  });
});
