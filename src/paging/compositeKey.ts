/**
 * A composite key's parts (`key: [id, v]`) as one `records.key`: joined with `|`, each part's own
 * `\` and `|` escaped with a `\`, so that no two lists of parts make the same key. A key whose
 * parts hold neither character is written as plain joining always wrote it, so rows stored
 * before the escaping keep being upserted (see rekeyCompositeKeys for the others).
 */
export function joinKeyParts(parts: readonly string[]): string {
  if (parts.length === 1) return parts[0]!;
  let key = '';
  for (let at = 0; at < parts.length; at++) {
    const part = parts[at]!;
    if (at > 0) key += '|';
    key += part.includes('\\') || part.includes('|') ? part.replace(/[\\|]/g, '\\$&') : part;
  }
  return key;
}

/** Whether a key stored before the escaping, of a composite key with `partCount` parts, may be written otherwise now: it holds a `\`, or a `|` of its own. */
export function mayNeedRekey(key: string, partCount: number): boolean {
  if (key.includes('\\')) return true;
  let bars = 0;
  for (let at = key.indexOf('|'); at !== -1; at = key.indexOf('|', at + 1)) bars++;
  return bars > partCount - 1;
}
