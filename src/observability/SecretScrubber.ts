import { authSecrets } from '../config/authSchema.js';
import type { Config } from '../config/schema.js';

/** What a secret is replaced with, in any text. */
export const REDACTED = '[redacted]';

/**
 * Secrets this short are not scrubbed: replacing every "abc" in every text would garble it and
 * protect nothing (a key that short is no secret). Real keys are far longer.
 */
const SHORTEST_SCRUBBED = 6;

/**
 * Removes known secret values from text that came from outside (an upstream's error message
 * that echoes the key, a body quoting the request): redaction by field name cannot see those.
 * Each secret is looked for as given and in the forms it travels in: base64 (basic auth, the
 * webhook secret's bytes), URL-encoded, and JSON-escaped. A caller also scrubs text decoded from
 * JSON: an upstream may escape a secret in ways no list of forms foresees.
 */
export class SecretScrubber {
  /** Every form of every secret, longest first, so that a longer form is replaced whole. */
  private readonly forms: readonly string[];

  constructor(secrets: Iterable<string>) {
    const forms = new Set<string>();
    for (const secret of secrets) {
      if (secret.length < SHORTEST_SCRUBBED) continue;
      for (const form of formsOf(secret)) if (form.length >= SHORTEST_SCRUBBED) forms.add(form);
    }
    this.forms = [...forms].sort((a, b) => b.length - a.length);
  }

  /**
   * For text shown, not stored (an excerpt of a body in an error): its `\uXXXX` escapes decoded,
   * then scrubbed, so a secret escaped character by character is found too.
   */
  scrubShown(text: string): string {
    return this.scrub(text.includes('\\u') ? text.replace(/\\u([0-9a-fA-F]{4})/g, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))) : text);
  }

  /** The text with every form of every secret replaced by [redacted]; the same string when none is in it. */
  scrub(text: string): string {
    let scrubbed = text;
    // includes() first: scanning is cheap, and almost no text holds a secret.
    for (const form of this.forms) if (scrubbed.includes(form)) scrubbed = scrubbed.replaceAll(form, REDACTED);
    return scrubbed;
  }
}

function formsOf(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  // `\/` as well: some encoders (PHP's, by default) escape every slash.
  const forms = [secret, Buffer.from(secret).toString('base64'), encodeURIComponent(secret), json, json.replaceAll('/', '\\/')];
  // A Standard Webhooks secret signs with the bytes after its prefix: those, in base64, are the secret too.
  const webhookKey = /^whsec_(.+)$/.exec(secret)?.[1];
  if (webhookKey) forms.push(webhookKey);
  return forms;
}

/** Every secret a config holds: each source's credentials and the webhook's signing secret. */
export function configuredSecrets(config: Config): string[] {
  const secrets = Object.values(config.sources).flatMap((source) => authSecrets(source.auth));
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
