// Debian's chromium driven by playwright-core (never a downloaded browser build), with the flags
// this closed network needs, and a free loopback port for an app that really listens.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Browser tests run wherever chromium is installed (`.ci/run` installs it). */
export const hasChromium = fs.existsSync(CHROMIUM);

export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
