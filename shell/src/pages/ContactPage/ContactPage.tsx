import { Box, Typography } from '@mui/material';
import { PageContainer } from '../../components/PageContainer/index.js';
import { ContactForm } from './ContactForm.js';

/** /contact: About Us text and the contact form. */
export function ContactPage() {
  return (
    <PageContainer title="About Us" maxWidth="md">
      <Box component="section" aria-labelledby="about-title" sx={{ mb: 5 }}>
        <Typography id="about-title" variant="h5" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
          Why M365 Radar exists
        </Typography>
        <Typography sx={{ mb: 1.5 }}>
          Microsoft 365 administrators follow two streams of change: the public AI at Work Roadmap (formerly the Microsoft 365 Roadmap), which says what is
          coming, and the Message Center, which says what is happening in their tenant. M365 Radar brings both into one searchable, filterable list, keeps a
          history of every change to every item, and tells you by e-mail when something you follow moves.
        </Typography>
        <Typography>We are a small team of Microsoft 365 practitioners. Questions, feature ideas or a correction to an item? Write to us below.</Typography>
      </Box>
      <Box component="section" aria-labelledby="contact-title">
        <Typography id="contact-title" variant="h5" component="h2" sx={{ fontWeight: 700, mb: 2 }}>
          Contact us
        </Typography>
        <ContactForm />
      </Box>
    </PageContainer>
  );
}
