import { useState } from 'react';
import { SUITE_SLUG, endpointUrl, routes, type ItemListParams } from '@radar/contracts';
import { apiFetch, useToast } from '@radar/shared-ui';

/** `filename="x.csv"` or RFC 5987 `filename*=UTF-8''x.csv` from a Content-Disposition header. */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain ? plain[1].trim() : null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `<suite>-dashboard-yyyy-MM-dd.csv` in the reader's zone; by hand, so the dashboard ships no copy of date-fns. */
export const defaultExportFileName = (now: Date = new Date()) =>
  `${SUITE_SLUG}-dashboard-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;

function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** GET /api/dashboard/export with the list's filters, saved under the server's file name. */
export function useDashboardExport(query: ItemListParams) {
  const { toast } = useToast();
  const [isExporting, setExporting] = useState(false);
  const run = async () => {
    setExporting(true);
    try {
      // A download, not JSON: the endpoint's URL with the raw response (see docs/frontend.md).
      const response = await apiFetch(endpointUrl(routes.items.export, { query }), { headers: { Accept: 'text/csv' } });
      const blob = await response.blob();
      saveBlob(blob, fileNameFromDisposition(response.headers.get('Content-Disposition')) ?? defaultExportFileName());
      toast({ title: 'Export completed', description: 'Dashboard data has been exported successfully.' });
    } catch {
      toast({ title: 'Export failed', description: 'Failed to export dashboard data. Please try again.', variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  };
  return { onExport: () => void run(), isExporting };
}
