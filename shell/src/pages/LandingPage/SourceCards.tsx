import { Box, Card, CardContent, Typography } from '@mui/material';
import type { DashboardStatsResponse } from '@radar/contracts';
import { formatCount } from '@radar/shared-ui';

/** The two sources: Roadmap Intelligence and Message Center, with live totals when known. */
export function SourceCards({ stats }: { stats: DashboardStatsResponse | undefined }) {
  const cards = [
    {
      title: 'Roadmap Intelligence',
      count: stats?.bySource.roadmap,
      unit: 'roadmap items',
      text: 'Every feature on the public AI at Work Roadmap (formerly the Microsoft 365 Roadmap: Microsoft 365, Dynamics 365 and Power Platform), with its status, release phase, cloud instances and a field-by-field change history.',
    },
    {
      title: 'Message Center',
      count: stats?.bySource.messages,
      unit: 'announcements',
      text: 'Message Center posts with their services, tags, user and admin impact, linked to the roadmap items they announce.',
    },
  ];
  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      {cards.map((card) => (
        <Card key={card.title} variant="outlined" component="article">
          <CardContent>
            <Typography variant="h5" component="h3" sx={{ fontWeight: 700, mb: 1 }}>
              {card.title}
            </Typography>
            {card.count !== undefined ? (
              <Typography color="primary" sx={{ fontWeight: 600, mb: 1 }}>
                {formatCount(card.count)} {card.unit} tracked
              </Typography>
            ) : null}
            <Typography color="text.secondary">{card.text}</Typography>
          </CardContent>
        </Card>
      ))}
    </Box>
  );
}
