/**
 * What a list page weighs, and what the alternative would: every row carries its sanitised description or body
 * today (the item dialog opens from the row); "slim" rows would leave both out and the dialog fetch them on open.
 * Measured on a real answer: bytes, compressed bytes and the CPU to compress it on the fly (gzip level 6 and brotli
 * quality 4, the `compression` middleware's defaults) and to parse it (JSON.parse, as the browser must).
 */
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';

function medianMs(run: () => void, times = 40): number {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    run();
    samples.push(performance.now() - t0);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

function measures(body: Buffer) {
  const gzip = zlib.gzipSync(body, { level: 6 });
  const br = zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } });
  return {
    kb: body.length / 1024,
    gzipKb: gzip.length / 1024,
    brKb: br.length / 1024,
    gzipMs: medianMs(() => zlib.gzipSync(body, { level: 6 })),
    brMs: medianMs(() => zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })),
    parseMs: medianMs(() => JSON.parse(body.toString())),
  };
}

/** Table rows for one list answer, whole and slim. */
export function payloadRows(label: string, body: Buffer): string[] {
  const answer = JSON.parse(body.toString()) as { items: Record<string, unknown>[] };
  const slim = Buffer.from(JSON.stringify({ ...answer, items: answer.items.map((i) => ({ ...i, description: null, bodyContent: null })) }));
  const f = (n: number, d = 1) => n.toFixed(d);
  return [
    ['whole rows (today)', measures(body)],
    ['slim rows (no description/body)', measures(slim)],
  ].map(([name, m]) => {
    const x = m as ReturnType<typeof measures>;
    return `| ${label} | ${name as string} | ${f(x.kb)} | ${f(x.gzipKb)} | ${f(x.brKb)} | ${f(x.gzipMs, 2)} | ${f(x.brMs, 2)} | ${f(x.parseMs, 2)} |`;
  });
}

export const PAYLOAD_HEADER = [
  '| list answer | rows | KB | gzip KB | brotli KB | gzip ms | brotli ms | JSON.parse ms |',
  '|---|---|---:|---:|---:|---:|---:|---:|',
];
