import { useState } from 'react';
import { Alert, Box, Button, Stack, Tooltip, Typography } from '@mui/material';
import { routes, REMOTE_LABELS, type RemoteEntry, type RemoteTestResult } from '@radar/contracts';
import { callEndpoint, formatChangeDate, serverMessageOf, urlOf, useEndpoint } from '@radar/shared-ui';
import { errorMessageOf, useAdminAction } from '../../api/admin-actions.js';
import { AdminData } from '../AdminData/index.js';
import { AdminTable } from '../AdminTable/index.js';
import { RemoteUrlDialog } from './RemoteUrlDialog.js';

const LIST_KEY = urlOf(routes.remotes.list, {});

/** A test's outcome as an alert: green when it fits, amber when it could not be compared, red when it cannot load. */
function TestOutcome({ result }: { result: RemoteTestResult }) {
  const severity = !result.ok ? 'error' : result.compatible === null ? 'warning' : 'success';
  return (
    <Alert severity={severity} aria-label={`Test result for ${REMOTE_LABELS[result.name]}`}>
      {result.message}
    </Alert>
  );
}

/**
 * Remotes: which build of each remote the shell loads. Name, URL, the version its manifest states, when a
 * browser last loaded it, and Test (the server fetches the manifest and checks it as the shell does), Change URL and
 * Roll back (to the URL before the last change).
 */
export function RemotesTab() {
  const remotes = useEndpoint(routes.remotes.list, {});
  const run = useAdminAction();
  const [editing, setEditing] = useState<RemoteEntry | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [tests, setTests] = useState<Partial<Record<RemoteEntry['name'], RemoteTestResult>>>({});

  const test = async (remote: RemoteEntry) => {
    setBusy(`test:${remote.name}`);
    const outcome = await run(() => callEndpoint(routes.remotes.test, { params: { name: remote.name } }), {
      failure: (err) => `Could not test ${REMOTE_LABELS[remote.name]}: ${errorMessageOf(err)}`,
    });
    if (outcome.ok) setTests((current) => ({ ...current, [remote.name]: outcome.result }));
    setBusy(null);
  };
  const save = async (remote: RemoteEntry, url: string) => {
    setSaving(true);
    setSaveError(null);
    const outcome = await run(() => callEndpoint(routes.remotes.update, { params: { name: remote.name }, body: { url } }), {
      success: (updated) => ({ title: 'Remote updated', description: `${REMOTE_LABELS[remote.name]} now loads ${updated.url} on the next page load.` }),
      failure: (err) => `Could not change ${REMOTE_LABELS[remote.name]}: ${errorMessageOf(err)}`,
      revalidate: [LIST_KEY],
    });
    setSaving(false);
    if (outcome.ok) {
      setEditing(null);
      setTests(({ [remote.name]: _dropped, ...rest }) => rest);
    } else {
      setSaveError(serverMessageOf(outcome.error) ?? errorMessageOf(outcome.error));
    }
  };
  const rollback = async (remote: RemoteEntry) => {
    setBusy(`rollback:${remote.name}`);
    await run(() => callEndpoint(routes.remotes.rollback, { params: { name: remote.name } }), {
      success: (updated) => ({ title: 'Remote rolled back', description: `${REMOTE_LABELS[remote.name]} loads ${updated.url} again on the next page load.` }),
      failure: (err) => `Could not roll back ${REMOTE_LABELS[remote.name]}: ${errorMessageOf(err)}`,
      revalidate: [LIST_KEY],
    });
    setTests(({ [remote.name]: _dropped, ...rest }) => rest);
    setBusy(null);
  };

  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">
        Which build of each part of the site browsers load. A change applies on each browser&apos;s next page load, without a restart; Roll back returns to the
        URL before the last change.
      </Typography>
      <AdminData answer={remotes} what="remotes" failedWhat="the remotes">
        {(data) => (
          <AdminTable
            label="Remotes"
            rows={data}
            rowKey={(remote) => remote.name}
            title={(remote) => REMOTE_LABELS[remote.name]}
            columns={[
              { key: 'remote', label: 'Remote', inCardTitle: true, render: (remote) => REMOTE_LABELS[remote.name] },
              { key: 'url', label: 'URL', maxWidth: 360, render: (remote) => <Box sx={{ wordBreak: 'break-all' }}>{remote.url}</Box> },
              { key: 'version', label: 'Version', render: (remote) => remote.version ?? 'Unknown (manifest not readable)' },
              {
                key: 'loaded',
                label: 'Last loaded',
                render: (remote) => (remote.lastLoadedAt ? formatChangeDate(remote.lastLoadedAt) : 'Not since the last change'),
              },
            ]}
            actions={(remote) => {
              const label = REMOTE_LABELS[remote.name];
              return (
                <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', flexWrap: 'wrap', rowGap: 1 }}>
                  <Button
                    size="small"
                    variant="outlined"
                    aria-label={`Test ${label}`}
                    disabled={busy === `test:${remote.name}`}
                    onClick={() => void test(remote)}
                  >
                    {busy === `test:${remote.name}` ? 'Testing...' : 'Test'}
                  </Button>
                  <Button
                    size="small"
                    variant="outlined"
                    aria-label={`Change URL of ${label}`}
                    onClick={() => {
                      setSaveError(null);
                      setEditing(remote);
                    }}
                  >
                    Change URL
                  </Button>
                  <Tooltip title={remote.previousUrl ? `Back to ${remote.previousUrl}` : 'No previous URL'}>
                    <span>
                      <Button
                        size="small"
                        variant="outlined"
                        color="warning"
                        aria-label={`Roll back ${label}`}
                        disabled={!remote.previousUrl || busy === `rollback:${remote.name}`}
                        onClick={() => void rollback(remote)}
                      >
                        Roll back
                      </Button>
                    </span>
                  </Tooltip>
                </Stack>
              );
            }}
            detail={(remote) => {
              const result = tests[remote.name];
              return result ? <TestOutcome result={result} /> : null;
            }}
          />
        )}
      </AdminData>
      {editing ? (
        <RemoteUrlDialog
          label={REMOTE_LABELS[editing.name]}
          url={editing.url}
          busy={saving}
          serverError={saveError}
          onSave={(url) => void save(editing, url)}
          onCancel={() => setEditing(null)}
        />
      ) : null}
    </Stack>
  );
}
