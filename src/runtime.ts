// Opening the configured database (with the DATA_DIR lock on PGlite) and preparing it: shared by
// the server and the CLI.
import type { Config } from './config.js';
import { type Database, openPglite, openPostgres } from './db/client.js';
import { lockDataDir } from './db/data-dir-lock.js';
import { migrate } from './db/migrate.js';

export interface OpenedDatabase {
  database: Database;
  close(): Promise<void>;
}

export async function openConfiguredDatabase(config: Config): Promise<OpenedDatabase> {
  if (config.databaseUrl) {
    const database = await openPostgres(config.databaseUrl);
    return { database, close: () => database.close() };
  }
  const unlock = lockDataDir(config.dataDir);
  try {
    const database = await openPglite(config.dataDir);
    return {
      database,
      close: async () => {
        await database.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

export async function prepareDatabase(database: Database): Promise<string[]> {
  return migrate(database);
}
