/**
 * Values for the upstream and webhook variables the example config (feedsync.yaml) requires, for
 * checks that load it without syncing anything: `.invalid` names never resolve, so nothing is sent.
 */
export const UPSTREAM_STAND_INS: Readonly<Record<string, string>> = {
  MUSIC_BASE_URL: 'http://music.invalid',
  MUSIC_API_KEY: 'stand-in-key',
  EXPLORER_BASE_URL: 'http://explorer.invalid',
  EXPLORER_API_KEY: 'stand-in-key',
  WEBHOOK_BASE_URL: 'http://webhook.invalid',
  WEBHOOK_UUID: '00000000-0000-4000-8000-000000000000',
};
