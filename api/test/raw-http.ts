import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

/** A response as it left the server: status, headers and body bytes, nothing decompressed or parsed. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One request on a connection of its own, answered with the bytes as sent (supertest and fetch would decompress
 * them), for tests of encodings and of byte-for-byte equal answers.
 */
export function rawRequest(base: string, method: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers, agent: false }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
