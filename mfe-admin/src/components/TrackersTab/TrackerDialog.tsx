import { useState } from 'react';
import { DialogContentText, FormControlLabel, MenuItem, Stack, Switch, TextField } from '@mui/material';
import { formErrorsOf } from '../../api/field-errors.js';
import { FormDialog, useDialogSave, type SaveProblems } from '../FormDialog/index.js';
import { useEndpoint, type DialogProps } from '@radar/shared-ui';
import {
  createTrackerRequest,
  routes,
  TRACKER_KIND_LABELS,
  TRACKER_KINDS,
  TRIAGE_PRIORITY_LABELS,
  TRIAGE_PRIORITIES,
  type CreateTrackerRequest,
  type Tracker,
  type TrackerKind,
  type UpdateTrackerRequest,
} from '@radar/contracts';

/** What Admin → Trackers opens the dialog with. */
export interface TrackerDialogPayload {
  /** The tracker to change; absent: connect a new one. */
  tracker?: Tracker;
  /** Sends the form: null when saved, else why not (field problems by field, `settings.` prefixes dropped). */
  save: (body: CreateTrackerRequest | UpdateTrackerRequest) => Promise<SaveProblems | null>;
}

type Draft = Record<string, string> & { kind: TrackerKind };

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** What a new connection maps the triage priorities to: Jira's default priority names, ServiceNow's default values. */
const DEFAULT_PRIORITIES: Record<TrackerKind, Record<string, string>> = {
  planner: { high: '3', medium: '5', low: '9' },
  jira: { high: 'High', medium: 'Medium', low: 'Low' },
  servicenow: { high: '2', medium: '3', low: '4' },
};
const priorityFields = (values: Record<string, string> | null) => Object.fromEntries(TRIAGE_PRIORITIES.map((p) => [`priority_${p}`, values?.[p] ?? '']));

/** The draft of a tracker: its settings as text fields, priorities one per triage priority. */
function draftOf(tracker: Tracker | undefined): Draft {
  const s = tracker?.settings ?? {};
  const priorities = (s.priorities ?? null) as Record<string, string> | null;
  return {
    kind: tracker?.kind ?? 'jira',
    name: tracker?.name ?? '',
    baseUrl: text(s.baseUrl),
    email: text(s.email),
    projectKey: text(s.projectKey),
    issueType: text(s.issueType) || 'Task',
    username: text(s.username),
    table: text(s.table) || 'sc_task',
    assignmentGroup: text(s.assignmentGroup),
    auth: text(s.auth) === 'oauth' ? 'oauth' : 'password',
    plannerAuth: text(s.auth) === 'delegated' ? 'delegated' : 'application',
    clientId: text(s.clientId),
    tenantId: typeof s.tenantId === 'number' ? String(s.tenantId) : '',
    groupId: text(s.groupId),
    planId: text(s.planId),
    bucketId: text(s.bucketId),
    planName: text(s.planName),
    bucketName: text(s.bucketName),
    labels: Array.isArray(s.labels) ? (s.labels as string[]).join(' ') : 'm365-radar',
    setDueDate: s.setDueDate === false ? 'no' : 'yes',
    privateTenantIds: Array.isArray(s.privateTenantIds) ? (s.privateTenantIds as number[]).join(',') : '',
    secret: '',
    ...priorityFields(tracker ? priorities : DEFAULT_PRIORITIES.jira),
  };
}

/**
 * Connect or change a tracker. The rules are the API's own schemas, so a field is refused with the words the server
 * would use; a stored API token or password is never shown (empty keeps it).
 */
export function TrackerDialog({ payload: { tracker, save: send }, open, onClose }: DialogProps<TrackerDialogPayload>) {
  const { busy, problems: refused, submit } = useDialogSave(send, () => onClose());
  const serverErrors = refused.fields;
  const [draft, setDraft] = useState<Draft>(() => draftOf(tracker));
  const [tried, setTried] = useState(false);
  const jira = draft.kind === 'jira';
  const planner = draft.kind === 'planner';
  const oauth = !planner && draft.auth === 'oauth';
  const tenantId = Number(draft.tenantId) || 0;
  const tenants = useEndpoint(routes.tenants.list, {});
  const privateTenantIds = (draft.privateTenantIds ?? '').split(',').filter(Boolean).map(Number);
  const options = useEndpoint(
    routes.trackers.plannerOptions,
    planner && tenantId
      ? { query: { tenantId, ...(draft.groupId ? { groupId: draft.groupId } : {}), ...(draft.planId ? { planId: draft.planId } : {}) } }
      : null,
    // The lists already read stay while the next level is read, so a chosen group does not blank the form.
    { keepPreviousData: true },
  );
  const priorities = TRIAGE_PRIORITIES.every((p) => draft[`priority_${p}`]?.trim())
    ? Object.fromEntries(TRIAGE_PRIORITIES.map((p) => [p, draft[`priority_${p}`]?.trim() ?? '']))
    : null;
  const settings = planner
    ? {
        auth: draft.plannerAuth === 'delegated' ? 'delegated' : 'application',
        tenantId,
        groupId: draft.groupId,
        planId: draft.planId,
        bucketId: draft.bucketId,
        planName: draft.planName,
        bucketName: draft.bucketName,
        priorities,
        setDueDate: draft.setDueDate === 'yes',
        privateTenantIds,
      }
    : jira
      ? {
          baseUrl: draft.baseUrl,
          auth: oauth ? 'oauth' : 'token',
          email: oauth ? '' : draft.email,
          clientId: oauth ? draft.clientId : '',
          projectKey: draft.projectKey,
          issueType: draft.issueType,
          labels: (draft.labels ?? '').split(/\s+/).filter(Boolean),
          priorities,
          setDueDate: draft.setDueDate === 'yes',
          privateTenantIds,
        }
      : {
          baseUrl: draft.baseUrl,
          auth: oauth ? 'oauth' : 'basic',
          username: oauth ? '' : draft.username,
          clientId: oauth ? draft.clientId : '',
          table: draft.table,
          assignmentGroup: draft.assignmentGroup,
          priorities,
          setDueDate: draft.setDueDate === 'yes',
          privateTenantIds,
        };
  const secretField = planner ? null : oauth ? 'clientSecret' : jira ? 'apiToken' : 'password';
  // The stored secret is kept only while the tracker signs in the way it was stored for.
  const sameSignIn = tracker !== undefined && String(tracker.settings.auth ?? '') === String(settings.auth ?? '');
  const callbackUrl = tracker?.authorization?.callbackUrl ?? `${window.location.origin}/api/admin/integrations/oauth/callback`;
  const createBody = { kind: draft.kind, name: draft.name, ...settings, ...(secretField ? { [secretField]: draft.secret } : {}) } as CreateTrackerRequest;
  const parsed = createTrackerRequest.safeParse(sameSignIn && secretField && !draft.secret ? { ...createBody, [secretField]: 'kept' } : createBody);
  const problems = formErrorsOf(parsed);
  const problemOf = (key: string) => (tried ? problems[key] : undefined) ?? serverErrors[key];
  const save = () => {
    setTried(true);
    if (!parsed.success) return;
    if (!tracker) return void submit(createBody);
    void submit({ name: draft.name, settings, ...(secretField && draft.secret ? { [secretField]: draft.secret } : {}) } as UpdateTrackerRequest);
  };
  const field = (key: string, label: string, helper: string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      key={key}
      fullWidth
      label={label}
      value={draft[key] ?? ''}
      onChange={(event) => setDraft((d) => ({ ...d, [key]: event.target.value }))}
      error={Boolean(problemOf(key))}
      helperText={problemOf(key) ?? helper}
      {...extra}
    />
  );
  /**
   * A Planner id chosen from the list Graph gave, or typed in when the list could not be read (a missing
   * Group.Read.All, say); choosing one clears the choices below it.
   */
  const choice = (key: 'groupId' | 'planId' | 'bucketId', label: string, list: { id: string; name: string }[] | undefined, below: string[], helper: string) => {
    const nameKey = key === 'planId' ? 'planName' : key === 'bucketId' ? 'bucketName' : null;
    const pick = (id: string) =>
      setDraft((d) => ({
        ...d,
        [key]: id,
        ...(nameKey ? { [nameKey]: list?.find((o) => o.id === id)?.name ?? '' } : {}),
        ...Object.fromEntries(below.map((b) => [b, ''])),
      }));
    const known = list && list.length > 0 && (!draft[key] || list.some((o) => o.id === draft[key]));
    const reading = !list?.length && options.isLoading;
    return field(key, label, reading ? 'Reading the list from Graph...' : helper, {
      disabled: reading,
      ...(known
        ? {
            select: true,
            children: list.map((o) => (
              <MenuItem key={o.id} value={o.id}>
                {o.name}
              </MenuItem>
            )),
          }
        : {}),
      onChange: (event) => pick(event.target.value),
    });
  };
  /** The private tenants whose posts may go into this tracker's tasks (public tenants' always may). */
  const privateTenantsField = () => {
    const choices = (tenants.data ?? []).filter((t) => t.visibility === 'private' && !(planner && t.id === tenantId));
    if (choices.length === 0) return null;
    return (
      <TextField
        fullWidth
        select
        label="Private tenants it may carry"
        value={privateTenantIds.map(String)}
        slotProps={{
          select: {
            multiple: true,
            renderValue: (ids: unknown) => (ids as string[]).map((id) => choices.find((t) => String(t.id) === id)?.name ?? `Tenant ${id}`).join(', ') || 'None',
          },
        }}
        onChange={(event) => {
          const picked = event.target.value as unknown as string[] | string;
          setDraft((d) => ({ ...d, privateTenantIds: (Array.isArray(picked) ? picked : picked.split(',')).filter(Boolean).join(',') }));
        }}
        error={Boolean(problemOf('privateTenantIds'))}
        helperText={
          problemOf('privateTenantIds') ??
          (planner
            ? "Besides its own tenant: their posts' titles and text go into its tasks"
            : "Their posts' titles and text go into its tasks; public tenants' always may")
        }
      >
        {choices.map((t) => (
          <MenuItem key={t.id} value={String(t.id)}>
            {t.name}
          </MenuItem>
        ))}
      </TextField>
    );
  };
  const plannerFields = () => {
    const tenantList = tenants.data ?? [];
    const found = options.data;
    return (
      <>
        {field('tenantId', 'Tenant', tenants.error ? 'The tenants could not be read' : 'Its app signs in to Planner (Admin → Tenants)', {
          select: true,
          onChange: (event) => setDraft((d) => ({ ...d, tenantId: event.target.value, groupId: '', planId: '', bucketId: '', planName: '', bucketName: '' })),
          children: tenantList.length
            ? tenantList.map((t) => (
                <MenuItem key={t.id} value={String(t.id)} disabled={!t.secretSet}>
                  {t.secretSet ? t.name : `${t.name} (no client secret)`}
                </MenuItem>
              ))
            : [
                <MenuItem key="none" value="" disabled>
                  No tenant connected yet
                </MenuItem>,
              ],
        })}
        {field(
          'plannerAuth',
          'Sign in as',
          draft.plannerAuth === 'delegated' ? 'An admin authorizes it in the browser after saving' : 'Needs Tasks.ReadWrite.All (application)',
          {
            select: true,
            children: [
              <MenuItem key="application" value="application">
                {"The tenant's app (application permission)"}
              </MenuItem>,
              <MenuItem key="delegated" value="delegated">
                A user who authorizes it (delegated)
              </MenuItem>,
            ],
          },
        )}
        {draft.plannerAuth === 'delegated' ? (
          <DialogContentText variant="body2">{`Register this redirect URI (Web) in the tenant's app: ${callbackUrl}`}</DialogContentText>
        ) : null}
        {tenantId ? (
          <>
            {found?.problem ? <DialogContentText color="warning.main">{`${found.problem}. Paste the id instead.`}</DialogContentText> : null}
            {choice('groupId', 'Group', found?.groups, ['planId', 'bucketId', 'planName', 'bucketName'], 'The Microsoft 365 group the plan belongs to')}
            {draft.groupId ? choice('planId', 'Plan', found?.plans, ['bucketId', 'bucketName'], 'Where tasks are made') : null}
            {draft.planId ? choice('bucketId', 'Bucket', found?.buckets, [], 'The column new tasks go in') : null}
          </>
        ) : null}
      </>
    );
  };
  return (
    <FormDialog
      title={tracker ? `Change ${tracker.name}` : 'Connect a tracker'}
      intro={
        planner
          ? "A connected tenant's app with the Tasks.ReadWrite.All application permission (and User.Read.All to assign owners, Group.Read.All to list groups), granted with admin consent."
          : jira
            ? 'A Jira Cloud account (e-mail and API token) that may browse, create and edit issues and add comments in the project.'
            : 'A ServiceNow user (name and password) that may read, create and update records of the table, e.g. with the itil role.'
      }
      open={open}
      busy={busy}
      error={refused.message}
      onSave={save}
      onCancel={() => onClose()}
    >
      {tracker
        ? null
        : field('kind', 'Tracker', 'Where tasks are made', {
            select: true,
            onChange: (event) => {
              const kind = event.target.value as TrackerKind;
              setDraft((d) => ({ ...d, kind, ...priorityFields(DEFAULT_PRIORITIES[kind]) }));
            },
            children: TRACKER_KINDS.map((k) => (
              <MenuItem key={k} value={k}>
                {TRACKER_KIND_LABELS[k]}
              </MenuItem>
            )),
          })}
      {field('name', 'Name', 'How the connection is shown, e.g. “Change board”', { autoFocus: true })}
      {planner ? (
        plannerFields()
      ) : (
        <>
          {field('baseUrl', jira ? 'Site URL' : 'Instance URL', jira ? 'https://your-site.atlassian.net' : 'https://your-instance.service-now.com')}
          {field('auth', 'Sign in with', oauth ? 'An admin authorizes it in the browser after saving' : 'A service account is simplest', {
            select: true,
            children: [
              <MenuItem key="password" value="password">
                {jira ? 'E-mail and API token' : 'User name and password'}
              </MenuItem>,
              <MenuItem key="oauth" value="oauth">
                {jira ? 'OAuth 2.0 (3LO) app' : 'OAuth client (Application Registry)'}
              </MenuItem>,
            ],
          })}
          {oauth ? (
            <>
              {field('clientId', 'Client ID', jira ? 'From the app at developer.atlassian.com' : "From the instance's Application Registry")}
              <DialogContentText variant="body2">{`Register this callback URL with the app: ${callbackUrl}`}</DialogContentText>
            </>
          ) : jira ? (
            field('email', 'Account e-mail', 'The Atlassian account the API token belongs to')
          ) : (
            field('username', 'User name', 'The ServiceNow user')
          )}
          {field('secret', oauth ? 'Client secret' : jira ? 'API token' : 'Password', '', {
            type: 'password',
            autoComplete: 'new-password',
            error: Boolean(problemOf(secretField ?? '')),
            helperText:
              problemOf(secretField ?? '') ??
              (sameSignIn && tracker
                ? tracker.hasSecret
                  ? 'Set. Leave empty to keep it.'
                  : 'Cannot be read any more: enter it again.'
                : 'Stored sealed and never shown again'),
          })}
          {jira ? field('projectKey', 'Project key', 'e.g. CHG') : field('table', 'Table', 'sc_task, change_request or another task table')}
          {jira ? field('issueType', 'Issue type', 'e.g. Task or Story') : field('assignmentGroup', 'Assignment group', 'Optional: its name or sys_id')}
          {jira ? field('labels', 'Labels', 'Words every issue gets, separated by spaces') : null}
        </>
      )}
      <Stack direction="row" spacing={1}>
        {TRIAGE_PRIORITIES.map((p) =>
          field(`priority_${p}`, `${TRIAGE_PRIORITY_LABELS[p]} priority`, planner ? '0-10 (1 urgent, 9 low)' : jira ? 'Jira priority name' : 'priority value', {
            error: Boolean(problemOf('priorities')),
          }),
        )}
      </Stack>
      <FormControlLabel
        control={
          <Switch checked={draft.setDueDate === 'yes'} onChange={(event) => setDraft((d) => ({ ...d, setDueDate: event.target.checked ? 'yes' : 'no' }))} />
        }
        label="Set the task's due date from triage"
      />
      {privateTenantsField()}
    </FormDialog>
  );
}
