import { useState } from 'react';
import { Box, Button, Link, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { ROLLOUT_RING_LABELS, type FeatureStatusEntry, type MessageAttachmentFile, type MessageSection, type TimingWindow } from '@radar/contracts';
import { formatDate } from '@radar/shared-ui';
import { SafeHtml } from '../SafeHtml/index.js';

/**
 * A Message Center post's body as its sections, each under its own heading (the text before the first heading without
 * one), with the whole post one click away. A post without recognisable sections shows its body as it is.
 */
export function MessageBody({ bodyContent, sections }: { bodyContent: string; sections: MessageSection[] | undefined }) {
  const [whole, setWhole] = useState(false);
  if (!sections?.length || whole) {
    return (
      <Stack spacing={1}>
        <SafeHtml html={bodyContent} />
        {sections?.length ? (
          <Box>
            <Button size="small" onClick={() => setWhole(false)}>
              Show by section
            </Button>
          </Box>
        ) : null}
      </Stack>
    );
  }
  return (
    <Stack spacing={2}>
      {sections.map((section, index) => (
        <Box component="section" key={`${index}-${section.title}`} aria-label={section.title || 'Update note'} data-section-kind={section.kind ?? 'opening'}>
          {section.title ? (
            <Typography variant="subtitle2" component="h4" sx={{ fontWeight: 700, mb: 0.5 }}>
              {section.title}
            </Typography>
          ) : null}
          <SafeHtml html={section.html} />
        </Box>
      ))}
      <Box>
        <Button size="small" onClick={() => setWhole(true)}>
          Show the whole post
        </Button>
      </Box>
    </Stack>
  );
}

/** Rollout windows per ring, with Microsoft's phrase and the dates it means. */
export function RolloutTiming({ timing }: { timing: TimingWindow[] }) {
  return (
    <Table size="small" aria-label="Rollout timing">
      <TableHead>
        <TableRow>
          <TableCell>Ring</TableCell>
          <TableCell>When</TableCell>
          <TableCell>Dates</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {timing.map((w) => (
          <TableRow key={`${w.ring}-${w.start}-${w.end}`}>
            <TableCell>{ROLLOUT_RING_LABELS[w.ring]}</TableCell>
            <TableCell>{w.label}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>
              {w.start === w.end ? formatDate(w.start, 'UTC') : `${formatDate(w.start, 'UTC')} – ${formatDate(w.end, 'UTC')}`}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** "Status for your org": where Microsoft says the rollout stands for the tenant, per platform. */
export function TenantStatus({ entries }: { entries: FeatureStatusEntry[] }) {
  const several = new Set(entries.map((e) => e.roadmapId)).size > 1;
  return (
    <Table size="small" aria-label="Status for your org">
      <TableHead>
        <TableRow>
          {several ? <TableCell>Roadmap ID</TableCell> : null}
          <TableCell>Platform</TableCell>
          <TableCell>Status</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {entries.map((e) => (
          <TableRow key={`${e.roadmapId}-${e.platform}`}>
            {several ? <TableCell>{e.roadmapId}</TableCell> : null}
            <TableCell>{e.platform}</TableCell>
            <TableCell>{e.label}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

const sizeText = (bytes: number | null) =>
  bytes === null ? '' : bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;

/** A post's attachments: each a download (never opened in the page), or why it cannot be downloaded. */
export function AttachmentList({ files }: { files: MessageAttachmentFile[] }) {
  return (
    <Stack component="ul" spacing={0.5} aria-label="Attachments" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {files.map((f) => (
        <Typography component="li" variant="body2" key={f.id}>
          {f.downloadUrl ? (
            <Link href={f.downloadUrl} download={f.name}>
              {f.name}
            </Link>
          ) : (
            f.name
          )}
          {f.size !== null ? ` (${sizeText(f.size)})` : ''}
          {f.unavailableReason ? <Typography component="span" variant="body2" color="text.secondary">{` — ${f.unavailableReason}`}</Typography> : null}
        </Typography>
      ))}
    </Stack>
  );
}
