/** `list` cut into consecutive parts of at most `size` (statements keep under PostgreSQL's parameter limit). */
export function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
