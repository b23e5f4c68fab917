import { Box, Typography } from '@mui/material';

const BENEFITS = [
  { title: 'One searchable list', text: 'Search, filter, sort and export roadmap items and Message Center posts together instead of in two portals.' },
  { title: 'See what changed', text: 'New and Updated badges for the last 7 days, and a change history showing previous and new values.' },
  { title: 'Notifications that matter', text: 'Subscribe to single items and get an e-mail when their status or details change.' },
  { title: 'A weekly digest', text: 'Every Sunday, a summary of the week’s new and updated items lands in your inbox.' },
];

/** The four benefit blocks of the landing page. */
export function Benefits() {
  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(4, 1fr)' } }}>
      {BENEFITS.map((benefit) => (
        <Box key={benefit.title} component="article">
          <Typography variant="h6" component="h3" sx={{ fontWeight: 700, mb: 0.5 }}>
            {benefit.title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {benefit.text}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
