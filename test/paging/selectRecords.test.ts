import { describe, expect, it } from 'vitest';
import { recordSelectorSchema } from '../../src/config/schema.js';
import { RecordShapeError } from '../../src/paging/RecordShapeError.js';
import { parseJson } from '../../src/config/records/exactJson.js';
import { selectRecords } from '../../src/paging/selectRecords.js';

const selector = (path: string, key: string | string[] = 'id') => recordSelectorSchema.parse({ path, key, kind: 'artist' });

describe('selectRecords', () => {
  it('reads an array of records at a nested path with their keys', () => {
    const data = { results: { artistmatches: { artist: [{ id: 'a1' }, { id: 7 }] } } };
    expect(selectRecords(data, selector('results.artistmatches.artist'), undefined, 'music')).toEqual({ items: [{ id: 'a1' }, { id: 7 }], keys: ['a1', '7'], filtered: 0, unkeyed: [] });
  });

  it('treats an object at the path as one record', () => {
    expect(selectRecords({ artist: { id: 'a1' } }, selector('artist'), undefined, 'music').keys).toEqual(['a1']);
  });

  it('keys a record by the query when the key is $query', () => {
    expect(selectRecords({ result: [{ ABI: '[]' }] }, selector('result', '$query'), '0xabc', 'explorer').keys).toEqual(['0xabc']);
  });

  it('joins a composite key of the query and a field', () => {
    expect(selectRecords({ similar: [{ id: 'a2' }] }, selector('similar', ['$query', 'id']), 'Abba', 'music').keys).toEqual(['Abba|a2']);
  });

  it('keys two records apart whose composite key parts differ only in where a "|" falls', () => {
    const data = { items: [{ id: 'a|b', v: 'c' }, { id: 'a', v: 'b|c' }] };
    expect(selectRecords(data, selector('items', ['id', 'v']), undefined, 'music').keys).toEqual(['a\\|b|c', 'a|b\\|c']);
  });

  it('rejects a page without the configured path, naming what data has', () => {
    expect(() => selectRecords({ other: [] }, selector('items'), undefined, 'music')).toThrow(/no records at data.items \(data has: other\)/);
  });

  it('takes a page that leaves the records path out and states a total of 0 for an empty page (Last.fm\'s empty recent tracks)', () => {
    const data = { recenttracks: { '@attr': { user: 'rj', page: '1', perPage: '50', totalPages: '0', total: '0' } } };
    expect(selectRecords(data, selector('recenttracks.track'), undefined, 'music', 0)).toEqual({ items: [], keys: [], filtered: 0, unkeyed: [] });
  });

  it('still rejects a page without the records path that states a total above 0', () => {
    expect(() => selectRecords({ total: 3 }, selector('items'), undefined, 'music', 3)).toThrow(/no records at data.items \(data has: total\)/);
  });

  it('sets a record without a key apart, naming its index, and keys the rest', () => {
    const item = { name: 'no id' };
    const selected = selectRecords({ items: [{ id: 'x' }, item] }, selector('items'), undefined, 'music');
    expect(selected).toMatchObject({ keys: ['x'], filtered: 0 });
    expect(selected.unkeyed).toEqual([{ index: 1, reason: 'it has no key at "id"', message: 'record 1 at data.items has no key at "id"', item }]);
  });

  it('sets a record that is not an object apart', () => {
    expect(selectRecords({ items: ['0xabc'] }, selector('items'), undefined, 'explorer').unkeyed).toMatchObject([{ index: 0, message: 'record 0 at data.items is not an object' }]);
  });

  it('refuses a page without its records path as a RecordShapeError, its message led by the source', () => {
    const run = () => selectRecords({ other: [] }, selector('items'), undefined, 'explorer');
    expect(run).toThrow(RecordShapeError);
    expect(run).toThrow(expect.objectContaining({ kind: 'unexpected_shape', retryable: false }) as Error);
    expect(run).toThrow(/^explorer: no records at data.items/);
  });

  it('reads data that is itself the list with path "."', () => {
    expect(selectRecords([{ id: 'a1' }, { id: 'a2' }], selector('.'), undefined, 'explorer').keys).toEqual(['a1', 'a2']);
  });

  it('leaves out records that match a skip condition before reading their keys, and counts them', () => {
    const skipNowPlaying = recordSelectorSchema.parse({ path: 'track', key: 'date.uts', kind: 'play', skip: { path: 'date', exists: false } });
    const data = { track: [{ name: 'now', '@attr': { nowplaying: 'true' } }, { name: 'then', date: { uts: '100' } }] };
    expect(selectRecords(data, skipNowPlaying, undefined, 'music')).toEqual({ items: [data.track[1]], keys: ['100'], filtered: 1, unkeyed: [] });
  });

  it('leaves out a record when any one of a list of skip conditions matches it', () => {
    const skip = recordSelectorSchema.parse({ path: 'items', kind: 'item', skip: [{ path: 'kind', equals: 'ad' }, { path: 'deleted', equals: true }] });
    const data = { items: [{ id: 1, kind: 'ad' }, { id: 2, deleted: true }, { id: 3, kind: 'post', deleted: false }] };
    expect(selectRecords(data, skip, undefined, 'api')).toMatchObject({ keys: ['3'], filtered: 2 });
  });

  it('keys a record by a number beyond 2^53 exactly', () => {
    expect(selectRecords(parseJson('{"items":[{"id":9007199254740993}]}'), selector('items'), undefined, 'explorer').keys).toEqual(['9007199254740993']);
  });

  it('matches a skip condition\'s number to a number kept exactly (1.50 equals 1.5)', () => {
    const skip = recordSelectorSchema.parse({ path: 'items', kind: 'item', skip: { path: 'fee', equals: 1.5 } });
    expect(selectRecords(parseJson('{"items":[{"id":1,"fee":1.50},{"id":2,"fee":2.50}]}'), skip, undefined, 'api')).toMatchObject({ keys: ['2'], filtered: 1 });
  });

  it('does not match a skip condition\'s text to a number kept exactly', () => {
    const skip = recordSelectorSchema.parse({ path: 'items', kind: 'item', skip: { path: 'fee', equals: '1.50' } });
    expect(selectRecords(parseJson('{"items":[{"id":1,"fee":1.50}]}'), skip, undefined, 'api')).toMatchObject({ keys: ['1'], filtered: 0 });
  });

  it('stores a lone value at the path as one record keyed by $query, as sent (eth_blockNumber\'s hex quantity)', () => {
    expect(selectRecords('0x1b4', selector('.', '$query'), '8453', 'explorer')).toEqual({ items: ['0x1b4'], keys: ['8453'], filtered: 0, unkeyed: [] });
  });

  it('sets a lone value apart when its key needs a field of it, saying what key would store it', () => {
    expect(selectRecords({ result: '0x1b4' }, selector('result'), '8453', 'explorer').unkeyed).toMatchObject([{ message: 'record 0 at data.result is not an object (a lone value there is a record under key: $query)' }]);
  });

  it('reads a null at the path as an empty page (a JSON-RPC result for a hash no tx has)', () => {
    expect(selectRecords(null, selector('.', '$query'), '0xabc', 'explorer')).toEqual({ items: [], keys: [], filtered: 0, unkeyed: [] });
  });

  it('sets a number kept exactly where a record should be apart as not an object', () => {
    expect(selectRecords(parseJson('{"items":[9007199254740993]}'), selector('items'), undefined, 'explorer').unkeyed).toMatchObject([{ message: 'record 0 at data.items is not an object' }]);
  });
});
