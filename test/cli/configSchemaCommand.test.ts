import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { feedsyncProgram } from '../../src/cli/program.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('feedsync config schema', () => {
  it('prints feedsync.schema.json as committed', async () => {
    let printed = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((text: string | Uint8Array) => {
      printed += String(text);
      return true;
    });
    await feedsyncProgram().parseAsync(['node', 'feedsync', 'config', 'schema']);
    expect(printed).toBe(await readFile(new URL('../../feedsync.schema.json', import.meta.url), 'utf8'));
  });
});
