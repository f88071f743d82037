import { describe, expect, it } from 'vitest';
import { shippedNodeFlags } from './builtCli.js';
import { imageEntrypoint } from './dockerfile.js';

describe('the node flags feedsync ships with', () => {
  it('caps the young generation in the CLI\'s shebang', () => {
    expect(shippedNodeFlags()).toContainEqual(expect.stringMatching(/^--max-semi-space-size=\d+$/));
  });

  it('are the flags the image\'s ENTRYPOINT starts node with, before the CLI', () => {
    expect(imageEntrypoint()).toEqual(['node', ...shippedNodeFlags(), 'dist/cli/main.js']);
  });
});
