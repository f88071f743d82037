/**
 * Secrets this short are not scrubbed: replacing every "abc" in every text would garble it and
 * protect nothing (a key that short is no secret). Real keys are far longer.
 */
export const SHORTEST_SCRUBBED = 6;

/**
 * The shortest base64 core looked for: two groups, six bytes of the secret. A shorter run of
 * base64 letters turns up in ordinary text by chance.
 */
const SHORTEST_CORE = 8;

/**
 * Every form a secret may travel in that a scrub can find as plain text: as given; JSON-escaped
 * (also with every slash escaped, as PHP writes it); URL-encoded (as encodeURIComponent and as a
 * form, `+` for a space), and with every byte %-encoded; hex; and base64 and base64url at any
 * alignment (see base64Cores). Forms shorter than SHORTEST_SCRUBBED are left out.
 */
export function formsOf(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const json = JSON.stringify(secret).slice(1, -1);
  const hex = bytes.toString('hex');
  const everyByte = hex.replace(/../g, '%$&');
  const forms = [
    secret,
    json,
    json.replaceAll('/', '\\/'),
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    everyByte,
    everyByte.toUpperCase(),
    hex,
    hex.toUpperCase(),
    bytes.toString('base64'),
    ...base64Cores(bytes, 'base64'),
    ...base64Cores(bytes, 'base64url'),
  ];
  return [...new Set(forms)].filter((form) => form.length >= SHORTEST_SCRUBBED);
}

/**
 * A secret inside a longer text that was base64-encoded (`Bearer <key>`, a JSON document) falls at
 * byte offset 0, 1 or 2 of a 3-byte group, and each offset encodes it differently. For each, the
 * groups wholly inside the secret encode to the same letters whatever surrounds it: that stable
 * core is what a scrub looks for (the at most two bytes at each end that share a group with their
 * neighbours are left).
 */
function base64Cores(bytes: Buffer, encoding: 'base64' | 'base64url'): string[] {
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(encoding);
    const firstGroup = Math.ceil(offset / 3);
    const endGroup = Math.floor((offset + bytes.length) / 3);
    const core = encoded.slice(firstGroup * 4, endGroup * 4);
    if (core.length >= SHORTEST_CORE) cores.push(core);
  }
  return cores;
}
