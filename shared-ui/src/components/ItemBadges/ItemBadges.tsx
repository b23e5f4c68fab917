import { Chip, Stack, type ChipProps } from '@mui/material';
import { healthStatusLabel, SOURCE_LABELS, type Source } from '@radar/contracts';
import { isNewItem, isUpdatedItem, roadmapStatusColor, type PresentableItem, type StatusColor } from '../../presentation/item-rules.js';

const STATUS_CHIP_COLOR: Record<StatusColor, ChipProps['color']> = {
  blue: 'primary',
  green: 'success',
  grey: 'default',
  red: 'error',
  default: 'default',
};

/** Roadmap status as a coloured badge; the text always says the status, colour only adds to it. */
export function ItemStatusBadge({ status }: { status: string | null | undefined }) {
  const color = roadmapStatusColor(status);
  return (
    <Chip
      size="small"
      label={status || 'Unknown'}
      color={STATUS_CHIP_COLOR[color]}
      variant={color === 'default' ? 'outlined' : 'filled'}
      data-status-color={color}
    />
  );
}

/** 'Roadmap', 'Message Center' or 'Service Health'. */
export function SourceBadge({ source }: { source: Source }) {
  return <Chip size="small" variant="outlined" label={SOURCE_LABELS[source]} />;
}

/**
 * A Service Health issue's status in words ("Service restored"); resolved issues green, open ones amber, so the text
 * says the status and the colour only adds to it.
 */
export function HealthStatusBadge({ status, isResolved }: { status: string | null | undefined; isResolved: boolean | undefined }) {
  return (
    <Chip
      size="small"
      label={healthStatusLabel(status) || 'Unknown'}
      color={isResolved ? 'success' : 'warning'}
      variant={isResolved ? 'outlined' : 'filled'}
      data-health-resolved={isResolved ? 'true' : 'false'}
    />
  );
}

export interface ItemBadgesProps {
  item: PresentableItem & { isFeatured?: boolean };
  /** The moment the 7-day windows are measured from. */
  now: Date;
}

/** Featured / New / Updated badges of a row; a message can be both New and Updated. */
export function ItemBadges({ item, now }: ItemBadgesProps) {
  const isNew = isNewItem(item, now);
  const isUpdated = isUpdatedItem(item, now);
  if (!item.isFeatured && !isNew && !isUpdated) return null;
  return (
    <Stack direction="row" spacing={0.5} component="span">
      {item.isFeatured ? <Chip size="small" color="warning" label="Featured" /> : null}
      {isNew ? <Chip size="small" color="success" label="New" /> : null}
      {isUpdated ? <Chip size="small" color="info" label="Updated" /> : null}
    </Stack>
  );
}
