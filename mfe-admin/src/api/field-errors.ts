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

/**
 * The field problems of a form checked here with the API's own schema, by field (the first part of each issue's path),
 * the first problem of a field winning: the same words the server would answer, before anything is sent.
 */
export function formErrorsOf(parsed: {
  success: boolean;
  error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
}): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const issue of parsed.error?.issues ?? []) problems[String(issue.path[0])] ??= issue.message;
  return problems;
}
