// The one statement of console-access.ts: ending console sessions (web_sessions; the console's own
// reads and writes of that table are modules/console-sessions/console-sessions.repo.ts).
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { webSessions } from '../../db/schema/index.js';

export async function deleteConsoleSessions(executor: Executor, companyId: number, userIds: number[]): Promise<void> {
  await executor.delete(webSessions).where(and(eq(webSessions.companyId, companyId), inArray(webSessions.userId, userIds)));
}
