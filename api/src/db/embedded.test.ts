import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runningEmbeddedUrl } from './embedded.js';

describe('runningEmbeddedUrl', () => {
  it('reads the port of a running embedded server from its postmaster.pid, and nothing when none runs', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-pg-'));
    try {
      expect(runningEmbeddedUrl(dir, 'radar')).toBeUndefined();
      // PostgreSQL's format: pid, data directory, start time, port, socket directory, listen address, …
      fs.writeFileSync(path.join(dir, 'postmaster.pid'), `4242\n${dir}\n1770000000\n54329\n/tmp\n127.0.0.1\n  5432001    123\nready   \n`);
      expect(runningEmbeddedUrl(dir, 'radar')).toBe('postgres://radar:radar@127.0.0.1:54329/radar');
      fs.writeFileSync(path.join(dir, 'postmaster.pid'), '4242\n');
      expect(runningEmbeddedUrl(dir, 'radar')).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
