// A ZIP written as a stream (the run's payslips: docs/compliance.md, "Payslips"): entries stored
// (PDFs are compressed already), each added as soon as its bytes exist, and the next one asked for
// only once the output has drained, so memory holds one entry and each entry's central-directory
// record, whatever the ZIP's size. fflate adds an entry in constant time; yazl, used before, looked
// for its next entry from the first one on every step, which made a ZIP of 100,000 payslips
// quadratic. The bench's `zip-growth` scenario fails if an entry's cost grows with the ZIP again.
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { Zip, ZipPassThrough } from 'fflate';

export interface ZipStream {
  /** What the client reads. A client that goes away closes it, which aborts `signal`. */
  output: PassThrough;
  signal: AbortSignal;
  /** Adds one stored entry; resolves once the output can take more. */
  add(name: string, bytes: Uint8Array, mtime: Date): Promise<void>;
  /** Writes the central directory and ends the output. */
  end(): void;
  /** Ends the output with `error` (unless the client has gone already). */
  fail(error: unknown): void;
}

export function zipStream(): ZipStream {
  const output = new PassThrough();
  const stop = new AbortController();
  output.once('close', () => stop.abort());
  const zip = new Zip((error, chunk, final) => {
    if (output.destroyed) return;
    if (error) return void output.destroy(error);
    output.write(chunk);
    if (final) output.end();
  });
  return {
    output,
    signal: stop.signal,
    async add(name, bytes, mtime) {
      const entry = new ZipPassThrough(name);
      entry.mtime = mtime;
      zip.add(entry);
      entry.push(bytes, true);
      if (output.writableNeedDrain) await once(output, 'drain', { signal: stop.signal });
    },
    end: () => zip.end(),
    fail(error) {
      if (!stop.signal.aborted) output.destroy(error instanceof Error ? error : new Error(String(error)));
    },
  };
}
