import { describe, expect, it } from '@jest/globals';
import { isPlainHost, remoteUrlProblem } from './remote-keys.js';

describe('remote URLs become CSP sources: only real hosts and plain URLs', () => {
  it('accepts https host names, IP literals, loopback http and paths of this site', () => {
    for (const url of [
      'https://cdn.example.com/remotes/admin/1.2.0/mf-manifest.json',
      'https://xn--bcher-kva.example/mf-manifest.json',
      'https://203.0.113.7/mf-manifest.json',
      'https://[2001:db8::1]:8443/mf-manifest.json',
      'http://localhost:3001/mf-manifest.json',
      '/remotes/admin/mf-manifest.json',
    ]) {
      expect({ url, problem: remoteUrlProblem(url) }).toEqual({ url, problem: null });
    }
  });

  it('refuses a crafted URL that would add a directive or a wildcard to the policy', () => {
    for (const url of [
      'https://*.example.com/mf-manifest.json',
      "https://example.com;script-src-elem'unsafe-inline'/mf-manifest.json",
      'https://a.example,b.example/mf-manifest.json',
      'https://example.com /mf-manifest.json',
      'https://exa_mple.com/mf-manifest.json',
      'https://example.com\\@evil.com/mf-manifest.json',
    ]) {
      expect({ url, refused: remoteUrlProblem(url) !== null }).toEqual({ url, refused: true });
    }
  });

  it('refuses /\\evil.com/x.json: browsers read it as another host, not a path of this site', () => {
    expect(remoteUrlProblem('/\\evil.com/x.json')).toMatch(/backslashes/);
    expect(remoteUrlProblem('//evil.com/x.json')).not.toBeNull();
  });

  it('knows a host from what the URL parser lets through', () => {
    expect(isPlainHost('cdn.example.com')).toBe(true);
    expect(isPlainHost('*.example.com')).toBe(false);
    expect(isPlainHost("a;b'c")).toBe(false);
    expect(isPlainHost('[::1]')).toBe(true);
  });
});
