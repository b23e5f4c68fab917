import { useState } from 'react';
import { Alert, Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import type { TenantRelevance, UnifiedItem } from '@radar/contracts';
import { formatDate, serverMessageOf } from '@radar/shared-ui';
import { useItemRelevance } from '../../api/relevance.js';
import { RELEVANCE_LABELS, RELEVANCE_ORDER } from '../../state/relevance-levels.js';

/** Tenants shown before "Show all": the panel sits beside the triage panel and must not push it out of reach. */
export const RELEVANCE_TENANTS_SHOWN = 5;

const rank = (t: Pick<TenantRelevance, 'level'>) => RELEVANCE_ORDER.indexOf(t.level);

export interface RelevancePanelProps {
  item: UnifiedItem;
}

/**
 * The item dialog's Relevance section for signed-in users: for each tenant they may see, how relevant the item is
 * (High, Medium, Low, Unknown, in words, never by colour alone) and why, read from the tenant's usage; most relevant
 * first (docs/product/relevance.md).
 */
export function RelevancePanel({ item }: RelevancePanelProps) {
  const answer = useItemRelevance(item);
  const [all, setAll] = useState(false);
  const headingId = `relevance-${item.id}`;
  // The api answers most relevant first; a stable sort keeps its order among equals (and its order if it ever changes).
  const tenants = [...(answer.data?.tenants ?? [])].sort((a, b) => rank(a) - rank(b));
  const shown = all ? tenants : tenants.slice(0, RELEVANCE_TENANTS_SHOWN);
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2, mb: 2 }}>
      <Typography id={headingId} variant="subtitle1" component="h3" sx={{ fontWeight: 700, mb: 1 }}>
        Relevance
      </Typography>
      {answer.error ? (
        <Alert severity="error">{serverMessageOf(answer.error) ?? 'Could not load the relevance.'}</Alert>
      ) : !answer.data ? (
        <Typography color="text.secondary">Loading…</Typography>
      ) : tenants.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No tenant&apos;s usage read yet
        </Typography>
      ) : (
        <>
          <Stack component="ul" spacing={1.5} sx={{ m: 0, p: 0, listStyle: 'none' }} aria-label="Relevance per tenant">
            {shown.map((tenant) => (
              <Box component="li" key={tenant.tenantId} data-relevance={tenant.level}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Chip
                    size="small"
                    variant={tenant.level === 'high' ? 'filled' : 'outlined'}
                    color={tenant.level === 'high' || tenant.level === 'medium' ? 'primary' : 'default'}
                    label={RELEVANCE_LABELS[tenant.level]}
                  />
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {tenant.tenantName}
                  </Typography>
                </Stack>
                <Typography variant="body2" sx={{ mt: 0.5 }}>
                  {tenant.reason}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  As of {formatDate(tenant.computedAt)}
                </Typography>
              </Box>
            ))}
          </Stack>
          {tenants.length > shown.length ? (
            <Button size="small" sx={{ mt: 1 }} onClick={() => setAll(true)}>
              {`Show all ${tenants.length} tenants`}
            </Button>
          ) : null}
        </>
      )}
    </Paper>
  );
}
