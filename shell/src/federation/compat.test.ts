import { describe, expect, it } from '@jest/globals';
import { assertCompatible, RemoteIncompatibleError } from './compat';

const shell = { react: '19.3.1', 'react-router': '7.18.5', '@mui/material': '9.5.0', '@radar/shared-ui': '0.1.0', '@radar/contracts': '0.1.0' };
const manifest = (sharedUi: string) => ({
  metaData: { radar: { app: 'admin', version: '0.2.0+abc', commit: 'abc', shared: { react: '^19.3.1', '@radar/shared-ui': sharedUi } } },
});

describe('assertCompatible', () => {
  it('passes a build whose ranges the shell meets, and a manifest that states none', () => {
    expect(() => assertCompatible('admin', manifest('^0.1.0'), shell)).not.toThrow();
    expect(() => assertCompatible('admin', { metaData: {} }, shell)).not.toThrow();
    expect(() => assertCompatible('admin', undefined, shell)).not.toThrow();
  });

  it('refuses a build for another shared-ui major, naming the library and both versions', () => {
    let error: unknown;
    try {
      assertCompatible('admin', manifest('^1.0.0'), shell);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(RemoteIncompatibleError);
    expect((error as Error).message).toBe('Admin 0.2.0+abc was built for @radar/shared-ui ^1.0.0 (this site has 0.1.0).');
  });
});
