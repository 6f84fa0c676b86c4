import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * The box's network fence (README.md § Security and limits): a proxy in the worker that the boxed
 * context sends every request through (`newContext({ proxy })`, loopback included: Playwright
 * passes `<-loopback>` to Chromium), and that forwards only to the box's origins.
 *
 * The box's route sees only the first request of a chain; Chromium then follows each hop of a
 * redirect itself, and makes requests of its own (speculation rules a server names in a header, a
 * dedicated worker's sockets). All of them still go out through the context's proxy, with the
 * host's cookies: the fence refuses each one whose origin is not the box's, so a cookie never
 * leaves for another origin (another port of the report's host included). A refused request gets
 * `403` from the fence and is counted by origin (the run's notes name it, pages/box.ts
 * `blockedNote`); nothing it carried is kept or logged.
 *
 * What the fence sees of HTTPS is the `CONNECT host:port` of a tunnel: it is opened only to a
 * host and port one of the box's origins has (its scheme's default port when it names none).
 * WebSockets reach it as a tunnel (`wss:`, and `ws:` through a proxy) or as an upgrade, and are
 * held to the same origins.
 */
export interface Fence {
  /** The proxy's URL, for `newContext({ proxy: { server } })`. */
  server: string;
  /** Origins refused, with how many requests each (`host:port` of a tunnel as `https://host:port`). */
  refused: Map<string, number>;
  /** Stops listening and ends every connection it holds. */
  close(): Promise<void>;
}

/** Headers of one hop, never forwarded (RFC 9110 §7.6.1) and the proxy's own. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'upgrade',
]);

/**
 * The header of the fence's own `502`: the host of an allowed origin did not answer, and why
 * (`ECONNREFUSED`, `ENOTFOUND`, …), where Chromium would have said it without a proxy.
 */
export const FENCE_ERROR = 'x-l1-fence-error';

/** A network error's code, as a header may carry it. */
function causeOf(e: NodeJS.ErrnoException): string {
  return /^[A-Z][A-Z0-9_]{0,39}$/.test(e.code ?? '') ? e.code! : 'no answer';
}

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * Headers the fence reads and writes, each way: Chromium's own limit for a response's headers
 * (256 KB), where Node's default of 16 KB refused a page's many Set-Cookie lines and a session of
 * large cookies that Chromium alone loads (audit of the fence, 2026-11-26).
 */
const MAX_HEADER_BYTES = 256 * 1024;

/** A URL's host name as a socket takes it: an IPv6 address without its brackets. */
function bare(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '');
}

/** `host:port` of each origin (the scheme's default port when it names none), as a tunnel asks. */
function hostPorts(origins: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const o of origins) {
    try {
      const u = new URL(o);
      out.add(`${bare(u.hostname)}:${u.port || DEFAULT_PORT[u.protocol] || ''}`);
    } catch {
      // not an origin: allows nothing
    }
  }
  return out;
}

function headersOut(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

/** A proxied request's absolute `http:` (or, for an upgrade, `ws:`) URL; undefined for anything else. */
function absolute(url: string | undefined, schemes: readonly string[]): URL | undefined {
  try {
    const u = new URL(url ?? '');
    return schemes.includes(u.protocol) ? u : undefined;
  } catch {
    return undefined;
  }
}

/** The `host:port` of a tunnel, or undefined when it is not one (a bracketed IPv6 host is kept). */
function tunnelTarget(target: string | undefined): { host: string; port: number } | undefined {
  const m = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(target ?? '');
  if (!m) return undefined;
  const port = Number(m[2]);
  return port > 0 && port < 65536 ? { host: bare(m[1]!), port } : undefined;
}

/**
 * The fence's own `502` for an answer it cannot pass on, `why` in its header (pages/ReportPage.ts
 * reads it); a response already begun is cut instead.
 */
function unpassable(res: http.ServerResponse, why: string): void {
  if (res.headersSent) res.destroy();
  else res.writeHead(502, { [FENCE_ERROR]: why, connection: 'close' }).end();
}

/** `client` and `upstream` joined both ways; either closing closes the other. */
function splice(client: Duplex, upstream: Duplex): void {
  upstream.pipe(client);
  client.pipe(upstream);
  upstream.on('close', () => client.destroy());
  client.on('close', () => upstream.destroy());
}

/** Opens a fence that lets through only `allowed` (http(s) origins, as the box's). */
export async function openFence(allowed: readonly string[]): Promise<Fence> {
  const origins = new Set(allowed);
  const tunnels = hostPorts(allowed);
  const refused = new Map<string, number>();
  const refuse = (origin: string) => refused.set(origin, (refused.get(origin) ?? 0) + 1);
  const open = new Set<Duplex>();
  const hold = (socket: Duplex) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  // One connection kept to each origin for the page's requests (a new one for each cost ~10 ms a load).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
  const denied = 'HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';

  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    try {
      forward(req, res);
    } catch {
      // Nothing a page or its host sends may end the worker.
      unpassable(res, 'UNREADABLE_ANSWER');
    }
  });
  function forward(req: http.IncomingMessage, res: http.ServerResponse): void {
    // HTTPS comes as a tunnel (below): an absolute URL here is plain HTTP.
    const u = absolute(req.url, ['http:']);
    if (u === undefined) return void res.writeHead(400, { connection: 'close' }).end();
    if (!origins.has(u.origin)) {
      refuse(u.origin);
      return void res
        .writeHead(403, { 'content-type': 'text/plain', connection: 'close' })
        .end("refused by the report page's box: this origin may not be reached\n");
    }
    const upstream = http.request(
      {
        host: bare(u.hostname),
        port: u.port || 80,
        maxHeaderSize: MAX_HEADER_BYTES,
        method: req.method,
        path: `${u.pathname}${u.search}`,
        headers: headersOut(req.headers),
        agent,
      },
      (answer) => {
        try {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headersOut(answer.headers));
        } catch {
          // A status Node will not write (below 100, above 999) or a header it refuses.
          answer.destroy();
          return unpassable(res, 'UNREADABLE_ANSWER');
        }
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    // The host did not answer: said in a header of the fence's own (pages/ReportPage.ts reads it).
    upstream.on('error', (e: NodeJS.ErrnoException) => unpassable(res, causeOf(e)));
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  }
  server.on('connection', hold);
  // Tunnels: HTTPS, and WebSockets through a proxy.
  server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const target = tunnelTarget(req.url);
    if (target === undefined || !tunnels.has(`${target.host}:${target.port}`)) {
      const host = target && target.host.includes(':') ? `[${target.host}]` : target?.host;
      refuse(target ? `https://${host}${target.port === 443 ? '' : `:${target.port}`}` : 'null');
      return void socket.end(denied);
    }
    let connected = false;
    const upstream = net.connect(target.port, target.host, () => {
      connected = true;
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      splice(socket, upstream);
    });
    hold(upstream);
    upstream.on('error', (e: NodeJS.ErrnoException) => {
      if (!connected)
        socket.end(
          `HTTP/1.1 502 Bad Gateway\r\n${FENCE_ERROR}: ${causeOf(e)}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
        );
    });
    socket.on('close', () => upstream.destroy());
  });
  // A WebSocket asked of the proxy as an absolute URL: the same origins, passed on byte for byte.
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const u = absolute(req.url, ['http:', 'ws:']);
    const origin = u === undefined ? 'null' : `http://${u.host}`;
    if (u === undefined || !origins.has(origin)) {
      refuse(origin);
      return void socket.end(denied);
    }
    const lines = [`${req.method} ${u.pathname}${u.search} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      if (!/^proxy-/i.test(name)) lines.push(`${name}: ${req.rawHeaders[i + 1]}`);
    }
    // Written before anything the page sends: a socket keeps writes in order until it connects.
    const upstream = net.connect(Number(u.port || 80), bare(u.hostname));
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    hold(upstream);
    splice(socket, upstream);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
