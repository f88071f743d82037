import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/loading/loadConfig.js';
import { isSecretParam, maskedParams, secretParamWarnings } from '../../../src/config/sources/secretParams.js';

const configWith = (params: Record<string, string>) =>
  parseConfig(
    {
      sources: { music: { baseUrl: 'http://127.0.0.1:1', auth: { type: 'none' }, path: '/', params } },
      jobs: [{ name: 'a', source: 'music', records: { path: 'x', kind: 'k' }, queries: [{ q: 'a', params: { Access_Token: 'query-token-0123' } }] }],
    },
    'test',
    {},
  );

describe('credentials put in params', () => {
  it.each(['key', 'apikey', 'api_key', 'API-KEY', 'token', 'secret', 'Signature', 'access_token', 'password'])('takes a param named %s for a credential', (name) => {
    expect(isSecretParam(name)).toBe(true);
  });

  it.each(['q', 'format', 'page', 'monkey', 'keyword', 'limit'])('takes a param named %s for an ordinary one', (name) => {
    expect(isSecretParam(name)).toBe(false);
  });

  it('masks the value of each credential and keeps the others', () => {
    expect(maskedParams({ api_key: 'music-key-0123', format: 'json' })).toEqual({ api_key: '***', format: 'json' });
  });

  it('warns of each credential with its path, suggesting auth of type query, without its value', () => {
    const warnings = secretParamWarnings(configWith({ api_key: 'music-key-0123', format: 'json' }));
    expect(warnings.map((warning) => warning.path)).toEqual(['sources.music.params.api_key', 'jobs[0].queries[0].params.Access_Token']);
    expect(warnings[0]!.message).toContain('auth: {type: query, name: api_key, value: …}');
    expect(JSON.stringify(warnings)).not.toContain('music-key-0123');
  });
});
