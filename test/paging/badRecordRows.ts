/*
 * Pages whose records cannot be keyed or read, one a row: the page's data (JSON text, parsed as
 * a page is), where the records are and their key, and what the refusal says.
 * selectRecords.badRecords.test.ts runs them.
 */

export interface BadRecordRow {
  what: string;
  data: string;
  path: string;
  key?: string | string[];
  message: RegExp;
}

const itemsOf = (...records: unknown[]) => JSON.stringify({ items: records });

export const badRecordRows: BadRecordRow[] = [
  { what: 'an id that is an object', data: itemsOf({ id: { value: 1 } }), path: 'items', message: /record 0 at data\.items has a key at "id" that is an object, not a string or number/ },
  { what: 'an id that is true', data: itemsOf({ id: 'a' }, { id: true }), path: 'items', message: /record 1 at data\.items has a key at "id" that is boolean true, not a string or number/ },
  { what: 'an id that is false', data: itemsOf({ id: false }), path: 'items', message: /that is boolean false/ },
  { what: 'an id that is a list', data: itemsOf({ id: ['a'] }), path: 'items', message: /record 0 at data\.items has a key at "id" that is a list, not a string or number/ },
  { what: 'an id that is an empty list', data: itemsOf({ id: [] }), path: 'items', message: /that is a list/ },
  { what: 'an id that is null', data: itemsOf({ id: null }), path: 'items', message: /has a key at "id" that is null/ },
  { what: 'no id at all', data: itemsOf({ name: 'x' }), path: 'items', message: /record 0 at data\.items has no key at "id"/ },
  { what: 'a nested key that is an object', data: itemsOf({ ref: { id: { x: 1 } } }), path: 'items', key: 'ref.id', message: /has a key at "ref\.id" that is an object/ },
  { what: 'a nested key under a scalar', data: itemsOf({ ref: 'flat' }), path: 'items', key: 'ref.id', message: /has no key at "ref\.id"/ },
  { what: 'a composite key whose second part is true', data: itemsOf({ id: 'a', v: true }), path: 'items', key: ['id', 'v'], message: /has a key at "v" that is boolean true/ },
  { what: 'a composite key whose first part is missing', data: itemsOf({ v: 'b' }), path: 'items', key: ['id', 'v'], message: /has no key at "id"/ },
  { what: 'a key named constructor the record lacks', data: itemsOf({ id: 'a' }), path: 'items', key: 'constructor', message: /has no key at "constructor"/ },
  { what: 'a key named toString the record lacks', data: itemsOf({ id: 'a' }), path: 'items', key: 'toString', message: /has no key at "toString"/ },
  { what: 'records at constructor, which the data lacks', data: itemsOf({ id: 'a' }), path: 'constructor', message: /no records at data\.constructor/ },
  { what: 'a record that is a string', data: itemsOf('a'), path: 'items', message: /record 0 at data\.items is not an object/ },
  { what: 'a record that is a number', data: itemsOf({ id: 'a' }, 7), path: 'items', message: /record 1 at data\.items is not an object/ },
  { what: 'a record that is a list', data: itemsOf([{ id: 'a' }]), path: 'items', message: /record 0 at data\.items is not an object/ },
  { what: 'a record that is null', data: itemsOf(null), path: 'items', message: /record 0 at data\.items is not an object/ },
  { what: 'no records where they are looked for', data: JSON.stringify({ other: [] }), path: 'items', message: /no records at data\.items \(data has: other\)/ },
  { what: 'data that is a string', data: JSON.stringify('text'), path: 'items', message: /no records at data\.items \(data is "text"\)/ },
];
