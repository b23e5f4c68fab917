import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import net from 'node:net';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';
import { checkWebhookUrl, nonPublicReason, systemResolver, type Resolver } from './ssrf-guard.js';
import { postToWebhook } from './webhook-http.js';

/** A real resolver function answering fixed addresses, standing in for DNS (the system resolver cannot be changed here). */
const dnsAnswers =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const resolve = dnsAnswers({
  'loopback.example': ['127.0.0.1'],
  'metadata.example': ['169.254.169.254'],
  'mixed.example': ['8.8.8.8', '10.1.2.3'],
  'aws6.example': ['fd00:ec2::254'],
  'public.example': ['8.8.8.8', '2001:4860:4860::8888'],
});
const strict = { allowPrivate: false, resolve };

describe('SSRF guard', () => {
  /** The refusal's detail (for the server's log); its message names only the host as typed, never where it resolves. */
  const detailOf = async (url: string) => {
    const err = (await checkWebhookUrl(url, strict).catch((e: unknown) => e)) as { message: string; detail: string };
    expect(err.message).toMatch(/cannot be used: it must be a public internet host$/);
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    if (!/^[\d.:a-f]+$/i.test(host)) expect(err.message).not.toMatch(/\d+\.\d+\.\d+\.\d+|::/);
    return err.detail;
  };

  it('refuses DNS names that resolve to loopback or the metadata service', async () => {
    expect(await detailOf('https://loopback.example/hook')).toMatch('loopback.example resolves to 127.0.0.1, a loopback address');
    expect(await detailOf('https://metadata.example/latest/meta-data')).toMatch('resolves to 169.254.169.254, a cloud metadata address');
    expect(await detailOf('https://aws6.example/')).toMatch('fd00:ec2::254, a cloud metadata address');
  });

  it('refuses a host when ANY of its addresses is private', async () => {
    expect(await detailOf('https://mixed.example/x')).toMatch('10.1.2.3, a private address');
  });

  it('answers an internal name and an unknown one alike, so refusals do not map the internal network', async () => {
    const internal = (await checkWebhookUrl('https://mixed.example/x', strict).catch((e: unknown) => e)) as Error;
    const unknown = (await checkWebhookUrl('https://nowhere.example/x', strict).catch((e: unknown) => e)) as Error;
    expect(internal.message.replace('mixed.example', 'H')).toBe(unknown.message.replace('nowhere.example', 'H'));
  });

  it.each([
    ['https://127.0.0.1/x', 'loopback'],
    ['https://[::1]/x', 'loopback'],
    ['https://10.0.0.5/x', 'private'],
    ['https://192.168.1.1/x', 'private'],
    ['https://172.16.0.1/x', 'private'],
    ['https://169.254.169.254/latest', 'cloud metadata'],
    ['https://169.254.10.10/x', 'link-local'],
    ['https://100.64.1.1/x', 'carrier-grade NAT'],
    ['https://100.100.100.200/x', 'cloud metadata'],
    ['https://[fd12:3456::1]/x', 'unique-local'],
    ['https://[fe80::1]/x', 'link-local'],
    ['https://[::ffff:127.0.0.1]/x', 'loopback'],
    ['https://224.0.0.1/x', 'multicast'],
    ['https://0.0.0.0/x', 'unspecified'],
  ])('refuses the literal address in %s (%s)', async (url, word) => {
    expect(await detailOf(url)).toContain(`a ${word} address`);
  });

  it('accepts public hosts and pins the first checked address', async () => {
    const target = await checkWebhookUrl('https://public.example/services/T0/B0/x', strict);
    expect(target.address).toEqual({ address: '8.8.8.8', family: 4 });
    expect((await checkWebhookUrl('https://8.8.4.4/hook', strict)).address.address).toBe('8.8.4.4');
    expect(nonPublicReason('2001:4860:4860::8888')).toBeNull();
  });

  it('requires https, no credentials in the URL, and a host that resolves', async () => {
    await expect(checkWebhookUrl('http://public.example/x', strict)).rejects.toThrow('must start with https://');
    await expect(checkWebhookUrl('ftp://public.example/x', strict)).rejects.toThrow('must start with https://');
    await expect(checkWebhookUrl('https://user:pw@public.example/x', strict)).rejects.toThrow('must not contain a user name or password');
    expect(await detailOf('https://nowhere.example/x')).toContain('could not be resolved (ENOTFOUND)');
    await expect(checkWebhookUrl('not a url', strict)).rejects.toThrow('must be a valid URL');
  });

  it('ALLOW_PRIVATE_WEBHOOKS lifts both rules: plain http and private addresses', async () => {
    const open = { allowPrivate: true, resolve };
    expect((await checkWebhookUrl('http://loopback.example:8080/x', open)).address.address).toBe('127.0.0.1');
    expect((await checkWebhookUrl('https://169.254.169.254/x', open)).address.address).toBe('169.254.169.254');
  });

  it('the system resolver is node:dns (localhost answers loopback and is refused)', async () => {
    const err = (await checkWebhookUrl('https://localhost/x', { allowPrivate: false, resolve: systemResolver }).catch((e: unknown) => e)) as { detail: string };
    expect(err.detail).toMatch(/a loopback address/);
  });
});

describe('the request goes to the checked address', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  it('connects to the pinned address whatever the system DNS would say about the host name', async () => {
    // "rebind.invalid" does not exist in DNS at all: the request reaches the receiver only through the pinned address.
    const port = new URL(receiver.url).port;
    const target = await checkWebhookUrl(`http://rebind.invalid:${port}/pinned`, {
      allowPrivate: true,
      resolve: dnsAnswers({ 'rebind.invalid': ['127.0.0.1'] }),
    });
    const res = await postToWebhook(target, '{"a":1}', { 'x-test': 'yes' }, 5000);
    expect(res.status).toBe(200);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]).toMatchObject({ method: 'POST', path: '/pinned', body: '{"a":1}' });
    expect(receiver.requests[0]!.headers.host).toBe(`rebind.invalid:${port}`);
  });

  it('reads at most 64 KB of an answer', async () => {
    const target = await checkWebhookUrl(`${receiver.url}/big`, { allowPrivate: true, resolve });
    receiver.answerNext({ status: 200, body: 'x'.repeat(200_000) });
    const res = await postToWebhook(target, '{}', {}, 5000);
    expect(res.text.length).toBe(64 * 1024);
  });

  it('gives up after the timeout when the receiver never answers', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    try {
      const target = await checkWebhookUrl(`http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/`, { allowPrivate: true, resolve });
      await expect(postToWebhook(target, '{}', {}, 300)).rejects.toThrow('no answer within 300 ms');
    } finally {
      silent.close();
    }
  });
});
