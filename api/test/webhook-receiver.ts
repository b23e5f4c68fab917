import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface ScriptedAnswer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

/**
 * A real HTTP server on 127.0.0.1 standing in for a Teams Workflow, a Slack incoming webhook or a customer's
 * endpoint: it records every request and answers from a script (`answerNext`), 200 "ok" when the script is empty.
 */
export interface WebhookReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** Queues answers for the next requests, in order. */
  answerNext(...answers: ScriptedAnswer[]): void;
  /** Answers every request with this from now on (until reset). */
  answerAlways(answer: ScriptedAnswer | null): void;
  /** From now on requests are recorded and left without an answer (a receiver that hangs), until release(). */
  hang(): void;
  /** Stops hanging and answers the requests left waiting (200 "ok" unless told); a cut one is skipped. */
  release(answer?: ScriptedAnswer): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  let script: ScriptedAnswer[] = [];
  let always: ScriptedAnswer | null = null;
  let hanging = false;
  const waiting: http.ServerResponse[] = [];
  const sockets = new Set<Socket>();
  const answer = (res: http.ServerResponse, a: ScriptedAnswer) => res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers }).end(a.body ?? '');
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (hanging) return void waiting.push(res);
      answer(res, script.shift() ?? always ?? { status: 200, body: 'ok' });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answerNext: (...answers) => void script.push(...answers),
    answerAlways: (answer) => {
      always = answer;
    },
    hang: () => {
      hanging = true;
    },
    release: (a = { status: 200, body: 'ok' }) => {
      hanging = false;
      for (const res of waiting.splice(0)) if (!res.destroyed) answer(res, a);
    },
    reset: () => {
      requests.length = 0;
      script = [];
      always = null;
      hanging = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
