// The test-only contract check (response-contract.ts) sees what the serializer would hide.
import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { registerResponseContract } from './response-contract.js';

async function appWith(handler: () => unknown, json = false) {
  const mismatches: string[] = [];
  const app = Fastify();
  registerResponseContract(app, (mismatch) => mismatches.push(mismatch));
  app.addSchema({ $id: 'Thing', type: 'object', required: ['id'], properties: { id: { type: 'integer' } } });
  const response = { 200: Type.Object({ active: Type.Boolean(), thing: Type.Ref('Thing') }) };
  app.get('/x', { schema: { response } }, async (_request, reply) =>
    json ? reply.type('application/json').send(JSON.stringify(handler())) : handler(),
  );
  await app.ready();
  return { app, mismatches };
}

describe('response contract check', () => {
  it('records a boolean sent as text, which the serializer would have turned into true', async () => {
    const { app, mismatches } = await appWith(() => ({ active: 'false', thing: { id: 1 } }));
    const res = await app.inject('/x');
    expect(res.json().active).toBe(true);
    expect(mismatches).toEqual([expect.stringContaining('GET /x → 200: /active must be boolean')]);
  });

  it('follows shared schemas and checks JSON text the route wrote itself', async () => {
    const { app, mismatches } = await appWith(() => ({ active: true, thing: { id: 'seven' } }), true);
    await app.inject('/x');
    expect(mismatches).toEqual([expect.stringContaining('/thing/id must be integer')]);
  });

  it('records nothing for an answer that matches', async () => {
    const { app, mismatches } = await appWith(() => ({ active: false, thing: { id: 7 } }));
    await app.inject('/x');
    expect(mismatches).toEqual([]);
  });
});
