import { authSecrets } from '../config/sources/authSchema.js';
import type { Config } from '../config/schema.js';
import { MASKED, secretParamValues } from '../config/sources/secretParams.js';
import { formsOf, SHORTEST_SCRUBBED } from './secretForms.js';

/** What a secret is replaced with, in any text: the mask a key in a shown request URL gets. */
export const REDACTED = MASKED;

/** How many secret occurrences scrubs replaced, summed over what they scrubbed for one run or request. */
export interface ScrubTally {
  replaced: number;
}

/** A `\uXXXX` escape. */
const UNICODE_ESCAPE = /\\u([0-9a-fA-F]{4})/g;
/** A JSON string literal, escapes and all (outside of literals a JSON text holds no quote). */
const STRING_LITERAL = /"[^"\\]*(?:\\.[^"\\]*)*"/g;

const decodeEscapes = (text: string): string => text.replace(UNICODE_ESCAPE, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/**
 * Removes known secret values from text that came from outside (an upstream's error message
 * that echoes the key, a body quoting the request): redaction by field name cannot see those.
 * Each secret is looked for in every form it may travel in (see formsOf).
 */
export class SecretScrubber {
  /** Every form of every secret, longest first, so that a longer form is replaced whole. */
  private readonly forms: readonly string[];

  constructor(secrets: Iterable<string>) {
    const forms = new Set<string>();
    for (const secret of secrets) {
      if (secret.length < SHORTEST_SCRUBBED) continue;
      // A Standard Webhooks secret signs with the bytes after its prefix: their base64 text is a secret too.
      const webhookKey = /^whsec_(.+)$/.exec(secret)?.[1];
      for (const each of webhookKey ? [secret, webhookKey] : [secret]) for (const form of formsOf(each)) forms.add(form);
    }
    this.forms = [...forms].sort((a, b) => b.length - a.length);
  }

  /**
   * For text shown, not stored (an excerpt of a body in an error): its `\uXXXX` escapes decoded,
   * then scrubbed, so a secret escaped character by character is found too.
   */
  scrubShown(text: string, tally?: ScrubTally): string {
    return this.scrub(text.includes('\\u') ? decodeEscapes(text) : text, tally);
  }

  /** The text with every form of every secret replaced by REDACTED, counted in `tally`; the same string when none is in it. */
  scrub(text: string, tally?: ScrubTally): string {
    let scrubbed = text;
    for (const form of this.forms) {
      // includes() first: scanning is cheap, and almost no text holds a secret.
      if (!scrubbed.includes(form)) continue;
      const parts = scrubbed.split(form);
      if (tally) tally.replaced += parts.length - 1;
      scrubbed = parts.join(REDACTED);
    }
    return scrubbed;
  }

  /**
   * A JSON text (a body as received) scrubbed as text, then of secrets its `\u` escapes spell: each
   * string literal that decodes to one is written again without it, so the text stays JSON, all
   * else as received, and nothing parsed from it holds a secret. Bodies without `\u`, or whose
   * escapes decode to no secret, cost only the scrub.
   */
  scrubJson(text: string, tally?: ScrubTally): string {
    const scrubbed = this.scrub(text, tally);
    if (!scrubbed.includes('\\u') || !this.holdsSecret(decodeEscapes(scrubbed))) return scrubbed;
    return scrubbed.replace(STRING_LITERAL, (literal) => (literal.includes('\\u') ? this.scrubLiteral(literal, tally) : literal));
  }

  private holdsSecret(text: string): boolean {
    return this.forms.some((form) => text.includes(form));
  }

  /** A JSON string literal, written again without the secrets its decoded value holds (as it was when none). */
  private scrubLiteral(literal: string, tally: ScrubTally | undefined): string {
    let value: string;
    try {
      value = JSON.parse(literal) as string;
    } catch {
      // Not JSON after all (a malformed body): its excerpt is scrubbed as shown text.
      return literal;
    }
    const scrubbed = this.scrub(value, tally);
    return scrubbed === value ? literal : JSON.stringify(scrubbed);
  }
}

/** Every secret a config holds: each source's credentials, credentials put in params, and the webhook's signing secret. */
export function configuredSecrets(config: Config): string[] {
  const secrets = [...Object.values(config.sources).flatMap((source) => authSecrets(source.auth)), ...secretParamValues(config)];
  if (config.webhook?.secret) secrets.push(config.webhook.secret);
  return secrets;
}

/**
 * The secrets of a process's connections: the password in each of its database and Redis URLs
 * (as given and decoded: a client sends it decoded, and may quote it back in an error, as
 * ioredis's failed AUTH does in `command.args`), and the dashboard's password.
 */
export function connectionSecrets(urls: readonly (string | undefined)[], dashboardPassword: string | undefined): string[] {
  const secrets: string[] = [];
  for (const url of urls) {
    const password = url === undefined ? '' : passwordOf(url);
    if (password) secrets.push(password, safeDecode(password));
  }
  if (dashboardPassword) secrets.push(dashboardPassword);
  return secrets;
}

function passwordOf(url: string): string {
  try {
    return new URL(url).password;
  } catch {
    return '';
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
