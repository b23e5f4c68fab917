import { Button, Text } from './components.js';
import { Layout, mailColors, Note, Paragraph } from './Layout.js';

export interface TrackerPausedMailProps {
  publicUrl: string;
  trackerName: string;
  /** "Jira Cloud", "ServiceNow". */
  kindLabel: string;
  failures: number;
  lastError: string;
  settingsUrl: string;
}

export const trackerPausedSubject = (p: Pick<TrackerPausedMailProps, 'trackerName'>) => `Tasks to “${p.trackerName}” are paused`;

/** To the admins when a tracker connection was paused after consecutive failed calls. */
export function TrackerPausedMail(p: TrackerPausedMailProps) {
  return (
    <Layout preview={trackerPausedSubject(p)} heading={trackerPausedSubject(p)} publicUrl={p.publicUrl}>
      <Paragraph>{`The ${p.kindLabel} connection “${p.trackerName}” failed ${p.failures} calls in a row, so M365 Radar paused it. No task is created, updated or read until an admin resumes it.`}</Paragraph>
      <Text
        style={{ fontSize: '14px', color: mailColors.text, backgroundColor: mailColors.codeBackground, padding: '8px 12px', margin: '0 0 12px' }}
      >{`Last error: ${p.lastError}`}</Text>
      <Paragraph>Check the credentials (an API token expires, a password changes), look at the delivery log, use Test, then Resume.</Paragraph>
      <Button
        href={p.settingsUrl}
        style={{ backgroundColor: mailColors.accent, color: '#ffffff', borderRadius: '6px', padding: '10px 18px', fontSize: '14px' }}
      >
        Open Admin → Trackers
      </Button>
      <Note>Calls queued before the pause wait and are made when the connection is resumed: nothing is lost.</Note>
    </Layout>
  );
}

export function trackerPausedText(p: TrackerPausedMailProps): string {
  return [
    trackerPausedSubject(p),
    '',
    `The ${p.kindLabel} connection “${p.trackerName}” failed ${p.failures} calls in a row, so M365 Radar paused it.`,
    `Last error: ${p.lastError}`,
    '',
    'Check the credentials, look at the delivery log, use Test, then Resume:',
    p.settingsUrl,
  ].join('\n');
}
