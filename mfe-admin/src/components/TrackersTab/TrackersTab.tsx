import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button, Stack, Typography } from '@mui/material';
import { TRACKER_KIND_LABELS, type ConnectionTestResult, routes, type CreateTrackerRequest, type Tracker, type UpdateTrackerRequest } from '@radar/contracts';
import {
  callEndpoint,
  DeliveryLogDialog,
  formatChangeDate,
  serverMessageOf,
  urlOf,
  useDialogs,
  useEndpoint,
  useToast,
  type DialogProps,
} from '@radar/shared-ui';
import { errorMessageOf, useAdminAction } from '../../api/admin-actions.js';
import { fieldErrorsOf } from '../../api/field-errors.js';
import { AdminData } from '../AdminData/index.js';
import { AdminTable } from '../AdminTable/index.js';
import type { SaveProblems } from '../FormDialog/index.js';
import { TestResultView } from '../TestResultView/index.js';
import { TrackerDialog } from './TrackerDialog.js';

const LIST_KEY = urlOf(routes.trackers.list, {});

/** The dialog's field of a problem's path: its fields are the settings, so `settings.` is dropped, and a part names its field. */
const settingsField = (path: string) => path.replace(/^settings\./, '').split('.')[0] ?? path;

/** The last 100 calls to the tracker: when, what, the outcome with its status and latency, the start of the answer. */
function DeliveryLog({ payload: tracker, open, onClose }: DialogProps<Tracker>) {
  const log = useEndpoint(routes.trackers.attempts, { params: { id: tracker.id } });
  return (
    <DeliveryLogDialog
      title={`Delivery log: ${tracker.name}`}
      open={open}
      log={{ rows: log.data?.attempts, error: log.error }}
      rowKey={(a) => a.id}
      texts={{ loading: 'Loading calls...', failed: (err) => `Could not load the delivery log (${errorMessageOf(err)}).`, empty: 'No calls yet' }}
      onClose={() => onClose()}
      columns={[
        { header: 'When', cell: (a) => formatChangeDate(a.at) },
        { header: 'Call', cell: (a) => a.action },
        { header: 'Task', cell: (a) => a.taskKey ?? '—' },
        { header: 'Outcome', cell: (a) => a.outcome },
        { header: 'Status', cell: (a) => [a.statusCode, a.latencyMs !== null ? `${a.latencyMs} ms` : null].filter((v) => v !== null).join(' · ') || '—' },
        { header: 'Answer', cell: (a) => a.error ?? a.response, sx: { whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxWidth: 360 } },
      ]}
    />
  );
}

/**
 * Admin → Trackers: the work trackers triage records are pushed to (Microsoft Planner, Jira Cloud, ServiceNow). Each row: kind,
 * where, tasks linked and open, the last read and its error, paused state; Test (says what is missing), Pull now,
 * Delivery log, Change, Pause / Resume, Delete; Authorize for OAuth sign-in (`openPage` leaves for the consent page).
 */
export function TrackersTab({ openPage = (url: string) => window.location.assign(url) }: { openPage?: (url: string) => void } = {}) {
  const list = useEndpoint(routes.trackers.list, {});
  const run = useAdminAction();
  const dialogs = useDialogs();
  const [tests, setTests] = useState<Record<number, ConnectionTestResult>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [params, setParams] = useSearchParams();
  const { toast } = useToast();

  // Back from a tracker's consent page: say how it went once, then drop the parameters from the address.
  const authorized = params.get('authorized');
  const oauthError = params.get('oauthError');
  useEffect(() => {
    if (!authorized && !oauthError) return;
    if (authorized) toast({ title: 'Tracker authorized', description: 'Use Test to check it.' });
    else toast({ title: 'Not authorized', description: oauthError ?? '', variant: 'destructive' });
    setParams(
      (p) => {
        p.delete('authorized');
        p.delete('oauthError');
        return p;
      },
      { replace: true },
    );
  }, [authorized, oauthError, toast, setParams]);

  /** OAuth sign-in: the tracker's consent page, which comes back to this tab. */
  const authorize = async (tracker: Tracker) => {
    setBusy(`authorize:${tracker.id}`);
    const outcome = await run(() => callEndpoint(routes.trackers.authorize, { params: { id: tracker.id } }), {
      failure: (err) => `Could not start the authorization of ${tracker.name}: ${errorMessageOf(err)}`,
    });
    if (outcome.ok) openPage(outcome.result.url);
    else setBusy(null);
  };

  /** Connects a tracker, or changes `target`; null when saved, else the problems the dialog shows. */
  const save = async (target: Tracker | null, body: CreateTrackerRequest | UpdateTrackerRequest): Promise<SaveProblems | null> => {
    const outcome = await run(
      () =>
        target
          ? callEndpoint(routes.trackers.update, { params: { id: target.id }, body: body as UpdateTrackerRequest })
          : callEndpoint(routes.trackers.create, { body: body as CreateTrackerRequest }),
      {
        success: (saved) => ({ title: target ? 'Tracker saved' : 'Tracker connected', description: `${saved.name}: use Test to check it.` }),
        failure: (err) => `Could not save the tracker: ${errorMessageOf(err)}`,
        revalidate: [LIST_KEY],
      },
    );
    if (outcome.ok) return null;
    return { fields: fieldErrorsOf(outcome.error, settingsField), message: serverMessageOf(outcome.error) ?? errorMessageOf(outcome.error) };
  };
  const edit = (tracker: Tracker | null) =>
    void dialogs.open(TrackerDialog, {
      tracker: tracker ?? undefined,
      save: (body: CreateTrackerRequest | UpdateTrackerRequest) => save(tracker, body),
    });

  const act = async (tracker: Tracker, what: 'test' | 'pull' | 'pause' | 'resume' | 'delete') => {
    setBusy(`${what}:${tracker.id}`);
    const params = { params: { id: tracker.id } };
    if (what === 'test') {
      const outcome = await run(() => callEndpoint(routes.trackers.test, params), {
        failure: (err) => `Could not test ${tracker.name}: ${errorMessageOf(err)}`,
        revalidate: [LIST_KEY],
      });
      if (outcome.ok) setTests((t) => ({ ...t, [tracker.id]: outcome.result }));
    } else if (what === 'pull') {
      await run(() => callEndpoint(routes.trackers.pull, params), {
        success: (result) => ({ title: 'Tasks read', description: result.message }),
        failure: (err) => `Could not read the tasks of ${tracker.name}: ${errorMessageOf(err)}`,
        revalidate: [LIST_KEY],
      });
    } else if (what === 'delete') {
      if (await dialogs.confirm('Its links and queued calls go; the tasks stay in the tracker.', { title: `Delete “${tracker.name}”?`, okText: 'Delete' })) {
        await run(() => callEndpoint(routes.trackers.remove, params), {
          success: { title: 'Tracker deleted', description: `${tracker.name} is disconnected.` },
          failure: (err) => `Could not delete ${tracker.name}: ${errorMessageOf(err)}`,
          revalidate: [LIST_KEY],
        });
      }
    } else {
      await run(() => callEndpoint(routes.trackers.update, { ...params, body: { paused: what === 'pause' } }), {
        success: { title: what === 'pause' ? 'Tracker paused' : 'Tracker resumed', description: tracker.name },
        failure: (err) => `Could not ${what} ${tracker.name}: ${errorMessageOf(err)}`,
        revalidate: [LIST_KEY],
      });
    }
    setBusy(null);
  };

  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        <Typography color="text.secondary" sx={{ maxWidth: 720 }}>
          Work trackers triage records are pushed to as tasks. A task closed there makes its record Done here; owner and due date changes come back too. Tasks
          are read every 15 minutes.
        </Typography>
        <Button variant="contained" onClick={() => edit(null)}>
          Connect a tracker
        </Button>
      </Stack>
      <AdminData answer={list} what="trackers" failedWhat="the trackers">
        {(data) =>
          data.trackers.length === 0 ? (
            <Typography color="text.secondary">No tracker connected yet</Typography>
          ) : (
            <AdminTable
              label="Trackers"
              rows={data.trackers}
              rowKey={(i) => String(i.id)}
              title={(i) => i.name}
              columns={[
                { key: 'name', label: 'Name', inCardTitle: true, render: (i) => i.name },
                { key: 'kind', label: 'Tracker', render: (i) => TRACKER_KIND_LABELS[i.kind] },
                {
                  key: 'where',
                  label: 'Where',
                  maxWidth: 280,
                  render: (i) =>
                    i.kind === 'planner'
                      ? `${String(i.settings.planName || i.settings.planId)} · ${String(i.settings.bucketName || i.settings.bucketId)}`
                      : `${String(i.settings.baseUrl ?? '')} · ${String(i.settings.projectKey ?? i.settings.table ?? '')}`,
                },
                { key: 'tasks', label: 'Tasks', render: (i) => `${i.linkedTasks} linked · ${i.openTasks} open` },
                {
                  key: 'read',
                  label: 'Last read',
                  render: (i) => (
                    <Stack>
                      <span>{i.lastPullAt ? formatChangeDate(i.lastPullAt) : 'Not yet'}</span>
                      {i.lastPullError ? (
                        <Typography variant="body2" color="error">
                          {i.lastPullError}
                        </Typography>
                      ) : null}
                    </Stack>
                  ),
                },
                {
                  key: 'state',
                  label: 'State',
                  render: (i) =>
                    i.paused ? (
                      <Typography variant="body2" color="warning.main">{`Paused${i.pausedReason ? `: ${i.pausedReason}` : ''}`}</Typography>
                    ) : !i.hasSecret ? (
                      <Typography variant="body2" color="error">
                        Secret unreadable: enter it again
                      </Typography>
                    ) : i.authorization && !i.authorization.authorized ? (
                      <Typography variant="body2" color="warning.main">
                        Not authorized: use Authorize
                      </Typography>
                    ) : i.consecutiveFailures > 0 ? (
                      `${i.consecutiveFailures} failed calls in a row`
                    ) : (
                      'Active'
                    ),
                },
              ]}
              actions={(i) => (
                <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', flexWrap: 'wrap', rowGap: 1 }}>
                  {i.authorization ? (
                    <Button
                      size="small"
                      variant={i.authorization.authorized ? 'outlined' : 'contained'}
                      aria-label={`Authorize ${i.name}`}
                      disabled={busy === `authorize:${i.id}`}
                      onClick={() => void authorize(i)}
                    >
                      {i.authorization.authorized ? 'Authorize again' : 'Authorize'}
                    </Button>
                  ) : null}
                  <Button size="small" variant="outlined" aria-label={`Test ${i.name}`} disabled={busy === `test:${i.id}`} onClick={() => void act(i, 'test')}>
                    {busy === `test:${i.id}` ? 'Testing...' : 'Test'}
                  </Button>
                  <Button
                    size="small"
                    variant="outlined"
                    aria-label={`Pull now ${i.name}`}
                    disabled={busy === `pull:${i.id}` || i.paused}
                    onClick={() => void act(i, 'pull')}
                  >
                    {busy === `pull:${i.id}` ? 'Reading...' : 'Pull now'}
                  </Button>
                  <Button size="small" variant="outlined" aria-label={`Delivery log of ${i.name}`} onClick={() => void dialogs.open(DeliveryLog, i)}>
                    Delivery log
                  </Button>
                  <Button size="small" variant="outlined" aria-label={`Change ${i.name}`} onClick={() => edit(i)}>
                    Change
                  </Button>
                  <Button
                    size="small"
                    variant="outlined"
                    aria-label={`${i.paused ? 'Resume' : 'Pause'} ${i.name}`}
                    onClick={() => void act(i, i.paused ? 'resume' : 'pause')}
                  >
                    {i.paused ? 'Resume' : 'Pause'}
                  </Button>
                  <Button size="small" variant="outlined" color="error" aria-label={`Delete ${i.name}`} onClick={() => void act(i, 'delete')}>
                    Delete
                  </Button>
                </Stack>
              )}
              detail={(i) => {
                const result = tests[i.id];
                return result ? <TestResultView of={i.name} result={result} namedChecks /> : null;
              }}
            />
          )
        }
      </AdminData>
    </Stack>
  );
}
