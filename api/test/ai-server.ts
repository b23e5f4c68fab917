/**
 * A local OpenAI-compatible chat-completions server for tests: POST /v1/chat/completions (or /chat/completions
 * under any prefix). Its behaviour is switched per test: answer, answer slowly (to trip the client's timeout), or
 * fail with a status and an OpenAI-style error body. Every request is recorded for assertions.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type AiServerMode =
  { kind: 'ok'; content: string; model?: string } | { kind: 'slow'; delayMs: number; content?: string } | { kind: 'error'; status: number; message: string };

export interface RecordedAiRequest {
  path: string;
  authorization: string | undefined;
  body: {
    model?: string;
    messages?: { role: string; content: string }[];
    [key: string]: unknown;
  };
}

export interface AiServer {
  /** Base URL to put in AI_BASE_URL (…/v1). */
  baseUrl: string;
  requests: RecordedAiRequest[];
  setMode(mode: AiServerMode): void;
  close(): Promise<void>;
}

function completion(content: string, model: string) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_770_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
  };
}

export async function startAiServer(initial: AiServerMode = { kind: 'ok', content: '<p>Summary</p>' }): Promise<AiServer> {
  let mode = initial;
  const requests: RecordedAiRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      let body: RecordedAiRequest['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // recorded as empty
      }
      requests.push({ path: req.url, authorization: req.headers.authorization, body });
      const current = mode;
      const json = (status: number, payload: unknown) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(payload));
      };
      if (current.kind === 'error') {
        json(current.status, { error: { message: current.message, type: 'server_error', code: null } });
      } else if (current.kind === 'slow') {
        const timer = setTimeout(() => {
          timers.delete(timer);
          json(200, completion(current.content ?? '<p>Too late</p>', body.model ?? 'test-model'));
        }, current.delayMs);
        timers.add(timer);
      } else {
        json(200, completion(current.content, current.model ?? body.model ?? 'test-model'));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setMode(next) {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
