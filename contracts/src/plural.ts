const rules = new Intl.PluralRules('en-US');

/**
 * "1 submission", "2 submissions", "1,234 items": a count with its noun, by the language's plural rules (one place for
 * every count the product writes, so none reads "1 items"). `many` defaults to `one` + "s".
 */
export function formatCount(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${rules.select(count) === 'one' ? one : many}`;
}
