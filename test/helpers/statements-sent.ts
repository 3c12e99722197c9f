// The statements a piece of work sends to PostgreSQL, for tests of round trips (U3's create, the
// console's Employees page): the driver's query method is observed (wrapped, calling through
// unchanged) while `work` runs. Each statement is named by its first two words, or by the prepared
// statement's name.
import pg from 'pg';

export async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { name?: string; text?: string };
    const text = typeof config === 'string' ? config : (config.name ?? config.text ?? '');
    sent.push(text.trim().split(/\s+/).slice(0, 2).join(' '));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = query;
  }
  return sent;
}
