import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCommand } from '../../../src/localstack/processes.js';
import { freePort } from '../../../src/localstack/freePort.js';
import { startRedisServer, type RedisServer } from '../../../src/localstack/redisServer.js';
import { scratchDir } from '../scratchDir.js';

/** A Redis that takes TLS clients, with the CA that signed its certificate. */
export interface TlsRedis {
  server: RedisServer;
  /** `rediss://127.0.0.1:<tls port>` */
  url: string;
  /** PEM file of the CA, as REDIS_TLS_CA_FILE takes it. */
  caFile: string;
  stop(): Promise<void>;
}

/** Makes a CA and a server certificate for 127.0.0.1 with openssl, then a redis-server serving TLS with it. */
export async function startTlsRedis(): Promise<TlsRedis> {
  const dir = await scratchDir('redis-tls');
  const file = (name: string) => join(dir, name);
  const steps: string[][] = [
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=feedsync test CA', '-keyout', file('ca.key'), '-out', file('ca.pem')],
    ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', file('server.key'), '-out', file('server.csr')],
    ['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-days', '1', '-extfile', file('san.cnf'), '-out', file('server.pem')],
  ];
  await writeFile(file('san.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  for (const args of steps) {
    const result = await runCommand('openssl', args);
    if (result.code !== 0) throw new Error(`openssl ${args[0]} failed:\n${result.output}`);
  }
  const tlsPort = await freePort();
  // The plain port stays on loopback for the start-up PING; clients under test use the TLS port.
  const server = await startRedisServer({
    args: ['--tls-port', String(tlsPort), '--tls-cert-file', file('server.pem'), '--tls-key-file', file('server.key'), '--tls-ca-cert-file', file('ca.pem'), '--tls-auth-clients', 'no'],
  });
  return { server, url: `rediss://127.0.0.1:${tlsPort}`, caFile: file('ca.pem'), stop: () => server.stop() };
}
