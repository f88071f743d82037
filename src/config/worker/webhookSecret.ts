import { z } from 'zod';

const PREFIX = 'whsec_';
/** Standard Webhooks recommends 24 to 64 bytes; a shorter key can be guessed, an empty one signs nothing. */
const MIN_KEY_BYTES = 24;

/**
 * `webhook.secret`: `whsec_` and the signing key's bytes in standard base64. Empty means unsigned
 * notices. The messages never quote the value: it is a secret.
 */
export const webhookSecretSchema = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z
    .string()
    .superRefine((secret, ctx) => {
      if (!secret.startsWith(PREFIX)) {
        ctx.addIssue({ code: 'custom', message: `must be "${PREFIX}" followed by base64 (a Standard Webhooks secret)` });
        return;
      }
      const encoded = secret.slice(PREFIX.length);
      const key = Buffer.from(encoded, 'base64');
      // Node's decoder skips what is not base64; only text that encodes back the same is strict base64.
      if (key.toString('base64') !== encoded) {
        ctx.addIssue({ code: 'custom', message: `must be "${PREFIX}" followed by strict base64: A-Z, a-z, 0-9, + and /, padded with = to a multiple of 4, no spaces` });
      } else if (key.length < MIN_KEY_BYTES) {
        ctx.addIssue({ code: 'custom', message: `holds a ${key.length}-byte key; it needs at least ${MIN_KEY_BYTES} bytes (Standard Webhooks recommends 24 to 64)` });
      }
    })
    .optional(),
);
