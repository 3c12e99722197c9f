// A file answered as an attachment that no cache keeps (remittance schedules, annual returns, the
// loans report): its type, its name for the browser's Save dialog, and `Cache-Control: no-store`,
// because every such file holds employees' pay.
import type { FastifyReply } from 'fastify';

export interface Attachment {
  filename: string;
  contentType: string;
  body: string | Buffer;
}

export function sendAttachment(reply: FastifyReply, file: Attachment) {
  return reply
    .header('Content-Type', file.contentType)
    .header('Content-Disposition', `attachment; filename="${file.filename}"`)
    .header('Cache-Control', 'no-store')
    .send(file.body);
}
