import type { ReactNode } from 'react';
import { Skeleton, Typography } from '@mui/material';

export interface ListStateProps {
  isLoading: boolean;
  /** The list could not be loaded. */
  failed: boolean;
  isEmpty: boolean;
  /** Accessible name of the loading skeleton ("Loading API tokens"). */
  loadingLabel: string;
  /** Shown as an alert when loading failed. */
  errorText: string;
  /** Shown when there is nothing to list ("No API tokens yet"). */
  emptyText: string;
  /** The list itself, rendered only when it has entries. */
  children: ReactNode;
}

/** The four states of a settings card's list: loading skeleton, error alert, empty text, or the list. */
export function ListState({ isLoading, failed, isEmpty, loadingLabel, errorText, emptyText, children }: ListStateProps) {
  if (isLoading) return <Skeleton height={48} aria-label={loadingLabel} />;
  if (failed)
    return (
      <Typography role="alert" color="error">
        {errorText}
      </Typography>
    );
  if (isEmpty) return <Typography sx={{ py: 1 }}>{emptyText}</Typography>;
  return <>{children}</>;
}
