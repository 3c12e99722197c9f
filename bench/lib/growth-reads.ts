// The growth scenario's reads (bench/scenarios/growth.ts): each is the median of sequential GETs
// through HTTP, and its cost per item is that median over the items the answer carries (a page's
// rows, a month's paystubs), so a read whose work does not grow with the company stays flat.
import { cpuMeter, cpuNote, type GrowthWorld } from './growth-world.js';
import { timedGets } from './http.js';

/** U1 and P1 pages asked with `per_page=20`, as the bench's other list scenarios ask them. */
const PER_PAGE = 20;
/** Rows of the console's Employees page and paystubs of its run page (src/web/employees-list.routes.ts, payroll.routes.ts). */
const CONSOLE_EMPLOYEES_PER_PAGE = 25;
const CONSOLE_PAYSTUBS_PER_PAGE = 50;

/** Times a page of `items` rows and records it as `measure`. */
async function page(world: GrowthWorld, measure: string, path: string, items: number, headers = world.auth): Promise<string> {
  const cpu = cpuMeter(world.ctx);
  const { median, body } = await timedGets(`${world.ctx.baseUrl}${path}`, headers, world.requests);
  world.record(measure, median / items, {
    rate: 1000 / median,
    unit: 'req/s',
    note: `median ${median.toFixed(2)} ms of ${world.requests} sequential; ${cpuNote(cpu(), world.requests, 'request')}`,
  });
  return body;
}

/** U1's first and last page, and U2 of the company's last employee. */
export async function userReads(world: GrowthWorld): Promise<void> {
  await page(world, 'U1 first page', `/api/users?per_page=${PER_PAGE}&page=1`, PER_PAGE);
  const lastPage = Math.ceil(world.n / PER_PAGE);
  const last = await page(world, 'U1 last page', `/api/users?per_page=${PER_PAGE}&page=${lastPage}`, world.n - (lastPage - 1) * PER_PAGE);
  const id = (JSON.parse(last) as { Resources: { id: number }[] }).Resources.at(-1)?.id;
  if (id === undefined) throw new Error('U1 last page is empty');
  await page(world, 'U2 one user', `/api/users/${id}`, 1);
}

/** P1's first page filtered by the run (the console's run view through the API) and unfiltered. */
export async function paystubReads(world: GrowthWorld, runId: string): Promise<void> {
  await page(world, 'P1 by run, first page', `/api/paystubs?per_page=${PER_PAGE}&transaction_id=${runId}`, PER_PAGE);
  await page(world, 'P1 unfiltered, first page', `/api/paystubs?per_page=${PER_PAGE}`, PER_PAGE);
}

/** The console's Employees page (its first page) as the signed-in administrator sees it. */
export async function consoleEmployees(world: GrowthWorld): Promise<void> {
  const body = await page(world, 'console employees page', '/console/employees', CONSOLE_EMPLOYEES_PER_PAGE, {
    cookie: world.consoleCookie,
  });
  const rows = body.split('/statutory"').length - 1;
  if (rows !== Math.min(world.n, CONSOLE_EMPLOYEES_PER_PAGE)) throw new Error(`the console employees page lists ${rows} employees`);
}

/** The console's page of the run (facts, totals, its first page of paystubs). */
export async function consoleRun(world: GrowthWorld, runId: string): Promise<void> {
  const body = await page(world, 'console run page', `/console/payroll/${runId}`, Math.min(world.n, CONSOLE_PAYSTUBS_PER_PAGE), {
    cookie: world.consoleCookie,
  });
  if (!body.includes(runId)) throw new Error(`the console run page does not name ${runId}`);
}

/**
 * GET /api/remittances for the month the run paid, and its PAYE schedule for Lagos as CSV (every
 * employee lives there): per item is per paid paystub of the month.
 */
export async function remittanceReads(world: GrowthWorld, month: string): Promise<void> {
  const { ctx, n, heavyRequests } = world;
  for (const [measure, path] of [
    ['remittances of the month', `/api/remittances?month=${month}`],
    ['PAYE CSV of the month', `/api/remittances/paye.csv?month=${month}&state=LA`],
  ] as const) {
    const cpu = cpuMeter(ctx);
    const { median, sorted, body } = await timedGets(`${ctx.baseUrl}${path}`, world.auth, heavyRequests);
    // The schedule really lists everybody (a header block, then one line per employee).
    if (path.includes('.csv') && body.split('\n').length < n)
      throw new Error(`${path}: ${body.split('\n').length} lines for ${n} paystubs`);
    world.record(measure, median / n, {
      rate: 1000 / median,
      unit: 'req/s',
      note: `median ${median.toFixed(0)} ms, worst ${(sorted.at(-1) as number).toFixed(0)} ms of ${heavyRequests}; ${(body.length / 1024).toFixed(0)} KB; ${cpuNote(cpu(), heavyRequests, 'request')}`,
    });
  }
}
