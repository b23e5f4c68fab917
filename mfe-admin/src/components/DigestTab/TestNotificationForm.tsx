import { useState, type FormEvent } from 'react';
import { Button, FormControl, InputLabel, MenuItem, Paper, Select, Stack, TextField, Typography } from '@mui/material';
import type { ItemType } from '@radar/contracts';
import { serverMessageOf, useToast } from '@radar/shared-ui';
import { adminWrites } from '../../api/admin-writes.js';

const ITEM_TYPE_LABELS: Record<ItemType, string> = { roadmap: 'Roadmap', message_center: 'Message Center' };

/** Sends the item-change mail for one item to the signed-in admin. itemId and itemType are required. */
export function TestNotificationForm() {
  const { toast } = useToast();
  const [itemId, setItemId] = useState('');
  const [itemType, setItemType] = useState<ItemType | ''>('');
  const [changesSummary, setChangesSummary] = useState('');
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!itemId.trim() || !itemType) {
      toast({ title: 'Error', description: 'Please fill in Item ID and Item Type', variant: 'destructive' });
      return;
    }
    setSending(true);
    try {
      const body = { itemId: itemId.trim(), itemType, ...(changesSummary.trim() ? { changesSummary: changesSummary.trim() } : {}) };
      const answer = await adminWrites.sendTestNotification(body);
      // 'sent' only when the SMTP server took it; otherwise it waits in the outbox (or no SMTP server is configured).
      toast({ title: answer.delivery === 'sent' ? 'Test notification sent' : 'Test notification queued', description: answer.message });
    } catch (error) {
      toast({ title: 'Error', description: serverMessageOf(error) ?? 'Failed to send test notification.', variant: 'destructive' });
    } finally {
      setSending(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="form" onSubmit={(event: FormEvent) => void submit(event)} noValidate aria-label="Test notification">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Test Notification
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Sends the item-change email for one item to you.
      </Typography>
      <Stack spacing={2} sx={{ maxWidth: 520 }}>
        <TextField
          label="Item ID"
          value={itemId}
          onChange={(event) => setItemId(event.target.value)}
          required
          size="small"
          helperText="A roadmap id (digits) or a message id (MC1234567)"
        />
        <FormControl size="small" required>
          <InputLabel id="test-item-type-label">Item Type</InputLabel>
          <Select labelId="test-item-type-label" label="Item Type" value={itemType} onChange={(event) => setItemType(event.target.value as ItemType)}>
            {(Object.keys(ITEM_TYPE_LABELS) as ItemType[]).map((type) => (
              <MenuItem key={type} value={type}>
                {ITEM_TYPE_LABELS[type]}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <TextField
          label="Changes summary (optional)"
          value={changesSummary}
          onChange={(event) => setChangesSummary(event.target.value)}
          multiline
          minRows={2}
          size="small"
        />
        <Button type="submit" variant="contained" disabled={sending} sx={{ alignSelf: 'flex-start' }}>
          {sending ? 'Sending...' : 'Send Test Notification'}
        </Button>
      </Stack>
    </Paper>
  );
}
