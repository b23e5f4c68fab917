import { Alert, Stack } from '@mui/material';
import type { IntegrationTestResult, TenantTestResult } from '@radar/contracts';

/** One check of a connection test, as shown: passed or not, and its line. */
export interface TestCheckView {
  name: string;
  ok: boolean;
  text: string;
}

/** A connection test as shown, whichever endpoint answered it. */
export interface TestResultView {
  ok: boolean;
  checks: TestCheckView[];
}

/** A tenant's test: each check's line is its message. */
export const tenantTestView = (result: TenantTestResult): TestResultView => ({
  ok: result.ok,
  checks: result.checks.map((check) => ({ name: check.name, ok: check.ok, text: check.message })),
});

/** A tracker's test: each check's line is its name and detail. */
export const integrationTestView = (result: IntegrationTestResult): TestResultView => ({
  ok: result.success,
  checks: result.checks.map((check) => ({ name: check.name, ok: check.ok, text: `${check.name}: ${check.detail}` })),
});

/** The outcome of a connection test of `of` (a tenant or tracker name): green when every check passed, each check ticked or crossed. */
export function TestResult({ of, result }: { of: string; result: TestResultView }) {
  return (
    <Alert severity={result.ok ? 'success' : 'error'} aria-label={`Connection test of ${of}`}>
      <Stack component="ul" sx={{ m: 0, pl: 2 }}>
        {result.checks.map((check) => (
          <li key={check.name}>
            {check.ok ? '✓' : '✗'} {check.text}
          </li>
        ))}
      </Stack>
    </Alert>
  );
}
