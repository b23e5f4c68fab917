import type { ReactNode } from 'react';
import { Container, Typography } from '@mui/material';
import { MainLandmark } from '@radar/shared-ui';

export interface PageContainerProps {
  /** The page's h1. */
  title: string;
  /** A line under the title. */
  subtitle?: ReactNode;
  maxWidth?: 'sm' | 'md' | 'lg';
  children: ReactNode;
}

/** The main landmark of a shell page with its heading. */
export function PageContainer({ title, subtitle, maxWidth = 'md', children }: PageContainerProps) {
  return (
    <Container component={MainLandmark} maxWidth={maxWidth} sx={{ py: { xs: 4, md: 6 } }}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: subtitle ? 1 : 3 }}>
        {title}
      </Typography>
      {subtitle ? (
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {subtitle}
        </Typography>
      ) : null}
      {children}
    </Container>
  );
}
