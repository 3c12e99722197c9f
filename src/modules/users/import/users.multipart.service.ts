// Reading multipart requests (U4 documents, U8/U9 CSV). File parts are streamed to temporary files
// under DATA_DIR/uploads, never held in memory: a request costs a few stream buffers however
// large it is. Each upload route names its limits (files per request, bytes per file, bytes per
// request); a declared Content-Length above the request limit is refused before the body is read.
// A `company_id` form field is then checked by the same tenancy code as JSON bodies, because the
// app-wide preHandler only sees the query string of a multipart request.
import crypto from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../../db/client.js';
import { invalid } from '../../../platform/errors.js';
import { assertNoNul } from '../../../platform/input-safety.js';
import { tenantId } from '../../../platform/request-context.js';
import { resolveTargetCompany } from '../../../platform/tenancy.js';
import type { TenancyMessages } from '../../../platform/types.js';

/** Form fields are short text (names, e-mails, flags): longer values are refused, not buffered. */
const MAX_FIELD_BYTES = 64 * 1024;
const MAX_FIELDS = 50;
/** Room for the form fields and part headers on top of the files themselves. */
const REQUEST_OVERHEAD_BYTES = MAX_FIELDS * 1024 + 64 * 1024;
/** First bytes of each file, kept in memory for content sniffing. */
const HEAD_BYTES = 16;

export interface UploadLimits {
  /** The form field that carries the files; files in any other field are drained and ignored. */
  field: string;
  maxFiles: number;
  maxFileBytes: number;
  /** Messages (under `field`) for a request over its byte limit and for too many files. */
  tooLarge: string;
  tooMany: string;
}

export interface UploadedFile {
  /** Temporary file holding the (possibly truncated) content; removed by `MultipartBody.discard`. */
  path: string;
  size: number;
  head: Buffer;
  /** The file was longer than `maxFileBytes`; the rest was skipped, not stored. */
  truncated: boolean;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: UploadedFile[];
  /** Removes the temporary files that were not moved elsewhere. */
  discard(): Promise<void>;
}

/** The largest request body `limits` allow: every file at its limit plus the fields. */
export const maxRequestBytes = (limits: UploadLimits) => limits.maxFiles * limits.maxFileBytes + REQUEST_OVERHEAD_BYTES;

/** Busboy stops at its own part limits and @fastify/multipart then throws these (413): refused as `tooMany`. */
const PART_LIMIT_CODES = new Set(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT']);

/** Where uploads are streamed while their request runs (removed when it ends). */
export const uploadsDir = (dataDir: string) => path.join(dataDir, 'uploads');

/** An upload file this old belongs to no running request: requests time out long before. */
export const STALE_UPLOAD_MS = 60 * 60 * 1000;

/**
 * A process killed mid-upload leaves its temp files behind. Removes those older than
 * STALE_UPLOAD_MS (another instance sharing DATA_DIR may be streaming younger ones right now).
 */
export async function sweepStaleUploads(dataDir: string, now = Date.now()): Promise<number> {
  const dir = uploadsDir(dataDir);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith('.upload')) continue;
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => null);
    if (stat && now - stat.mtimeMs > STALE_UPLOAD_MS) {
      await fs.rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}

export async function readMultipart(request: FastifyRequest, dataDir: string, limits: UploadLimits): Promise<MultipartBody> {
  const refuse = (message: string) => invalid({ [limits.field]: [message] });
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxRequestBytes(limits)) throw refuse(limits.tooLarge);

  const tempDir = uploadsDir(dataDir);
  await fs.mkdir(tempDir, { recursive: true });
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  const discard = async () => {
    await Promise.all(files.map((file) => fs.rm(file.path, { force: true })));
  };
  // throwFileSizeLimit false: an oversized file arrives truncated and flagged, so the route can
  // answer with its own per-file 422 instead of a generic 413. One file more than allowed is let
  // through busboy so that it is this code, not busboy, that sees and refuses it.
  const options = {
    limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles + 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES },
    throwFileSizeLimit: false,
  } as Parameters<FastifyRequest['parts']>[0];
  try {
    for await (const part of request.parts(options)) {
      if (part.type === 'file') {
        if (part.fieldname !== limits.field) {
          part.file.resume(); // unknown file field: drained and ignored
          continue;
        }
        if (files.length >= limits.maxFiles) throw refuse(limits.tooMany);
        const file: UploadedFile = {
          path: path.join(tempDir, `${crypto.randomUUID()}.upload`),
          size: 0,
          head: Buffer.alloc(0),
          truncated: false,
        };
        files.push(file);
        const measure = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            if (file.head.length < HEAD_BYTES) file.head = Buffer.concat([file.head, chunk.subarray(0, HEAD_BYTES - file.head.length)]);
            file.size += chunk.length;
            done(null, chunk);
          },
        });
        await pipeline(part.file, measure, createWriteStream(file.path));
        file.truncated = part.file.truncated;
      } else {
        if (part.valueTruncated) throw invalid({ [part.fieldname]: [`The ${part.fieldname} field is too long.`] });
        if (typeof part.value === 'string' || typeof part.value === 'number' || typeof part.value === 'boolean') {
          // `documents[]`-style names are accepted as their plain name.
          fields[part.fieldname.replace(/\[\]$/, '')] = String(part.value);
        }
      }
    }
  } catch (error) {
    await discard();
    if (PART_LIMIT_CODES.has((error as { code?: string }).code ?? '')) throw refuse(limits.tooMany);
    throw error;
  }
  // Form fields never pass the app-wide check of JSON bodies: the same rule is applied here.
  try {
    assertNoNul(fields);
  } catch (error) {
    await discard();
    throw error;
  }
  return { fields, files, discard };
}

/** Re-resolves the target company once the form fields are known (query vs form conflicts: 400). */
export async function resolveFormCompany(db: Db, request: FastifyRequest, fields: Record<string, string>, messages: TenancyMessages) {
  if (fields.company_id === undefined) return tenantId(request);
  request.body = fields;
  return resolveTargetCompany(db, request, messages);
}

/**
 * At most `size` holders at once; the others wait in arrival order. Bounds the memory of work
 * that must hold a whole upload (a parsed CSV) however many such requests arrive together.
 */
export function createSlots(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  return async function withSlot<T>(work: () => Promise<T>): Promise<T> {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}
