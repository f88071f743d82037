/** One link-value of a `Link` header: `<uri>` then `;`-separated parameters (RFC 8288 §3). */
const LINK_VALUE = /<([^>]*)>((?:\s*;\s*[^\s=;,]+\s*(?:=\s*(?:"[^"]*"|[^;,]*))?)*)/g;
const PARAMETER = /;\s*([^\s=;,]+)\s*(?:=\s*(?:"([^"]*)"|([^;,\s]*)))?/g;

/**
 * The target of the link whose `rel` includes `next` (rel holds space-separated relation types,
 * compared without case); undefined when there is none.
 */
export function nextLinkOf(header: string): string | undefined {
  for (const [, uri, parameters] of header.matchAll(LINK_VALUE)) {
    for (const [, name, quoted, bare] of (parameters ?? '').matchAll(PARAMETER)) {
      if (name!.toLowerCase() !== 'rel') continue;
      if ((quoted ?? bare ?? '').toLowerCase().split(/\s+/).includes('next')) return uri;
    }
  }
  return undefined;
}
