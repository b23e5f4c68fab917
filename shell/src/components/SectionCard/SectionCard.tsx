import type { ReactNode } from 'react';
import { Card, CardContent, Typography } from '@mui/material';

export interface SectionCardProps {
  /** Id of the heading; the section is labelled by it (a landmark with the title as its name). */
  id: string;
  title: string;
  children: ReactNode;
}

/** A titled card section of a settings page (/notifications, /profile). */
export function SectionCard({ id, title, children }: SectionCardProps) {
  return (
    <Card variant="outlined" component="section" aria-labelledby={id}>
      <CardContent>
        <Typography id={id} variant="h6" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}
