import { describe, expect, it } from 'vitest';
import { authorized } from '../../src/runtime/basicAuth.js';

const credentials = { user: 'ops', password: 'pa:ss' };
const header = (scheme: string, userPass: string) => `${scheme} ${Buffer.from(userPass).toString('base64')}`;

describe('basic auth', () => {
  it.each(['Basic', 'basic', 'BASIC', 'bAsIc'])('accepts the scheme written %s (RFC 7617: case-insensitive)', (scheme) => {
    expect(authorized(header(scheme, 'ops:pa:ss'), credentials)).toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['another scheme', header('Bearer', 'ops:pa:ss')],
    ['a wrong password', header('Basic', 'ops:pass')],
    ['a wrong user', header('Basic', 'op:pa:ss')],
    ['no colon', header('Basic', 'opspa:ss'.replace(':', ''))],
    ['the scheme alone', 'Basic'],
    ['a third word', `${header('Basic', 'ops:pa:ss')} extra`],
  ])('refuses %s', (_what, value) => {
    expect(authorized(value, credentials)).toBe(false);
  });
});
