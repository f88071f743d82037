/** Last.fm's error codes. The music endpoint uses them in every dialect (the envelope carries them in `data.error`). */
export const LASTFM_ERROR = {
  invalidMethod: 3,
  invalidParameters: 6,
  invalidApiKey: 10,
  serviceOffline: 11,
  temporaryError: 16,
  suspendedApiKey: 26,
  rateLimitExceeded: 29,
} as const;

export const LASTFM_MESSAGE = {
  serviceOffline: 'Service Offline - This service is temporarily offline. Try again later.',
  rateLimitExceeded: 'Rate Limit Exceeded - Your IP has made too many requests in a short period',
  temporaryError: 'There was a temporary error processing your request. Please try again',
  suspendedApiKey: 'Suspended API key - Access for your account has been suspended, please contact Last.fm',
} as const;
