import { useState } from 'react';
import { Box, Button, Chip, Link, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { TRACKER_KIND_LABELS, TRACKER_TASK_STATUS_LABELS, type TrackerTask, type UnifiedItem } from '@radar/contracts';
import { serverMessageOf, useToast } from '@radar/shared-ui';
import { pushTask, useTrackerTasks } from '../../api/triage.js';

export interface TrackerTasksProps {
  item: UnifiedItem;
  /** The record shown in the Triage panel: its tenant's task is the one pushed. */
  tenantId: number | null;
}

const STATUS_COLOR: Record<TrackerTask['status'], 'default' | 'success' | 'warning' | 'error' | 'info'> = {
  queued: 'info',
  open: 'default',
  done: 'success',
  deleted: 'warning',
  failed: 'error',
};

/**
 * The item's tasks in the work trackers (Jira, ServiceNow): each with its key, the tracker's own state and a link. A
 * moderator or admin pushes the record shown to a tracker: "Create task" makes it, "Update task" brings it up to
 * date; a task deleted in the tracker is made again only with "Create again".
 */
export function TrackerTasks({ item, tenantId }: TrackerTasksProps) {
  const tasks = useTrackerTasks(item);
  const { toast } = useToast();
  const [target, setTarget] = useState<number | ''>('');
  const [busy, setBusy] = useState(false);
  const data = tasks.data;
  if (!data || (data.tasks.length === 0 && data.targets.length === 0)) return null;
  const chosen = target === '' ? data.targets[0]?.id : target;
  const existing = data.tasks.find((t) => t.trackerId === chosen && t.tenantId === tenantId);

  const push = async (recreate: boolean) => {
    if (chosen === undefined) return;
    setBusy(true);
    try {
      const task = await pushTask(item, tenantId, chosen, recreate);
      toast(
        task.status === 'queued'
          ? { title: 'Task queued', description: `${task.trackerName} did not answer yet: the task is made as soon as it does.` }
          : { title: existing && !recreate ? 'Task updated' : 'Task created', description: `${task.key ?? ''} in ${task.trackerName}`.trim() },
      );
      await tasks.mutate();
    } catch (error) {
      toast({ title: 'Error', description: serverMessageOf(error) ?? 'Could not push the task', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="section" aria-label="Tasks in trackers" sx={{ mt: 2 }}>
      <Typography variant="subtitle2" component="h4" sx={{ mb: 1 }}>
        Tasks
      </Typography>
      {data.tasks.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No task yet
        </Typography>
      ) : (
        <Stack spacing={0.5} component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
          {data.tasks.map((task) => (
            <Stack key={`${task.trackerId}:${task.tenantId ?? 0}`} component="li" direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography variant="body2">{`${TRACKER_KIND_LABELS[task.kind]} · ${task.trackerName}:`}</Typography>
              {task.url && task.key ? (
                <Link href={task.url} target="_blank" rel="noopener noreferrer" variant="body2">
                  {task.key}
                </Link>
              ) : null}
              {task.remoteState && task.status !== 'deleted' ? <Typography variant="body2" color="text.secondary">{`(${task.remoteState})`}</Typography> : null}
              <Chip size="small" color={STATUS_COLOR[task.status]} label={TRACKER_TASK_STATUS_LABELS[task.status]} />
              {task.status === 'failed' && task.lastError ? (
                <Typography variant="body2" color="error">
                  {task.lastError}
                </Typography>
              ) : null}
            </Stack>
          ))}
        </Stack>
      )}
      {data.targets.length > 0 ? (
        <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
          {data.targets.length > 1 ? (
            <TextField select size="small" label="Tracker" value={chosen ?? ''} onChange={(e) => setTarget(Number(e.target.value))} sx={{ minWidth: 200 }}>
              {data.targets.map((t) => (
                <MenuItem key={t.id} value={t.id}>
                  {`${t.name} (${TRACKER_KIND_LABELS[t.kind]})`}
                </MenuItem>
              ))}
            </TextField>
          ) : null}
          {existing?.status === 'deleted' ? (
            <Button size="small" variant="outlined" disabled={busy} onClick={() => void push(true)}>
              {busy ? 'Pushing…' : 'Create again'}
            </Button>
          ) : (
            <Button size="small" variant="outlined" disabled={busy} onClick={() => void push(false)}>
              {busy
                ? 'Pushing…'
                : existing
                  ? `Update task in ${data.targets.find((t) => t.id === chosen)?.name ?? 'tracker'}`
                  : `Create task in ${data.targets.find((t) => t.id === chosen)?.name ?? 'tracker'}`}
            </Button>
          )}
        </Stack>
      ) : null}
    </Box>
  );
}
