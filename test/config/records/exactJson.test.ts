import { isLosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { mayHoldInexactNumber, numberOf, parseJson, scalarText, stringifyJson } from '../../../src/config/records/exactJson.js';

describe('mayHoldInexactNumber', () => {
  it.each([
    ['an integer beyond 2^53', '{"gas":9007199254740993}'],
    ['16 digits in a list, after whitespace', '{"a":[1, 2,\n 1234567890123456]}'],
    ['a long decimal', '{"price":0.1000000000000000000000001}'],
    ['an exponent', '{"a":1e5}'],
    ['a fraction with an exponent', '{"a":[2.5E-3]}'],
    ['a fraction ending in 0', '{"fee":1.50}'],
    ['-0', '{"a":-0}'],
    ['a bare number body', '9007199254740993'],
  ])('flags %s', (_name, raw) => {
    expect(mayHoldInexactNumber(raw)).toBe(true);
  });

  it.each([
    ['digits inside a string (Etherscan writes wei as text)', '{"status":"1","result":[{"value":"1000000000000000000","gas":"21000"}]}'],
    ['15 digits', '{"a":123456789012345}'],
    ['-0.5 and short decimals', '{"a":-0.5,"b":12.25,"c":10}'],
  ])('does not flag %s', (_name, raw) => {
    expect(mayHoldInexactNumber(raw)).toBe(false);
  });

  it('does not flag a Last.fm-like page of recent tracks', () => {
    const track = (i: number) =>
      `{"artist":{"mbid":"","#text":"Artist ${i}"},"streamable":"0","image":[{"size":"small","#text":"https://lastfm.freetls.fastly.net/i/u/34s/${i}.png"}],"name":"Track ${i}","date":{"uts":"17000${i}0000","#text":"01 Jan 2024, 12:${i}"}}`;
    const page = `{"recenttracks":{"track":[${Array.from({ length: 50 }, (_, i) => track(i)).join(',')}],"@attr":{"user":"rj","totalPages":"7","page":"1","perPage":"50","total":"345"}}}`;
    expect(mayHoldInexactNumber(page)).toBe(false);
  });
});

describe('parseJson', () => {
  it('keeps only the numbers a JS number would change as exact text, the others as numbers', () => {
    const parsed = parseJson('{"gas":9007199254740993,"price":0.1000000000000000000000001,"fee":1.50,"n":2,"x":0.5}') as Record<string, unknown>;
    expect(Object.values(parsed).map((value) => (isLosslessNumber(value) ? `exact ${value.value}` : value))).toEqual(['exact 9007199254740993', 'exact 0.1000000000000000000000001', 'exact 1.50', 2, 0.5]);
  });

  it('parses a body without such a number as JSON.parse does', () => {
    const raw = '{"a":[1,"x",null,true],"b":{"c":0.25}}';
    expect(parseJson(raw)).toEqual(JSON.parse(raw));
  });

  it('keeps the last of repeated keys in a parsed-exactly body, as JSON.parse does', () => {
    expect(parseJson('{"a":1,"a":2,"b":1.50}')).toMatchObject({ a: 2 });
  });

  it('rejects what is not JSON in either parse', () => {
    expect(() => parseJson('{"a":')).toThrow(SyntaxError);
    expect(() => parseJson('{"a":1.50')).toThrow(SyntaxError);
  });
});

describe('stringifyJson', () => {
  it('writes back a parsed-exactly value digit for digit', () => {
    const raw = '{"id":9007199254740993,"price":0.1000000000000000000000001,"fee":1.50,"neg":-0,"big":1e400,"list":[{"v":12345678901234567890}],"n":2}';
    expect(stringifyJson(parseJson(raw))).toBe(raw);
  });

  it('writes a part of a parsed-exactly value that holds such a number, or none', () => {
    const parsed = parseJson('{"items":[{"gas":9007199254740993},{"gas":21000}]}') as { items: unknown[] };
    expect(parsed.items.map(stringifyJson)).toEqual(['{"gas":9007199254740993}', '{"gas":21000}']);
  });

  it('writes any other value as JSON.stringify does', () => {
    const value = { a: 'x\n', b: [1, null], c: '\ud83d\ude00' };
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
  });
});

describe('reading a scalar', () => {
  const parsed = parseJson('{"big":9007199254740993,"fee":1.50,"n":7,"s":"7","o":{}}') as Record<string, unknown>;

  it('as text: a string itself, a number as JS writes it, an exact number as the upstream wrote it', () => {
    expect([parsed.big, parsed.fee, parsed.n, parsed.s, parsed.o, undefined].map(scalarText)).toEqual(['9007199254740993', '1.50', '7', '7', undefined, undefined]);
  });

  it('as a number: an exact number as its nearest JS number, text not at all', () => {
    expect([parsed.fee, parsed.n, parsed.s].map(numberOf)).toEqual([1.5, 7, undefined]);
  });
});
