import { describe, expect, it } from '@jest/globals';
import { SUITE_SLUG } from '@radar/contracts';
import { defaultExportFileName, fileNameFromDisposition } from './export.js';

describe('export file names', () => {
  it('names a download the server did not name by the reader’s date, zero-padded', () => {
    expect(defaultExportFileName(new Date(2026, 2, 5, 23, 59))).toBe(`${SUITE_SLUG}-dashboard-2026-03-05.csv`);
    expect(defaultExportFileName(new Date(2026, 10, 29, 0, 0))).toBe(`${SUITE_SLUG}-dashboard-2026-11-29.csv`);
  });

  it('reads the plain and the RFC 5987 file name', () => {
    expect(fileNameFromDisposition('attachment; filename="a.csv"')).toBe('a.csv');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.csv")).toBe('résumé.csv');
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});
