import { errorBody } from '@radar/contracts';
import { ApiError } from '@radar/shared-ui';

/**
 * The field problems of a refused save (the server's 400), by field. `fieldOf` maps an issue's path to the dialog's
 * field name; by default the path is the field.
 */
export function fieldErrorsOf(error: unknown, fieldOf: (path: string) => string = (path) => path): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const issues = error.bodyAs(errorBody)?.error.issues ?? [];
  return Object.fromEntries(issues.map((issue) => [fieldOf(issue.path), issue.message]));
}
