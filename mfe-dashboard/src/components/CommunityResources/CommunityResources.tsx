import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import type { ThirdPartyLink } from '@radar/contracts';

export interface CommunityResourcesProps {
  links: ThirdPartyLink[];
  moderatedBy: string | null;
}

/** Third-party links a moderator curated; nothing when there are none. */
export function CommunityResources({ links, moderatedBy }: CommunityResourcesProps) {
  if (links.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="community-resources-heading">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography id="community-resources-heading" variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          Community Resources
        </Typography>
        {moderatedBy ? <Chip size="small" variant="outlined" label="Curated by moderator" /> : null}
      </Stack>
      <Stack spacing={1}>
        {links.map((link, index) => (
          <Stack
            key={`${link.url}-${index}`}
            direction="row"
            spacing={1}
            sx={{ alignItems: 'center', border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }}
          >
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {link.title || link.name}
              </Typography>
              {link.description ? (
                <Typography variant="body2" color="text.secondary">
                  {link.description}
                </Typography>
              ) : null}
              <Chip size="small" label={link.type} sx={{ mt: 0.5, textTransform: 'capitalize' }} />
            </Box>
            <Button size="small" variant="outlined" href={link.url} target="_blank" rel="noopener noreferrer" aria-label={`Open ${link.title || link.name}`}>
              Open
            </Button>
          </Stack>
        ))}
      </Stack>
    </Box>
  );
}
