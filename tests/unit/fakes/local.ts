import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContextOptions } from '@playwright/test';

/** Starts `server` on a free loopback port; its origin (`http://127.0.0.1:PORT`). */
export async function listenLocal(server: http.Server, scheme: 'http' | 'https' = 'http'): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Ends every connection of `server` and closes it (nothing if it never started). */
export async function closeLocal(server: http.Server | undefined): Promise<void> {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
}

/**
 * A context's storage holding the host's session cookie `sid=SECRET`, as the collector gives a
 * report page its session (cookies are per host, so it goes to every port of 127.0.0.1).
 */
export function sessionCookie(
  secure = false,
): Exclude<BrowserContextOptions['storageState'], string | undefined> {
  return {
    cookies: [
      {
        name: 'sid',
        value: 'SECRET',
        domain: '127.0.0.1',
        path: '/',
        expires: -1,
        httpOnly: true,
        secure,
        sameSite: 'Lax',
      },
    ],
    origins: [],
  };
}
