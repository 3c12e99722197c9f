// Reading multipart requests (U4 documents, U8/U9 CSV). Fields and files are collected first;
// a `company_id` form field is then checked by the same tenancy code as JSON bodies, because the
// app-wide preHandler only sees the query string of a multipart request.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import { resolveTargetCompany } from '../../platform/tenancy.js';
import type { TenancyMessages } from '../../platform/types.js';
import type { UploadedFile } from './users.documents.js';

export interface MultipartBody {
  fields: Record<string, string>;
  files: Map<string, UploadedFile[]>;
}

/** Buffers every part (each file is capped by the app's 5 MiB multipart limit). */
export async function readMultipart(request: FastifyRequest, fileFields: string[]): Promise<MultipartBody> {
  const fields: Record<string, string> = {};
  const files = new Map<string, UploadedFile[]>();
  // throwFileSizeLimit false: an oversized file arrives truncated and flagged, so the route can
  // answer with its own 422 instead of a generic 413.
  const options = { limits: { fileSize: 5 * 1024 * 1024 }, throwFileSizeLimit: false } as Parameters<FastifyRequest['parts']>[0];
  for await (const part of request.parts(options)) {
    if (part.type === 'file') {
      if (!fileFields.includes(part.fieldname)) {
        part.file.resume(); // unknown file field: drained and ignored
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) chunks.push(chunk as Buffer);
      const list = files.get(part.fieldname) ?? [];
      list.push({ data: Buffer.concat(chunks), truncated: part.file.truncated });
      files.set(part.fieldname, list);
    } else if (typeof part.value === 'string' || typeof part.value === 'number' || typeof part.value === 'boolean') {
      // `documents[]`-style names are accepted as their plain name.
      fields[part.fieldname.replace(/\[\]$/, '')] = String(part.value);
    }
  }
  return { fields, files };
}

/** Re-resolves the target company once the form fields are known (query vs form conflicts: 400). */
export async function resolveFormCompany(db: Db, request: FastifyRequest, fields: Record<string, string>, messages: TenancyMessages) {
  if (fields.company_id === undefined) return request.targetCompanyId as number;
  request.body = fields;
  return resolveTargetCompany(db, request, messages);
}
