/** An item_history row as the MCP reads return it. */
export interface ItemHistoryRowLike {
  itemId: number;
  changeType: 'new' | 'changed' | 'removed';
  changeDate: Date;
  changedFields: string[];
  previousValues: Record<string, unknown>;
  newValues: Record<string, unknown>;
}
