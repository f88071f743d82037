import { describe, expect, it } from 'vitest';
import { escapeHtml, html, markup } from '../../src/history/html.js';

describe('html templates', () => {
  it('escape every interpolated text, in content and in attributes', () => {
    const text = `<script>alert("x")</script>&'`;
    expect(html`<p title="${text}">${text}</p>`.text).toBe(`<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>`);
  });

  it('put markup made by html in as it is, so templates nest without escaping twice', () => {
    const inner = html`<b>${'a<b'}</b>`;
    expect(html`<p>${inner}</p>`.text).toBe('<p><b>a&lt;b</b></p>');
  });

  it('join lists and write nothing for null, undefined and false', () => {
    expect(html`${['<', markup('<i>'), 1]}${null}${undefined}${false}`.text).toBe('&lt;<i>1');
  });

  it('write numbers and zero as text', () => {
    expect(html`${0} ${12.5}`.text).toBe('0 12.5');
  });

  it('escapeHtml leaves text without special characters alone', () => {
    expect(escapeHtml('plain text 123')).toBe('plain text 123');
  });
});
