import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { routes, type AlertChannel } from '@radar/contracts';
import { formatChangeDate, useEndpoint } from '@radar/shared-ui';

const OUTCOME: Record<string, string> = { sent: 'Sent', retrying: 'Will retry', failed: 'Failed', queued: 'Queued' };

/** The channel's delivery log: time, outcome, status code, latency and the start of the receiver's answer. */
export function DeliveryLogDialog({ channel, onClose }: { channel: AlertChannel; onClose: () => void }) {
  const { data, isLoading, error } = useEndpoint(routes.alerts.channelDeliveries, { params: { id: channel.id } }, { dedupingInterval: 0 });
  return (
    <Dialog open onClose={onClose} aria-labelledby="delivery-log-title" maxWidth="lg" fullWidth>
      <DialogTitle id="delivery-log-title">Delivery log: {channel.name}</DialogTitle>
      <DialogContent>
        {isLoading ? (
          <Typography>Loading...</Typography>
        ) : error ? (
          <Typography role="alert" color="error">
            Failed to load the delivery log.
          </Typography>
        ) : !data?.length ? (
          <Typography>No deliveries yet</Typography>
        ) : (
          <Table size="small" aria-label="Deliveries">
            <TableHead>
              <TableRow>
                <TableCell>Time</TableCell>
                <TableCell>Alert</TableCell>
                <TableCell>Result</TableCell>
                <TableCell>Status code</TableCell>
                <TableCell>Latency</TableCell>
                <TableCell>Answer</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((e) => (
                <TableRow key={e.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatChangeDate(e.at)}</TableCell>
                  <TableCell>{e.trigger}</TableCell>
                  <TableCell>{OUTCOME[e.outcome] ?? e.outcome}</TableCell>
                  <TableCell>{e.statusCode ?? '—'}</TableCell>
                  <TableCell>{e.latencyMs === null ? '—' : `${e.latencyMs} ms`}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-word', maxWidth: 420 }}>
                    {e.error ? (
                      <Typography variant="body2" color="error">
                        {e.error}
                      </Typography>
                    ) : null}
                    <Typography variant="body2" component="span" sx={{ fontFamily: 'monospace' }}>
                      {e.response}
                    </Typography>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
