import { RELEVANCE_LEVEL_LABELS } from '@radar/contracts';
import { Text } from './components.js';
import { mailColors } from './Layout.js';

/** An item's relevance as a mail says it: "High relevance" and the reason (with the tenant's name where it says it). */
export interface MailRelevance {
  level: 'high' | 'medium' | 'low';
  label: string;
  reason: string;
}

/** The chip: High filled, Medium outlined in the accent, Low outlined plain; its words say the level, not its colour. */
function chipStyle(level: MailRelevance['level']) {
  const colour = level === 'low' ? mailColors.muted : mailColors.accent;
  return {
    display: 'inline-block',
    padding: '0 8px',
    marginRight: '6px',
    borderRadius: '10px',
    border: `1px solid ${colour}`,
    backgroundColor: level === 'high' ? colour : 'transparent',
    color: level === 'high' ? '#ffffff' : colour,
    fontWeight: 600,
    whiteSpace: 'nowrap' as const,
  };
}

/** The chip and the reason beside it, on a line of their own (the weekly digest's entries, an alert's items). */
export function RelevanceLine({ relevance }: { relevance: MailRelevance }) {
  return (
    <Text style={{ fontSize: '12px', lineHeight: '18px', margin: '0 0 4px', color: mailColors.muted }}>
      <span data-relevance={relevance.level} style={chipStyle(relevance.level)}>
        {relevance.label}
      </span>
      {relevance.reason}
    </Text>
  );
}

/** "High relevance" for a level the chip shows. */
export const relevanceLabel = (level: MailRelevance['level']) => `${RELEVANCE_LEVEL_LABELS[level]} relevance`;
