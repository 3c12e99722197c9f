// Node's headersTimeout and requestTimeout (set in app.ts) start counting at a request's first
// byte: a connection that never sends one is not covered and would stay open for good, holding a
// socket and a file descriptor (a slowloris that sends nothing). Such a connection gets the
// headers timeout as an inactivity deadline, lifted as soon as its first request arrives so that a
// long-running handler is never cut off for being quiet; between requests Node's keep-alive
// timeout takes over.
import type { Server } from 'node:http';

export function closeSilentConnections(server: Server, headersTimeoutMs: number): void {
  server.on('connection', (socket) => {
    // No listener of our own: on 'timeout' with no request in flight, Node destroys the socket.
    socket.setTimeout(headersTimeoutMs);
  });
  server.on('request', (request) => {
    if (request.socket.timeout === headersTimeoutMs) request.socket.setTimeout(0);
  });
}
