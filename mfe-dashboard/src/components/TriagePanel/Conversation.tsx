import { useState } from 'react';
import { Box, Button, Stack, TextField, Typography } from '@mui/material';
import { TRIAGE_COMMENT_MAX_CHARS, type TriageComment, type TriageRecordResponse, type UnifiedItem } from '@radar/contracts';
import { formatChangeDate, serverMessageOf, useToast } from '@radar/shared-ui';
import { addTriageComment, deleteTriageComment, editTriageComment, useTriageComments } from '../../api/triage.js';

export function Conversation({ item, record, onChanged }: { item: UnifiedItem; record: TriageRecordResponse; onChanged: () => Promise<unknown> }) {
  const comments = useTriageComments(item, record.tenantId);
  const { toast } = useToast();
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const mayWrite = record.canEdit !== 'none';

  const run = async (action: () => Promise<unknown>, failure: string) => {
    setBusy(true);
    try {
      await action();
      await Promise.all([comments.mutate(), onChanged()]);
      return true;
    } catch (error) {
      toast({ title: 'Error', description: serverMessageOf(error) ?? failure, variant: 'destructive' });
      return false;
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={1.5}>
      <Typography variant="subtitle2" component="h4">
        Conversation
      </Typography>
      {comments.data?.comments.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No comments yet.
        </Typography>
      ) : null}
      {comments.data?.comments.map((c) => (
        <CommentView
          key={c.id}
          comment={c}
          busy={busy}
          onEdit={(body) => run(() => editTriageComment(item, c.id, body), 'Could not save the comment')}
          onDelete={() => run(() => deleteTriageComment(item, c.id), 'Could not delete the comment')}
        />
      ))}
      {mayWrite ? (
        <Stack spacing={1}>
          <TextField
            label="Add a comment"
            multiline
            minRows={2}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            helperText="Plain text. Mention someone with @ and their e-mail address."
            slotProps={{ htmlInput: { maxLength: TRIAGE_COMMENT_MAX_CHARS } }}
          />
          <Button
            variant="contained"
            size="small"
            sx={{ alignSelf: 'flex-start' }}
            disabled={busy || !draft.trim()}
            onClick={() => void run(() => addTriageComment(item, record.tenantId, draft.trim()), 'Could not add the comment').then((ok) => ok && setDraft(''))}
          >
            Comment
          </Button>
        </Stack>
      ) : (
        <Typography variant="caption" color="text.secondary">
          The owner, moderators and admins take part in the conversation.
        </Typography>
      )}
    </Stack>
  );
}

function CommentView({
  comment,
  busy,
  onEdit,
  onDelete,
}: {
  comment: TriageComment;
  busy: boolean;
  onEdit: (body: string) => Promise<boolean>;
  onDelete: () => Promise<boolean>;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <Box component="article" aria-label={`Comment by ${comment.author?.name ?? 'a former user'}`} sx={{ borderLeft: 3, borderColor: 'divider', pl: 1.5 }}>
      <Typography variant="caption" color="text.secondary">
        {comment.author?.name ?? 'A former user'} · {formatChangeDate(comment.createdAt)}
        {comment.editedAt && !comment.deletedAt ? ' · edited' : ''}
      </Typography>
      {comment.deletedAt ? (
        <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
          Comment deleted
        </Typography>
      ) : editing !== null ? (
        <Stack spacing={1} sx={{ mt: 0.5 }}>
          <TextField
            multiline
            minRows={2}
            label="Edit comment"
            value={editing}
            onChange={(e) => setEditing(e.target.value)}
            slotProps={{ htmlInput: { maxLength: TRIAGE_COMMENT_MAX_CHARS } }}
          />
          <Stack direction="row" spacing={1}>
            <Button
              size="small"
              variant="contained"
              disabled={busy || !editing.trim()}
              onClick={() => void onEdit(editing.trim()).then((ok) => ok && setEditing(null))}
            >
              Save
            </Button>
            <Button size="small" onClick={() => setEditing(null)}>
              Cancel
            </Button>
          </Stack>
        </Stack>
      ) : (
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {comment.body}
        </Typography>
      )}
      {comment.mine && !comment.deletedAt && editing === null ? (
        <Stack direction="row" spacing={1}>
          <Button size="small" onClick={() => setEditing(comment.body)}>
            Edit
          </Button>
          <Button size="small" color="error" disabled={busy} onClick={() => void onDelete()}>
            Delete
          </Button>
        </Stack>
      ) : null}
    </Box>
  );
}
