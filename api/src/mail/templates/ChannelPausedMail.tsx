import { Button, Text } from './components.js';
import { Layout, mailColors, Note, Paragraph } from './Layout.js';

export interface ChannelPausedMailProps {
  publicUrl: string;
  firstName?: string | null;
  channelName: string;
  /** "Microsoft Teams", "Slack", "Webhook". */
  kindLabel: string;
  failures: number;
  lastError: string;
  settingsUrl: string;
}

export const channelPausedSubject = (p: Pick<ChannelPausedMailProps, 'channelName'>) => `Alerts to “${p.channelName}” are paused`;

/** To a channel's owner when it was paused after consecutive failed deliveries. */
export function ChannelPausedMail(p: ChannelPausedMailProps) {
  return (
    <Layout preview={channelPausedSubject(p)} heading={channelPausedSubject(p)} publicUrl={p.publicUrl}>
      <Paragraph>{`${p.firstName ? `Hi ${p.firstName}, the` : 'The'} ${p.kindLabel} channel “${p.channelName}” failed ${p.failures} deliveries in a row, so M365 Radar paused it. Saved searches keep their settings; no alerts go to this channel until you resume it.`}</Paragraph>
      <Text
        style={{ fontSize: '14px', color: mailColors.text, backgroundColor: mailColors.codeBackground, padding: '8px 12px', margin: '0 0 12px' }}
      >{`Last error: ${p.lastError}`}</Text>
      <Paragraph>
        Check the webhook (it may have been deleted or its workflow turned off), look at the channel's delivery log, use Send test, then Resume.
      </Paragraph>
      <Button
        href={p.settingsUrl}
        style={{ backgroundColor: mailColors.accent, color: '#ffffff', borderRadius: '6px', padding: '10px 18px', fontSize: '14px' }}
      >
        Open notification settings
      </Button>
      <Note>Deliveries queued before the pause wait and go out when the channel is resumed.</Note>
    </Layout>
  );
}

export function channelPausedText(p: ChannelPausedMailProps): string {
  return [
    channelPausedSubject(p),
    '',
    `${p.firstName ? `Hi ${p.firstName}, the` : 'The'} ${p.kindLabel} channel “${p.channelName}” failed ${p.failures} deliveries in a row, so M365 Radar paused it.`,
    `Last error: ${p.lastError}`,
    '',
    "Check the webhook, look at the channel's delivery log, use Send test, then Resume:",
    p.settingsUrl,
  ].join('\n');
}
