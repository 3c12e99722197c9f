// The served reference (/openapi.json, docs/api-reference.md): every operation has a stable
// operationId, a summary in words, a description, a declared tag, and an example for its request
// body and for each response, and every example satisfies the operation's own schema.
import fs from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { anonymous, as } from '../../test/helpers/http.js';
import { GETTING_STARTED } from './getting-started.js';

let ctx: TestContext;
// biome-ignore lint/suspicious/noExplicitAny: the document is plain JSON walked by hand
let doc: any;
// biome-ignore lint/suspicious/noExplicitAny: the same document with every $ref resolved
let resolved: any;

beforeAll(async () => {
  ctx = await createTestApp({ adminToken: 'a'.repeat(40), publicUrl: 'https://payroll.example.ng' });
  doc = (await as(ctx.app, anonymous).get('/openapi.json')).json();
  resolved = await SwaggerParser.dereference(structuredClone(doc));
});
afterAll(() => ctx.close());

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
function operations(document: typeof doc) {
  const out: { key: string; operation: Record<string, unknown> & Record<string, never> }[] = [];
  for (const [url, item] of Object.entries(document.paths as Record<string, Record<string, never>>))
    for (const method of METHODS) if (item[method]) out.push({ key: `${method.toUpperCase()} ${url}`, operation: item[method] });
  return out;
}

function validator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return (schema: object, value: unknown) => {
    const check = ajv.compile(schema);
    return check(value) ? [] : (check.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
  };
}

describe('the reference document', () => {
  it('names the server (PUBLIC_URL), a contact and a license', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'https://payroll.example.ng' })]);
    expect(doc.info.contact).toBeDefined();
    expect(doc.info.license?.name).toBeTruthy();
  });

  it('gives every operation a unique camelCase operationId, a summary without spec codes, a description and a declared tag', () => {
    const declared = new Set(
      (doc.tags as { name: string; description?: string }[]).filter((tag) => tag.description).map((tag) => tag.name),
    );
    const ids = new Set<string>();
    const problems: string[] = [];
    const list = operations(doc);
    expect(list.length).toBeGreaterThanOrEqual(75);
    for (const { key, operation } of list) {
      const id = operation.operationId as string | undefined;
      if (!id || !/^[a-z][A-Za-z0-9]*$/.test(id) || ids.has(id)) problems.push(`${key}: operationId ${id}`);
      ids.add(id ?? '');
      if (/^[A-Z]{1,2}\d+\b/.test(String(operation.summary))) problems.push(`${key}: summary "${operation.summary}"`);
      if (!operation.description) problems.push(`${key}: no description`);
      for (const tag of (operation.tags as string[] | undefined) ?? [])
        if (!declared.has(tag)) problems.push(`${key}: tag ${tag} not declared`);
    }
    expect(problems).toEqual([]);
    expect(ids.has('usersStore')).toBe(true);
  });

  it('documents realistic bounds: ids from 1, money from 0, never the int4 or ±10^15 safety net', () => {
    const text = JSON.stringify(doc.paths);
    expect(text).not.toContain('-2147483648');
    expect(text).not.toContain('-1000000000000000');
  });

  it('has an example for every request body and every response, and each satisfies its schema', () => {
    const validate = validator();
    const problems: string[] = [];
    for (const { key, operation } of operations(resolved)) {
      const body = operation.requestBody as { content: Record<string, { schema: object; example?: unknown }> } | undefined;
      for (const [type, media] of Object.entries(body?.content ?? {})) {
        if (!('example' in media)) problems.push(`${key} request ${type}: no example`);
        else for (const error of validate(media.schema, media.example)) problems.push(`${key} request ${type}: ${error}`);
      }
      for (const [status, response] of Object.entries(operation.responses as Record<string, { content?: Record<string, never> }>)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          const { schema, example, examples } = media as {
            schema: object;
            example?: unknown;
            examples?: Record<string, { value: unknown }>;
          };
          const values = examples
            ? Object.entries(examples).map(([name, entry]) => [name, entry.value] as const)
            : [['example', example] as const];
          if (!examples && !('example' in media)) problems.push(`${key} ${status} ${type}: no example`);
          for (const [name, value] of values)
            for (const error of validate(schema, value)) problems.push(`${key} ${status} ${name}: ${error}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('opens with the getting-started that docs/getting-started.md holds', () => {
    expect(doc.info.description).toContain(GETTING_STARTED);
    const file = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/getting-started.md'), 'utf8');
    expect(file).toContain(GETTING_STARTED.replace(/^## Getting started\n/, ''));
  });
});
