import { Button, Card, CardActions, CardContent, Chip, Link, Stack, Typography } from '@mui/material';
import { formatCount, type ContactSubmission } from '@radar/contracts';
import { formatChangeDate, useDialogs } from '@radar/shared-ui';
import { adminWrites } from '../../api/admin-writes.js';
import { ADMIN_KEYS, useContactSubmissions } from '../../api/admin.js';
import { useAdminAction } from '../../api/admin-actions.js';
import { AdminData } from '../AdminData/index.js';

/** Contact Forms: submissions with their read state; mark as read and delete. */
export function ContactFormsTab() {
  return (
    <AdminData answer={useContactSubmissions()} what="contact submissions" empty={{ when: (rows) => rows.length === 0, text: 'No contact submissions yet.' }}>
      {(data) => <ContactSubmissions data={data} />}
    </AdminData>
  );
}

function ContactSubmissions({ data }: { data: ContactSubmission[] }) {
  const run = useAdminAction();
  const dialogs = useDialogs();
  const markRead = (submission: ContactSubmission) =>
    run(() => adminWrites.markContactRead(submission.id), {
      failure: () => 'Failed to mark submission as read.',
      revalidate: [ADMIN_KEYS.contactSubmissions],
    });
  // A deleted message cannot be brought back, so deleting asks first, as role and user deletes do.
  const remove = (submission: ContactSubmission) =>
    void dialogs.confirm(`Delete the message from ${submission.email}? It cannot be recovered.`, {
      title: 'Delete submission',
      okText: 'Delete Submission',
      action: () =>
        run(() => adminWrites.deleteContact(submission.id), {
          success: { title: 'Submission deleted', description: `The message from ${submission.email} was deleted.` },
          failure: () => 'Failed to delete submission.',
          revalidate: [ADMIN_KEYS.contactSubmissions],
        }),
    });

  const unread = data.filter((s) => !s.isRead).length;
  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">
        {formatCount(data.length, 'submission')}, {unread.toLocaleString('en-US')} unread
      </Typography>
      {data.map((submission) => (
        <Card
          key={submission.id}
          variant="outlined"
          component="article"
          aria-label={`Message from ${submission.firstName} ${submission.lastName}`}
          sx={{ borderLeftWidth: submission.isRead ? 1 : 4, borderLeftColor: submission.isRead ? undefined : 'primary.main' }}
        >
          <CardContent>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                {submission.firstName} {submission.lastName}
              </Typography>
              <Chip
                size="small"
                label={submission.isRead ? 'Read' : 'Unread'}
                color={submission.isRead ? 'default' : 'primary'}
                variant={submission.isRead ? 'outlined' : 'filled'}
              />
            </Stack>
            <Typography variant="body2" color="text.secondary">
              <Link href={`mailto:${submission.email}`}>{submission.email}</Link> · {formatChangeDate(submission.submittedAt)}
            </Typography>
            <Typography sx={{ mt: 1, whiteSpace: 'pre-wrap' }}>{submission.message}</Typography>
          </CardContent>
          <CardActions>
            {!submission.isRead ? (
              <Button size="small" onClick={() => void markRead(submission)}>
                Mark as read
              </Button>
            ) : null}
            <Button size="small" color="error" onClick={() => remove(submission)}>
              Delete
            </Button>
          </CardActions>
        </Card>
      ))}
    </Stack>
  );
}
