import { describe, expect, it } from 'vitest';
import { retryPolicySchema } from '../../src/config/schema.js';
import { fetchWithRetries } from '../../src/http/fetchWithRetries.js';
import type { RequestGate } from '../../src/http/RequestGate.js';
import type { FetchedPage, SourceClient } from '../../src/http/SourceClient.js';

/** A client that counts the requests it is asked to send, each answered at once. */
function countingClient() {
  const sent: Readonly<Record<string, string>>[] = [];
  const page: FetchedPage = { url: '/', link: undefined, raw: '{}', bytes: 2, contentHash: '', envelope: { status: 'success', data: {}, message: '' }, latencyMs: 1, secretsScrubbed: 0 };
  const client = { fetchPage: (params: Readonly<Record<string, string>>) => (sent.push(params), Promise.resolve(page)) } as unknown as SourceClient;
  return { client, sent };
}

/** A gate whose slot comes when the test says, whatever the signal; counts the permits released and given back. */
function heldGate() {
  let open: () => void = () => undefined;
  const counts = { released: 0, givenBack: 0 };
  const gate: RequestGate = {
    acquire: () => new Promise((resolve) => (open = () => resolve({ waitedMs: 5, release: () => void counts.released++, giveBack: () => void counts.givenBack++ }))),
  };
  return { gate, counts, open: () => open() };
}

describe('fetchWithRetries', () => {
  it('sends no request whose signal was aborted before it asked for a rate-limit slot, and asks for none', async () => {
    const { client, sent } = countingClient();
    let asked = 0;
    const gate: RequestGate = { acquire: () => (asked++, Promise.resolve({ waitedMs: 0, release: () => undefined, giveBack: () => undefined })) };

    await expect(fetchWithRetries(client, { params: { page: '4' } }, retryPolicySchema.parse({}), gate, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(asked).toBe(0);
    expect(sent).toEqual([]);
  });

  it('hands its signal to the rate limit', () => {
    const { client } = countingClient();
    let signalled: AbortSignal | undefined;
    const gate: RequestGate = { acquire: (signal) => ((signalled = signal), new Promise(() => undefined)) };
    const dropped = new AbortController();

    void fetchWithRetries(client, { params: { page: '4' } }, retryPolicySchema.parse({}), gate, { signal: dropped.signal });

    expect(signalled).toBe(dropped.signal);
  });

  it('sends no request whose signal was aborted as its rate-limit slot came, and gives the slot back unused', async () => {
    const { client, sent } = countingClient();
    const { gate, counts, open } = heldGate();
    const dropped = new AbortController();

    const fetched = fetchWithRetries(client, { params: { page: '4' } }, retryPolicySchema.parse({}), gate, { signal: dropped.signal });
    dropped.abort();
    open();

    await expect(fetched).rejects.toMatchObject({ name: 'AbortError' });
    expect(sent).toEqual([]);
    expect(counts).toEqual({ released: 0, givenBack: 1 });
  });

  it('sends a request whose slot came before any abort, and releases its slot once answered', async () => {
    const { client, sent } = countingClient();
    const { gate, counts, open } = heldGate();

    const fetched = fetchWithRetries(client, { params: { page: '4' } }, retryPolicySchema.parse({}), gate, { signal: new AbortController().signal });
    open();

    await expect(fetched).resolves.toMatchObject({ raw: '{}' });
    expect(sent).toEqual([{ page: '4' }]);
    expect(counts).toEqual({ released: 1, givenBack: 0 });
  });
});
