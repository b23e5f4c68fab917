import { Button } from './components.js';
import { Layout, mailColors, Note, Paragraph, PRODUCT_NAME } from './Layout.js';

export interface SyncHeldMailProps {
  publicUrl: string;
  syncId: number;
  /** 'Roadmap' or 'Message Center'. */
  sourceLabel: string;
  reason: string;
}

export const syncHeldSubject = ({ sourceLabel, syncId }: SyncHeldMailProps) => `${PRODUCT_NAME}: ${sourceLabel} sync #${syncId} was held for your decision`;

/** To every admin when the snapshot guard holds a sync: what happened and where to decide. */
export function SyncHeldMail(props: SyncHeldMailProps) {
  const { publicUrl, sourceLabel, syncId, reason } = props;
  return (
    <Layout preview={`${sourceLabel} sync held: nothing was removed`} heading={`${sourceLabel} sync held`} publicUrl={publicUrl}>
      <Paragraph>{`Sync #${syncId} fetched a ${sourceLabel} snapshot that looks wrong, so it was not applied. ${reason}`}</Paragraph>
      <Paragraph>
        Until you decide, nothing is marked removed and nobody following an item gets mail about it. Scheduled syncs go on; if the feed recovers, the next one
        applies the correct data and this snapshot expires.
      </Paragraph>
      <Paragraph>In the admin area, Sync History: choose Apply anyway to apply exactly this snapshot, or Discard.</Paragraph>
      <Button
        href={`${publicUrl}/admin`}
        style={{ backgroundColor: mailColors.accent, color: '#ffffff', borderRadius: '6px', padding: '10px 18px', fontSize: '15px' }}
      >
        Open Sync History
      </Button>
      <Note>You get this mail because you are an administrator of {PRODUCT_NAME}.</Note>
    </Layout>
  );
}

export function syncHeldText({ publicUrl, sourceLabel, syncId, reason }: SyncHeldMailProps): string {
  return [
    `${sourceLabel} sync held`,
    '',
    `Sync #${syncId} fetched a ${sourceLabel} snapshot that looks wrong, so it was not applied. ${reason}`,
    'Until you decide, nothing is marked removed and nobody following an item gets mail about it. Scheduled syncs go on; if the feed recovers, the next one applies the correct data and this snapshot expires.',
    '',
    `Decide in Sync History (${publicUrl}/admin): Apply anyway applies exactly this snapshot; Discard drops it.`,
    '',
    `You get this mail because you are an administrator of ${PRODUCT_NAME}.`,
  ].join('\n');
}
