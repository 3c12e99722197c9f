// A port for a server a test starts after choosing it (a server process, a private PostgreSQL or
// Redis, an app that must know its address before it listens). Asking the kernel for any free port
// (listen on 0, close, hand the number on) left a window in which the other test worker's own
// listen(0) could be given the same port: the child then failed to bind, and the test talked to the
// other worker's app instead (seen once: a 401 from the wrong server's operator API). These ports
// lie below the kernel's ephemeral range (32768 and up on Linux), which listen(0) and outgoing
// connections draw from, and each test worker has a block of its own, used in turn.
import net from 'node:net';

const FIRST_PORT = 20_000;
const BLOCK = 1_000;
const BLOCKS = 12;
let next = 0;

function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A port no one listens on now, from this worker's block (VITEST_POOL_ID), never the same twice in a row. */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  const block = FIRST_PORT + ((worker - 1) % BLOCKS) * BLOCK;
  for (let tried = 0; tried < BLOCK; tried++) {
    const port = block + (next++ % BLOCK);
    if (await listens(port)) return port;
  }
  throw new Error(`no free port in ${block}-${block + BLOCK - 1}`);
}
