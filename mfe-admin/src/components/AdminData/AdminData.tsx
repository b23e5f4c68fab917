import type { ReactNode } from 'react';
import { Alert, Typography } from '@mui/material';
import { errorMessageOf } from '../../api/admin-actions.js';

export interface AdminAnswer<T> {
  data: T | undefined;
  error: unknown;
  isLoading: boolean;
}

export interface AdminDataProps<T> {
  /** The tab's SWR answer. */
  answer: AdminAnswer<T>;
  /** What is loaded, as the messages say it: 'Loading {what}...', 'Could not load {what} (reason).' */
  what: string;
  /** The error message's wording when it differs ('the sync history'). */
  failedWhat?: string;
  /** Shown instead of `children` when `isEmpty(data)`. */
  empty?: { when: (data: T) => boolean; text: string };
  children: (data: T) => ReactNode;
}

/**
 * The admin tabs' data states in one place: the server's reason when loading failed, a loading line, the empty text,
 * else the tab's content for the loaded data. Errors win over a stale answer, so a failed refresh is never hidden.
 */
export function AdminData<T>({ answer, what, failedWhat = what, empty, children }: AdminDataProps<T>) {
  if (answer.error)
    return (
      <Alert severity="error">
        Could not load {failedWhat} ({errorMessageOf(answer.error)}).
      </Alert>
    );
  // Loading while there is nothing to show: the answer a server-rendered page arrived with is shown at once (SWR
  // counts it as loading until its own request returns).
  if (answer.data === undefined) return <Typography color="text.secondary">Loading {what}...</Typography>;
  if (empty?.when(answer.data)) return <Typography color="text.secondary">{empty.text}</Typography>;
  return <>{children(answer.data)}</>;
}
