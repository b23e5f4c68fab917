import { describe, expect, it } from '@jest/globals';
import { mismatchMessage, sharedMismatches } from './remote-compat.js';
import { remoteUrlProblem } from './remotes.js';

const shell = { react: '19.3.1', 'react-router': '7.18.5', '@mui/material': '9.5.0', '@radar/shared-ui': '0.1.0', '@radar/contracts': '0.1.0' };

describe('sharedMismatches', () => {
  it('accepts ranges the shell satisfies and names each one it does not', () => {
    expect(sharedMismatches(shell, { react: '^19.0.0', '@radar/shared-ui': '^0.1.0' })).toEqual([]);
    expect(sharedMismatches(shell, { react: '^18.2.0', '@radar/shared-ui': '^1.0.0', '@mui/material': '^9.1.0' })).toEqual([
      { library: 'react', required: '^18.2.0', provided: '19.3.1' },
      { library: '@radar/shared-ui', required: '^1.0.0', provided: '0.1.0' },
    ]);
  });

  it('compares only what both sides state', () => {
    expect(sharedMismatches({}, { react: '^18.0.0' })).toEqual([]);
    expect(sharedMismatches(shell, {})).toEqual([]);
  });

  it('words the mismatch for the page and the Test button', () => {
    expect(mismatchMessage('Admin', '0.2.0+abc', [{ library: '@radar/shared-ui', required: '^1.0.0', provided: '0.1.0' }])).toBe(
      'Admin 0.2.0+abc was built for @radar/shared-ui ^1.0.0 (this site has 0.1.0).',
    );
  });
});

describe('remoteUrlProblem', () => {
  it.each([
    'https://cdn.example.com/admin/mf-manifest.json',
    'http://localhost:4000/mf-manifest.json',
    'http://127.0.0.1:4000/v2/mf-manifest.json',
    'http://[::1]:4000/mf-manifest.json',
    '/remotes/admin/mf-manifest.json',
  ])('accepts %s', (url) => expect(remoteUrlProblem(url)).toBeNull());
  it.each(['http://10.0.0.5/mf-manifest.json', 'http://localhost.example.com/mf-manifest.json', '//cdn.example.com/mf-manifest.json', 'javascript:alert(1)'])(
    'refuses %s',
    (url) => expect(remoteUrlProblem(url)).not.toBeNull(),
  );
});
