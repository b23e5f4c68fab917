import { useState } from 'react';
import { Card, CardContent, FormControlLabel, FormGroup, Skeleton, Switch, Typography } from '@mui/material';
import { routes, type TriageMailKind } from '@radar/contracts';
import { callEndpoint, serverMessageOf, useEndpoint, useToast } from '@radar/shared-ui';

/** Triage mail: each kind on or off (the one-click links in the mails switch them off; here they come back on). */
export function TriageMailCard() {
  const settings = useEndpoint(routes.triage.mailSettings, {});
  const { toast } = useToast();
  const [busy, setBusy] = useState(false);

  const toggle = async (kind: TriageMailKind, on: boolean) => {
    const kinds = settings.data?.kinds ?? [];
    const enabled = kinds.filter((k) => (k.kind === kind ? on : k.enabled)).map((k) => k.kind);
    setBusy(true);
    try {
      await settings.mutate(await callEndpoint(routes.triage.updateMailSettings, { body: { enabled } }), { revalidate: false });
      toast({ title: 'Saved', description: 'Your triage mail settings were saved.' });
    } catch (error) {
      toast({ title: 'Error', description: serverMessageOf(error) ?? 'Could not save your triage mail settings', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card variant="outlined" component="section" aria-labelledby="triage-mail-card-title">
      <CardContent>
        <Typography id="triage-mail-card-title" variant="h6" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
          Triage mail
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          At most one mail a day about your triage: items given to you, comments that mention you, and your items that are due in 7 days or became overdue.
        </Typography>
        {settings.data ? (
          <FormGroup>
            {settings.data.kinds.map((k) => (
              <FormControlLabel
                key={k.kind}
                control={<Switch checked={k.enabled} disabled={busy} onChange={(e) => void toggle(k.kind, e.target.checked)} />}
                label={k.label}
              />
            ))}
          </FormGroup>
        ) : settings.error ? (
          <Typography color="error">Could not load your triage mail settings.</Typography>
        ) : (
          <Skeleton height={120} />
        )}
      </CardContent>
    </Card>
  );
}
