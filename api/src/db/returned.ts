/**
 * The row an INSERT … RETURNING (or an UPDATE … RETURNING of a row the caller holds) gave back. PostgreSQL always
 * returns the row it wrote, so its absence is a bug: this says so instead of letting `undefined` travel on as a row.
 */
export function returned<T>(row: T | undefined): T {
  if (row === undefined) throw new Error('The database returned no row for a write that always returns one');
  return row;
}
