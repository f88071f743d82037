import { describe, expect, it } from 'vitest';
import { replaceBlock } from './generatedBlock.js';

const markers = { begin: '<!-- begin -->', end: '<!-- end -->', name: 'page.md' };

describe('a generated block of a page', () => {
  it('is made anew between its markers, the hand-written text around it kept', () => {
    const page = '# Title\n\nintro\n<!-- begin -->\nold\n<!-- end -->\n\n## After\n';
    expect(replaceBlock(page, { ...markers, block: '<!-- begin -->\nnew\n<!-- end -->' })).toBe('# Title\n\nintro\n<!-- begin -->\nnew\n<!-- end -->\n\n## After\n');
  });

  it('is refused, naming the page, where its markers are missing', () => {
    expect(() => replaceBlock('# Title\n', { ...markers, block: '' })).toThrow('page.md has no generated block (<!-- begin --> … <!-- end -->)');
  });
});
