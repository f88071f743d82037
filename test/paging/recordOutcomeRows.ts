/*
 * Pages holding a record Postgres could not take as it is, one a row: the records (JSON text each,
 * so a row can write what JSON.stringify would not), the key, records.onInvalid, and what comes of
 * the page: refused (the error's kind and message), or stored (the keys) with what was
 * dead-lettered (index, key and reason). recordOutcomes.test.ts reads each page as a sync does.
 */

export interface RecordOutcomeRow {
  what: string;
  /** The records of the page, as JSON texts; `body` replaces the whole page body instead. */
  records?: string[];
  body?: string;
  key?: string | string[];
  onInvalid: 'fail' | 'skip';
  outcome: RegExp;
}

const nested = (depth: number, open: string, close: string, leaf = '1') => `${open.repeat(depth)}${leaf}${close.repeat(depth)}`;
const deepArray = (depth: number) => `{"id":"deep","v":${nested(depth - 1, '[', ']')}}`;
const deepObject = (depth: number) => `{"id":"deep","v":${nested(depth - 1, '{"a":', '}')}}`;
const LONG_KEY = 'k'.repeat(1_025);

export const recordOutcomeRows: RecordOutcomeRow[] = [
  { what: 'a NUL in a key, under fail', records: ['{"id":"a\\u0000b"}'], onInvalid: 'fail', outcome: /^refused \(RecordShapeError\): .*record 0 \(key "a\\u0000b"\) at data\.items cannot be stored: its key holds a NUL character/ },
  { what: 'a NUL in a key, under skip', records: ['{"id":"ok"}', '{"id":"a\\u0000b"}'], onInvalid: 'skip', outcome: /^stored ok; dead-lettered 1 \(key "a\\u0000b"\): its key holds a NUL character, which Postgres text cannot$/ },
  { what: 'a lone surrogate in a key, under fail', records: ['{"id":"a\\ud800"}'], onInvalid: 'fail', outcome: /record 0 \(key "a\\ud800"\) at data\.items cannot be stored: its key holds a lone UTF-16 surrogate/ },
  { what: 'a lone surrogate in a key, under skip', records: ['{"id":"a\\udc00"}', '{"id":"ok"}'], onInvalid: 'skip', outcome: /^stored ok; dead-lettered 0 \(key "a\\udc00"\): its key holds a lone UTF-16 surrogate/ },
  { what: 'a lone surrogate in a value, under fail', records: ['{"id":"a","name":"x\\ud800y"}'], onInvalid: 'fail', outcome: /record 0 \(key "a"\) at data\.items cannot be stored: it holds a lone UTF-16 surrogate \(\\ud800\)/ },
  { what: 'a lone surrogate in a value, under skip', records: ['{"id":"a","name":"x\\udfffy"}', '{"id":"b"}'], onInvalid: 'skip', outcome: /^stored b; dead-lettered 0 \(key "a"\): it holds a lone UTF-16 surrogate \(\\udfff\)/ },
  { what: 'an array 1,500 deep in a record, under fail', records: ['{"id":"a"}', deepArray(1_500)], onInvalid: 'fail', outcome: /record 1 \(key "deep"\) at data\.items cannot be stored: it is nested 1500 levels deep, past the 1000/ },
  { what: 'an array 1,500 deep in a record, under skip', records: [deepArray(1_500), '{"id":"a"}'], onInvalid: 'skip', outcome: /^stored a; dead-lettered 0 \(key "deep"\): it is nested 1500 levels deep/ },
  { what: 'an array 5,000 deep in a record', records: ['{"id":"a"}', deepArray(5_000)], onInvalid: 'skip', outcome: /^refused \(too_deep\): music: the body of .* is nested 5003 levels deep, past the 2000 a page may nest/ },
  { what: 'an object 200,000 deep in a record', records: ['{"id":"a"}', deepObject(200_000)], onInvalid: 'skip', outcome: /^refused \(too_deep\): music: the body of http:\/\/upstream\.test\/api\?page=7 is nested 200003 levels deep/ },
  { what: 'a page body 20,000 deep', body: nested(20_000, '[', ']'), onInvalid: 'fail', outcome: /^refused \(too_deep\): music: the body of http:\/\/upstream\.test\/api\?page=7 is nested 20000 levels deep/ },
  { what: 'a key of 1,025 bytes', records: [`{"id":"${LONG_KEY}"}`], onInvalid: 'fail', outcome: /^stored sha256:[0-9a-f]{64}$/ },
  { what: 'composite keys {id:"a|b",v:"c"} and {id:"a",v:"b|c"}', records: ['{"id":"a|b","v":"c"}', '{"id":"a","v":"b|c"}'], key: ['id', 'v'], onInvalid: 'fail', outcome: /^stored a\\\|b\|c, a\|b\\\|c$/ },
  { what: 'the number 1e200000, under fail', records: ['{"id":"a"}', '{"id":"big","n":1e200000}'], onInvalid: 'fail', outcome: /record 1 \(key "big"\) at data\.items cannot be stored: it holds the number 1e200000, beyond what Postgres numeric/ },
  { what: 'the number 1e200000, under skip', records: ['{"id":"big","n":1e200000}', '{"id":"a"}'], onInvalid: 'skip', outcome: /^stored a; dead-lettered 0 \(key "big"\): it holds the number 1e200000/ },
];
