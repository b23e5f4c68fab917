import { Typography } from '@mui/material';
import { routes, type AlertChannel } from '@radar/contracts';
import { DeliveryLogDialog as LogDialog, formatChangeDate, useEndpoint } from '@radar/shared-ui';

const OUTCOME: Record<string, string> = { sent: 'Sent', retrying: 'Will retry', failed: 'Failed', queued: 'Queued' };

/** The channel's delivery log: time, outcome, status code, latency and the start of the receiver's answer. */
export function DeliveryLogDialog({ channel, onClose }: { channel: AlertChannel; onClose: () => void }) {
  const { data, error } = useEndpoint(routes.alerts.channelDeliveries, { params: { id: channel.id } }, { dedupingInterval: 0 });
  return (
    <LogDialog
      title={`Delivery log: ${channel.name}`}
      log={{ rows: data, error }}
      rowKey={(e) => e.id}
      texts={{ loading: 'Loading...', failed: () => 'Failed to load the delivery log.', empty: 'No deliveries yet' }}
      tableLabel="Deliveries"
      maxWidth="lg"
      onClose={onClose}
      columns={[
        { header: 'Time', cell: (e) => formatChangeDate(e.at), sx: { whiteSpace: 'nowrap' } },
        { header: 'Alert', cell: (e) => e.trigger },
        { header: 'Result', cell: (e) => OUTCOME[e.outcome] ?? e.outcome },
        { header: 'Status code', cell: (e) => e.statusCode ?? '—' },
        { header: 'Latency', cell: (e) => (e.latencyMs === null ? '—' : `${e.latencyMs} ms`) },
        {
          header: 'Answer',
          sx: { wordBreak: 'break-word', maxWidth: 420 },
          cell: (e) => (
            <>
              {e.error ? (
                <Typography variant="body2" color="error">
                  {e.error}
                </Typography>
              ) : null}
              <Typography variant="body2" component="span" sx={{ fontFamily: 'monospace' }}>
                {e.response}
              </Typography>
            </>
          ),
        },
      ]}
    />
  );
}
