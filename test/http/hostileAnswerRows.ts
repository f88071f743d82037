/*
 * Upstream answers SourceClient must refuse (or read despite their oddity), one a row: the answer,
 * and what comes of it: the error's kind and message, or `read` with the page's data.
 * hostileAnswers.integration.test.ts serves each from a local upstream.
 */

export interface HostileAnswerRow {
  what: string;
  status?: number;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Whether the body is sent in chunks, without content-length. */
  chunked?: boolean;
  /** Whether the connection is dropped instead of answered. */
  drop?: boolean;
  /** A next-page URL to request instead of the endpoint. */
  nextUrl?: string;
  outcome: RegExp;
}

const page = (data: unknown) => JSON.stringify({ status: 'success', data, message: '' });
const HTML = '<!doctype html><html><head><title>Error</title></head><body><h1>Something went wrong</h1></body></html>';

/** The source's maxResponseBytes in hostileAnswers.integration.test.ts. */
export const MAX_RESPONSE_BYTES = 5_000;

export const hostileAnswerRows: HostileAnswerRow[] = [
  { what: 'JSON cut short', body: '{"status":"success","data":{"items":[', outcome: /^malformed: music: response is not JSON: it is cut short, a bracket or string still open at its end \(HTTP 200\)$/ },
  { what: 'JSON cut short inside a string', body: '{"status":"success","data":{"na', outcome: /^malformed: music: response is not JSON: it is cut short/ },
  { what: 'an HTML error page with 200', body: HTML, headers: { 'content-type': 'text/html' }, outcome: /^unreadable: music: response is not JSON: the body is an HTML page \(HTTP 200\)$/ },
  { what: 'plain text with 200', body: 'Service Unavailable', headers: { 'content-type': 'text/plain' }, outcome: /^unreadable: music: response is not JSON: the body is plain text \(HTTP 200\)$/ },
  { what: 'JSON closed early, then more', body: '{"status":"success","data":[]}}', outcome: /^unreadable: music: response is not JSON: the body is JSON that does not parse \(.+\) \(HTTP 200\)$/ },
  { what: 'JSON whose brackets cross', body: '{"status":"success","data":[}', outcome: /^unreadable: music: response is not JSON: the body is JSON that does not parse/ },
  { what: 'an HTML error page with 502', status: 502, body: HTML, headers: { 'content-type': 'text/html' }, outcome: /^temporary: music: server error \(HTTP 502\)$/ },
  { what: 'an empty body with 200', body: '', outcome: /^malformed: music: response is not JSON: the body is empty \(HTTP 200\)$/ },
  { what: 'an empty body with 204', status: 204, outcome: /^unreadable: music: response is not JSON: the body is empty, as "No Content" says \(HTTP 204\)$/ },
  { what: 'a body of whitespace', body: ' \n ', outcome: /^malformed: music: response is not JSON: the body is empty/ },
  { what: 'JSON that is a list', body: '[1,2]', outcome: /^unreadable: music: response is not the envelope shape: expected .*; the body is a list \(response\.preset: plain reads a body that is the data\)/ },
  { what: 'JSON that is a string', body: '"ok"', outcome: /^unreadable: music: response is not the envelope shape: expected a status at "status"; the body is a bare string "ok" \(response\.preset: plain/ },
  { what: 'a JSON-RPC answer', body: '{"jsonrpc":"2.0","id":1,"result":"0x1b4"}', outcome: /^unreadable: music: response is not the envelope shape: .*; the body is a JSON-RPC result \(response\.preset: etherscan reads \{status, message, result\} and JSON-RPC\)/ },
  { what: 'an object without a status', body: '{"items":[]}', outcome: /^unreadable: music: response is not the envelope shape: expected a status at "status"; the body is an object with items \(response\.preset: plain reads a body that is the data, or set response\.statusPath to where it says success\) \(HTTP 200\)$/ },
  { what: 'an envelope without its data', body: '{"status":"success","message":""}', outcome: /^unreadable: music: response is not the envelope shape: expected data at "data"; the body is an object with status, message \(response\.dataPath: "\." reads the whole body as the data\)/ },
  { what: 'a valid page under a wrong content-type', body: page({ items: [] }), headers: { 'content-type': 'text/plain' }, outcome: /^read: \{"items":\[\]\}$/ },
  { what: 'a valid page under no content-type', body: page({ items: [1] }), headers: { 'content-type': '' }, outcome: /^read: \{"items":\[1\]\}$/ },
  { what: 'a body over maxResponseBytes, its length announced', body: page({ pad: 'x'.repeat(MAX_RESPONSE_BYTES) }), outcome: /^too_large: music: response of \d+ bytes exceeds maxResponseBytes \(5000\)$/ },
  { what: 'a body over maxResponseBytes, sent in chunks', body: page({ pad: 'x'.repeat(MAX_RESPONSE_BYTES) }), chunked: true, outcome: /^too_large: music: response exceeds maxResponseBytes \(5000\)$/ },
  { what: 'a body nested 2,001 deep', body: `{"status":"success","data":${'['.repeat(2_000)}${']'.repeat(2_000)},"message":""}`, outcome: /^too_deep: music: the body of http:\/\/127\.0\.0\.1:\d+\/api\?row=\d+ is nested 2001 levels deep, past the 2000 a page may nest \(HTTP 200\)$/ },
  { what: "a redirect off baseUrl's origin", status: 302, headers: { location: 'http://evil.example/steal' }, outcome: /^redirect: music: redirect to http:\/\/evil\.example\/steal not followed \(HTTP 302\)$/ },
  { what: 'a redirect on the same origin', status: 301, headers: { location: '/api/v2' }, outcome: /^redirect: music: redirect to \/api\/v2 not followed \(HTTP 301\)$/ },
  { what: "a next page off baseUrl's origin", nextUrl: 'http://evil.example/api?page=2', outcome: /^rejected: music: refused to request "http:\/\/evil\.example\/api\?page=2": it leads to http:\/\/evil\.example, not to baseUrl's origin/ },
  { what: 'a next page that is protocol-relative', nextUrl: '//evil.example/api', outcome: /^rejected: music: refused to request "\/\/evil\.example\/api": it leads to http:\/\/evil\.example/ },
  { what: 'a 401', status: 401, body: '{"status":"error","data":null,"message":"bad key"}', outcome: /^auth: music: the API key was refused \(HTTP 401\) upstream said: "bad key"$/ },
  { what: 'a 404', status: 404, body: 'no such endpoint', outcome: /^rejected: music: request rejected \(HTTP 404\)$/ },
  { what: 'a 429 with Retry-After', status: 429, headers: { 'retry-after': '7' }, outcome: /^rate_limited: music: rate limited \(HTTP 429\)$/ },
  { what: 'an error envelope with 200', body: '{"status":"error","data":null,"message":"quota exceeded"}', outcome: /^rejected: music: error response \(status "error"\) \(HTTP 200\) upstream said: "quota exceeded"$/ },
  { what: 'a dropped connection', drop: true, outcome: /^network: music: request failed: other side closed$/ },
];
