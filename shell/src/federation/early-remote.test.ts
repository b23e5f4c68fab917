import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { preloadRemoteApp, remoteFilesOf, takeEarlyManifest } from './early-remote';
import { remoteTimeoutPlugin } from './remotes';

const manifest = {
  metaData: { publicPath: 'auto', remoteEntry: { path: '', name: 'remoteEntry.js' } },
  exposes: [{ path: './App', assets: { js: { sync: ['362.a.js', '__federation_expose_App.b.js'], async: ['9.c.js'] } } }],
};

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('remoteFilesOf', () => {
  it('names remoteEntry.js and the synchronous chunks of ./App, beside the manifest when publicPath is auto', () => {
    expect(remoteFilesOf(manifest, 'https://cdn.example.com/dashboard/mf-manifest.json')).toEqual([
      'https://cdn.example.com/dashboard/remoteEntry.js',
      'https://cdn.example.com/dashboard/362.a.js',
      'https://cdn.example.com/dashboard/__federation_expose_App.b.js',
    ]);
  });

  it('follows an explicit publicPath and a remoteEntry path', () => {
    const files = remoteFilesOf(
      { ...manifest, metaData: { publicPath: 'https://static.example.com/v2/', remoteEntry: { path: 'entry', name: 'remoteEntry.js' } } },
      'https://cdn.example.com/dashboard/mf-manifest.json',
    );
    expect(files[0]).toBe('https://static.example.com/v2/entry/remoteEntry.js');
    expect(files[1]).toBe('https://static.example.com/v2/362.a.js');
  });
});

describe('preloadRemoteApp', () => {
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('preloads the files the manifest names, and hands its response to the runtime fetch once', async () => {
    const url = 'http://localhost/remotes/dashboard/mf-manifest.json';
    const response = { ok: true, clone: () => ({ json: async () => manifest }) } as unknown as Response;
    const fetchMock = jest.fn<typeof fetch>(async () => response);
    Object.defineProperty(window, 'fetch', { writable: true, configurable: true, value: fetchMock });
    preloadRemoteApp('/remotes/dashboard/mf-manifest.json', 5000);
    await flush();
    const preloads = [...document.head.querySelectorAll('link[rel="preload"][as="script"]')].map((link) => link.getAttribute('href'));
    expect(preloads).toEqual([
      'http://localhost/remotes/dashboard/remoteEntry.js',
      'http://localhost/remotes/dashboard/362.a.js',
      'http://localhost/remotes/dashboard/__federation_expose_App.b.js',
    ]);

    const plugin = remoteTimeoutPlugin();
    await expect(plugin.fetch!(url, {})).resolves.toBe(response);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await plugin.fetch!(url, {});
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(takeEarlyManifest(url)).toBeUndefined();
  });

  it('preloads a remoteEntry.js entry as it is', () => {
    preloadRemoteApp('https://cdn.example.com/admin/remoteEntry.js', 5000);
    expect(document.head.querySelector('link[rel="preload"]')?.getAttribute('href')).toBe('https://cdn.example.com/admin/remoteEntry.js');
  });
});
