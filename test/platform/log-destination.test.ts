// The log destination batches lines into few writes (docs/decisions.md, Logs): a line waits until
// the buffer is full, the once-a-second flush, or close; LOG_BUFFER_BYTES=0 writes every line.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createLogDestination } from '../../src/platform/logging.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-log-'));
const opened: { close(): void }[] = [];
afterEach(() => {
  for (const destination of opened.splice(0)) destination.close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function destinationInFile(bufferBytes: number) {
  const file = path.join(dir, `${bufferBytes}-${Math.random().toString(36).slice(2)}.log`);
  const fd = fs.openSync(file, 'a');
  const destination = createLogDestination(bufferBytes, fd);
  opened.push(destination);
  return { destination, written: () => fs.readFileSync(file, 'utf8') };
}

const LINE = `${JSON.stringify({ msg: 'request completed', pad: 'x'.repeat(100) })}\n`;
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe('log destination', () => {
  it('keeps lines until the buffer is full, then writes them together', async () => {
    const { destination, written } = destinationInFile(1024);
    const fill = Math.ceil(1024 / LINE.length); // the line that reaches 1,024 bytes
    for (let i = 1; i < fill; i++) destination.stream.write(LINE);
    await settle();
    expect(written()).toBe('');
    destination.stream.write(LINE);
    await settle();
    expect(written()).toBe(LINE.repeat(fill));
  });

  it('writes a waiting line within about a second, and everything on close', async () => {
    const { destination, written } = destinationInFile(8192);
    destination.stream.write(LINE);
    await expect.poll(written, { timeout: 2_500, interval: 100 }).toBe(LINE);
    destination.stream.write(LINE);
    destination.close();
    expect(written()).toBe(LINE.repeat(2));
  });

  it('writes lines byte for byte, multi-byte characters and a buffer larger than 16 KiB included', async () => {
    const { destination, written } = destinationInFile(20_000);
    const line = `${JSON.stringify({ msg: 'Adébáyọ̀ paid ₦1,250,000.50 🎉', note: '\u2028 "quoted" \\ back' })}\n`;
    const lines = Array.from({ length: 400 }, (_, i) => line.replace('paid', `paid #${i}`));
    for (const text of lines) destination.stream.write(text);
    destination.close();
    expect(written()).toBe(lines.join(''));
  });

  it('writes each line at once with a buffer of 0', async () => {
    const { destination, written } = destinationInFile(0);
    destination.stream.write(LINE);
    await settle();
    expect(written()).toBe(LINE);
  });
});
