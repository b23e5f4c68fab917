import { Alert, Stack } from '@mui/material';
import type { ConnectionTestResult } from '@radar/contracts';

export interface TestResultViewProps {
  /** The tenant or tracker tested, which names the outcome for screen readers. */
  of: string;
  result: ConnectionTestResult;
  /**
   * Whether each line starts with its check's name. A tracker's checks are named for people (`Sign-in`, `Project`); a
   * tenant's are ids (`token`, `messages`) whose messages already say what they checked.
   */
  namedChecks?: boolean;
}

/** The outcome of a connection test: green when it passed, each check ticked or crossed with what it found. */
export function TestResultView({ of, result, namedChecks = false }: TestResultViewProps) {
  return (
    <Alert severity={result.ok ? 'success' : 'error'} aria-label={`Connection test of ${of}`}>
      <Stack component="ul" sx={{ m: 0, pl: 2 }}>
        {result.checks.map((check) => (
          <li key={check.name}>
            {check.ok ? '✓' : '✗'} {namedChecks ? `${check.name}: ${check.message}` : check.message}
          </li>
        ))}
      </Stack>
    </Alert>
  );
}
