// Onboarding documents (U4): PDF, PNG or JPEG, recognised by their first bytes (the client's
// file name and content type are not trusted), at most 5 MiB each, 5 per request and 20 per user,
// stored under DATA_DIR/documents/<company>/<user>/. `document_paths` holds paths relative to
// DATA_DIR. Uploads arrive as temporary files (users.multipart.service.ts) and are moved into place.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FieldErrors } from '../../../platform/errors.js';
import type { UploadedFile, UploadLimits } from '../import/users.multipart.service.js';

export type { UploadedFile } from '../import/users.multipart.service.js';

export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;
export const MAX_DOCUMENTS_PER_REQUEST = 5;
export const MAX_DOCUMENTS_PER_USER = 20;
export const TOO_MANY_DOCUMENTS_PER_USER = `A user may have at most ${MAX_DOCUMENTS_PER_USER} documents.`;

export const DOCUMENT_UPLOAD: UploadLimits = {
  field: 'documents',
  maxFiles: MAX_DOCUMENTS_PER_REQUEST,
  maxFileBytes: MAX_DOCUMENT_BYTES,
  tooLarge: `The documents must not be greater than ${MAX_DOCUMENT_BYTES / 1024} kilobytes each, at most ${MAX_DOCUMENTS_PER_REQUEST} per request.`,
  tooMany: `The documents field must not have more than ${MAX_DOCUMENTS_PER_REQUEST} items.`,
};

/** `head`: the file's first bytes (8 are enough). */
export function sniffDocument(data: Buffer): 'pdf' | 'png' | 'jpg' | undefined {
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpg';
  return undefined;
}

/** Laravel-like messages per file (`documents.0`), or undefined when every file is acceptable. */
export function checkDocuments(files: UploadedFile[]): FieldErrors | undefined {
  const errors: FieldErrors = {};
  files.forEach((file, index) => {
    const field = `documents.${index}`;
    if (file.truncated || file.size > MAX_DOCUMENT_BYTES) {
      errors[field] = [`The ${field} field must not be greater than 5120 kilobytes.`];
    } else if (file.size === 0 || !sniffDocument(file.head)) {
      errors[field] = [`The ${field} field must be a file of type: pdf, png, jpg, jpeg.`];
    }
  });
  return Object.keys(errors).length > 0 ? errors : undefined;
}

/** Moves the (checked) temporary files into place; returns their DATA_DIR-relative paths. */
export async function storeDocuments(dataDir: string, companyId: number, userId: number, files: UploadedFile[]): Promise<string[]> {
  const relativeDir = path.join('documents', String(companyId), String(userId));
  await fs.mkdir(path.join(dataDir, relativeDir), { recursive: true });
  const stored: string[] = [];
  for (const file of files) {
    const relative = path.join(relativeDir, `${crypto.randomUUID()}.${sniffDocument(file.head)}`);
    // A rename within DATA_DIR: a crash never leaves a half-written file under its final name.
    await fs.rename(file.path, path.join(dataDir, relative));
    stored.push(relative.split(path.sep).join('/'));
  }
  return stored;
}

/** Removes stored files (missing ones are fine) and the user's folder when it is empty. */
export async function deleteDocuments(dataDir: string, paths: string[]): Promise<void> {
  const root = path.resolve(dataDir, 'documents');
  const dirs = new Set<string>();
  for (const relative of paths) {
    const absolute = path.resolve(dataDir, relative);
    // Never follow a stored path outside DATA_DIR/documents.
    if (!absolute.startsWith(root + path.sep)) continue;
    await fs.rm(absolute, { force: true });
    dirs.add(path.dirname(absolute));
  }
  for (const dir of dirs) await fs.rmdir(dir).catch(() => undefined);
}
