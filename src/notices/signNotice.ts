import { createHmac } from 'node:crypto';

/** Standard Webhooks headers for one delivery attempt of exactly `body`. */
export function webhookHeaders(id: string, body: string, secret: string | undefined, now: Date = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000).toString();
  const headers: Record<string, string> = { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': timestamp };
  if (secret) headers['webhook-signature'] = `v1,${signature(id, timestamp, body, secret)}`;
  return headers;
}

/** HMAC-SHA256 over `id.timestamp.body` keyed with the secret's base64 bytes after `whsec_`. */
export function signature(id: string, timestamp: string, body: string, secret: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}
