import { request } from 'node:http';

/**
 * Sends a request to `base` with its path as written (fetch, or a URL, would normalise it and drop
 * its dot segments), and the Authorization header when given; its status and body.
 */
export function rawRequest(base: string, path: string, method: string, authorization: string | undefined): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(base, { path, method, headers: authorization === undefined ? {} : { authorization } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}
