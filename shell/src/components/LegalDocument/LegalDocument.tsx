import { Box, Typography } from '@mui/material';
import { PageContainer } from '../PageContainer/index.js';

export interface LegalSection {
  heading: string;
  paragraphs: string[];
}

export interface LegalDocumentProps {
  title: string;
  /** e.g. 'Last updated: March 1, 2026'. */
  updated: string;
  sections: LegalSection[];
}

/** A static policy page: title, date and numbered sections. */
export function LegalDocument({ title, updated, sections }: LegalDocumentProps) {
  return (
    <PageContainer title={title} subtitle={updated}>
      {sections.map((section, index) => (
        <Box component="section" key={section.heading} sx={{ mb: 3 }}>
          <Typography variant="h6" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
            {index + 1}. {section.heading}
          </Typography>
          {section.paragraphs.map((text) => (
            <Typography key={text.slice(0, 40)} sx={{ mb: 1 }}>
              {text}
            </Typography>
          ))}
        </Box>
      ))}
    </PageContainer>
  );
}
