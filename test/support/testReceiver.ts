import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: IncomingMessage['headers'];
  body: string;
}

/** Answers held back (see TestReceiver.hold): the requests a sender has in flight, answered when the test says. */
export interface HeldAnswers {
  /** Requests received and not answered yet. */
  readonly waiting: number;
  /** Answers every waiting request with 200; later requests are held too. */
  release(): void;
  /** Answers every waiting request with 200, and later ones at once. */
  end(): void;
}

/** A plain HTTP receiver on a loopback port: records each request, then answers as told. */
export interface TestReceiver {
  baseUrl: string;
  received: ReceivedRequest[];
  /** How to answer the next requests; default: 200 with no body. */
  answer: (response: ServerResponse) => void;
  /** From now on, answers nothing until the test releases the held answers (reset drops them). */
  hold(): HeldAnswers;
  /** Forgets what was received, answers 200 again, and drops open connections. */
  reset(): void;
  close(): Promise<void>;
}

const answerOk = (response: ServerResponse): void => void response.end();

/** An answer of 200 with `body` as JSON: a receiver standing in for an upstream. */
export const answerJson =
  (body: unknown) =>
  (response: ServerResponse): void => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(body));
  };

export async function startTestReceiver(): Promise<TestReceiver> {
  const receiver: TestReceiver = {
    baseUrl: '',
    received: [],
    answer: answerOk,
    hold() {
      const waiting: ServerResponse[] = [];
      receiver.answer = (response) => void waiting.push(response);
      const release = (): void => waiting.splice(0).forEach(answerOk);
      return {
        get waiting() {
          return waiting.length;
        },
        release,
        end() {
          receiver.answer = answerOk;
          release();
        },
      };
    },
    reset() {
      receiver.received.length = 0;
      receiver.answer = answerOk;
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
