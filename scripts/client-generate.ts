// npm run client:generate: writes clients/typescript/src/schema.d.ts from the served /openapi.json
// (scripts/client-schema.ts). Commit the result; the client's schema test fails while it is stale.
import fs from 'node:fs';
import { buildServedDocument, CLIENT_SCHEMA_FILE, clientSchemaSource } from './client-schema.js';

const source = await clientSchemaSource(await buildServedDocument());
const before = fs.existsSync(CLIENT_SCHEMA_FILE) ? fs.readFileSync(CLIENT_SCHEMA_FILE, 'utf8') : '';
fs.writeFileSync(CLIENT_SCHEMA_FILE, source);
console.log(`${CLIENT_SCHEMA_FILE}: ${source === before ? 'unchanged' : 'written'} (${source.split('\n').length} lines)`);
process.exit(0);
