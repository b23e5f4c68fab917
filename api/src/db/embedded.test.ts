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
      // The install's password is kept beside the data directory (DATA_DIR/postgres-password).
      const passwordFile = path.join(dir, 'postgres-password');
      expect(runningEmbeddedUrl(dir, 'radar', passwordFile)).toBeUndefined();
      fs.writeFileSync(passwordFile, 'p/w+1\n', { mode: 0o600 });
      expect(runningEmbeddedUrl(dir, 'radar', passwordFile)).toBe('postgres://radar:p%2Fw%2B1@127.0.0.1:54329/radar');
      fs.writeFileSync(path.join(dir, 'postmaster.pid'), '4242\n');
      expect(runningEmbeddedUrl(dir, 'radar', passwordFile)).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
