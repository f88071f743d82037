import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A plain HTTP receiver on a loopback port: records each request, then answers as told. */
export interface TestReceiver {
  baseUrl: string;
  received: ReceivedRequest[];
  /** How to answer the next requests; default: 200 with no body. */
  answer: (response: ServerResponse) => void;
  /** Forgets what was received, answers 200 again, and drops open connections. */
  reset(): void;
  close(): Promise<void>;
}

export async function startTestReceiver(): Promise<TestReceiver> {
  const receiver: TestReceiver = {
    baseUrl: '',
    received: [],
    answer: (response) => response.end(),
    reset() {
      receiver.received.length = 0;
      receiver.answer = (response) => response.end();
      server.closeAllConnections();
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString() });
      receiver.answer(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
