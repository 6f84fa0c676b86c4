import type { Browser, BrowserContext, BrowserContextOptions, Page } from '@playwright/test';
import { openFence } from './fence';
import { escapeRegExp } from '../lib/util/escape';

/**
 * The report page in a box (README.md § Security and limits): the page may reach its own origin,
 * the origins credentials may go to and `L1_PAGE_ORIGINS`; every other request (a tracker, a
 * foreign host it would send the session's data to, another port of its host) is aborted and
 * named in the run's notes, so a user can allow a CDN. Service workers are blocked and downloads
 * refused when the context is made (`contextOptions`).
 *
 * Playwright's route sees the requests of the page, its frames and dedicated workers, but not
 * WebSockets, nor the hops of a redirect, nor what Chromium fetches on its own. So the box also:
 * sends every request of the context through a fence (pages/fence.ts: a proxy in the worker that
 * forwards only to the same origins), which refuses a redirect hop, a dedicated worker's socket or
 * a prefetch a server's `Speculation-Rules` header asks for before it leaves with the host's
 * cookies; routes the page's WebSockets (one to an origin outside the box is closed and counted);
 * runs `boxInit` in every frame before any script of the page, which keeps the native WebSocket out
 * of the page's reach (every socket is checked against the box when it is made), removes the
 * channels no route sees (SharedWorker, WebRTC, WebTransport, WebSocketStream) and every
 * speculation rules script before Chromium acts on it; and the browser is launched without WebRTC
 * over UDP (lib/run/browser.ts `BOX_FLAGS`).
 *
 * Windows: every page the context opens other than the report page (a popup of `window.open`, with
 * or without `noopener`, a `target=_blank` link or form, a popup's own popups) is closed as soon as
 * Playwright reports it (`page` event), and counted in the run's notes (`NEW_WINDOWS`). A report
 * page needs no window to show DATA or its sections, and a window is a renderer of its own: left
 * open, windows would hold memory past L1_PAGE_MAX_MB ("over `L1_PAGE_MAX_MB` the run is an
 * error", README.md § Security and limits; pages/memory.ts counts every renderer as well, for the
 * moment a window lives before it is closed).
 */
const BOXED_CONTEXT = { acceptDownloads: false, serviceWorkers: 'block' } as const;

export interface Box {
  /**
   * Origins the page asked for and was refused, with how many requests each; and, under
   * `NEW_WINDOWS` (never an origin), how many windows the page opened that the box closed.
   */
  blocked(): Map<string, number>;
}

/** The key of `Box.blocked()` that counts the windows the box closed (an origin has `//` in it). */
export const NEW_WINDOWS = 'new windows';

/** Schemes the route lets pass (no origin of their own to refuse). */
const PASS_SCHEMES = '(?:data|blob|about|chrome-extension):';
const PASS = new RegExp(`^${PASS_SCHEMES}`);

/** Channels a page could open past the route: removed from every frame. */
const REMOVED = [
  'SharedWorker',
  'RTCPeerConnection',
  'webkitRTCPeerConnection',
  'RTCDataChannel',
  'RTCIceTransport',
  'WebTransport',
  'WebSocketStream',
];

/**
 * The box's script in every frame, before the page's (`context.addInitScript`). Everything it
 * uses is captured first (`Reflect.apply` of the original getters), so a page that replaces `URL`,
 * `String.prototype` methods or DOM getters changes nothing here. The WebSocket constructor the
 * page sees (and Playwright's WebSocket route, installed after it, connects through) makes a
 * socket only to an origin of the box, from the URL it resolved itself: a socket whose URL a page
 * changes after the route let it through is refused too. `allowed` are http(s) origins.
 */
function boxInit(allowed: readonly string[]): string {
  return `(() => {
  const g = globalThis, apply = Reflect.apply, construct = Reflect.construct, describe = Object.getOwnPropertyDescriptor;
  for (const name of ${JSON.stringify(REMOVED)}) {
    try { delete g[name]; } catch (e) { /* not there */ }
  }
  const getter = (C, p) => describe(C.prototype, p).get;
  // Speculation rules make Chromium fetch (prefetch, prerender) past every route: a rules script
  // is removed as soon as it is in the document, before Chromium reads its rules (a mutation
  // observer's callback runs before the microtask that hands them over).
  const MO = g.MutationObserver, doc = g.document;
  if (typeof MO === 'function' && doc) {
    const localName = getter(g.Element, 'localName'), getAttribute = g.Element.prototype.getAttribute;
    const getByTag = g.Element.prototype.getElementsByTagName, remove = g.Element.prototype.remove;
    const addedNodes = getter(g.MutationRecord, 'addedNodes'), target = getter(g.MutationRecord, 'target');
    const nodeType = getter(g.Node, 'nodeType'), trim = String.prototype.trim, lower = String.prototype.toLowerCase;
    const collectionLength = getter(g.HTMLCollection, 'length'), listLength = getter(g.NodeList, 'length');
    const isRules = (el) => {
      const type = apply(getAttribute, el, ['type']);
      return typeof type === 'string' && apply(lower, apply(trim, type, []), []) === 'speculationrules';
    };
    const isScript = (node) => apply(nodeType, node, []) === 1 && apply(localName, node, []) === 'script';
    // A node added, with what it holds (a script inserted inside a new element runs too).
    const sweep = (node) => {
      if (apply(nodeType, node, []) !== 1) return;
      if (isScript(node)) {
        if (isRules(node)) apply(remove, node, []);
        return;
      }
      // A live list: from its end, so a removal leaves the items still to see where they were.
      const scripts = apply(getByTag, node, ['script']);
      for (let i = apply(collectionLength, scripts, []) - 1; i >= 0; i--)
        if (isRules(scripts[i])) apply(remove, scripts[i], []);
    };
    const observer = new MO((records) => {
      for (let r = 0; r < records.length; r++) {
        // Text put into a script that had none is read then too: the script itself, not its parent's tree.
        const changed = apply(target, records[r], []);
        if (isScript(changed) && isRules(changed)) apply(remove, changed, []);
        const added = apply(addedNodes, records[r], []);
        for (let i = 0, n = apply(listLength, added, []); i < n; i++) sweep(added[i]);
      }
    });
    observer.observe(doc, { childList: true, subtree: true });
  }
  const Native = g.WebSocket;
  if (typeof Native !== 'function') return;
  const allowed = ${JSON.stringify(allowed)};
  const URL_ = g.URL, Str = g.String, DOMEx = g.DOMException, TypeErr = g.TypeError;
  const protocolOf = getter(URL_, 'protocol'), hostOf = getter(URL_, 'host'), hrefOf = getter(URL_, 'href');
  const baseOf = getter(g.Node, 'baseURI');
  function WebSocket(url, protocols) {
    if (new.target === undefined) throw new TypeErr("Failed to construct 'WebSocket': Please use the 'new' operator.");
    const text = Str(url);
    let u;
    try { u = new URL_(text, doc ? apply(baseOf, doc, []) : undefined); } catch (e) { u = undefined; }
    if (u !== undefined) {
      const scheme = apply(protocolOf, u, []);
      const origin = (scheme === 'wss:' ? 'https:' : scheme === 'ws:' ? 'http:' : scheme) + '//' + apply(hostOf, u, []);
      for (let i = 0; i < allowed.length; i++)
        if (allowed[i] === origin) return construct(Native, [apply(hrefOf, u, []), protocols], new.target);
    }
    throw new DOMEx("Failed to construct 'WebSocket': the report page's box does not allow " + text, 'SecurityError');
  }
  WebSocket.prototype = Native.prototype;
  for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED'])
    Object.defineProperty(WebSocket, k, { value: Native[k], enumerable: true });
  Object.defineProperty(Native.prototype, 'constructor', { value: WebSocket, writable: true, configurable: true });
  Object.defineProperty(g, 'WebSocket', { value: WebSocket, writable: true, configurable: true });
})();`;
}

/**
 * A WebSocket URL's http(s) origin, as the box's origins are written (`ws:` is `http:`). The init
 * script (`boxInit`) maps them the same way, with the built-ins it captured before the page ran.
 */
function socketOrigin(url: string): string {
  try {
    const u = new URL(url);
    const scheme = u.protocol === 'wss:' ? 'https:' : u.protocol === 'ws:' ? 'http:' : u.protocol;
    return `${scheme}//${u.host}`;
  } catch {
    return 'null';
  }
}

/**
 * A new context of `browser` in a box of `allowed` origins: its requests go through a fence of the
 * same origins (pages/fence.ts), which closes with the context, and the box is set up before any
 * page opens. What either refuses is counted in one map (`Box.blocked()`).
 */
export async function newBoxedContext(
  browser: Browser,
  allowed: readonly string[],
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; box: Box }> {
  const fence = await openFence(allowed);
  let context: BrowserContext | undefined;
  try {
    context = await browser.newContext({ ...options, ...BOXED_CONTEXT, proxy: { server: fence.server } });
    context.on('close', () => void fence.close());
    return { context, box: await boxContext(context, allowed, fence.refused) };
  } catch (e) {
    await context?.close().catch(() => {});
    await fence.close();
    throw e;
  }
}

/**
 * Boxes `context` (a fresh one: the box is made before the report page is opened, as
 * `newBoxedContext` does); what it refuses is counted in `blocked`. The report page is the first
 * page of the context: the one it holds already, else the first it opens; every other page is
 * closed as it appears.
 */
async function boxContext(
  context: BrowserContext,
  allowed: readonly string[],
  blocked: Map<string, number>,
): Promise<Box> {
  const origins = new Set(allowed);
  const refuse = (origin: string) => blocked.set(origin, (blocked.get(origin) ?? 0) + 1);
  // Decision (README.md: "over `L1_PAGE_MAX_MB` the run is an error"): windows are closed rather
  // than allowed and measured, since no report needs one; the memory watch sums every renderer
  // only for the moment one lives. The first page is the report page whatever it later does; any
  // other page, however opened (Playwright reports popups with and without an opener alike), is
  // closed as soon as it is reported (Playwright holds a new window's script until it has set the
  // window up, just before reporting it: little runs there before the close).
  let reportPage: Page | undefined = context.pages()[0];
  context.on('page', (page) => {
    if (reportPage === undefined) reportPage = page;
    if (page === reportPage) return;
    refuse(NEW_WINDOWS);
    page.close().catch(() => {}); // closed already, or its context with it
  });
  // First: Playwright's WebSocket route (below) captures the constructor this script leaves.
  await context.addInitScript(boxInit([...origins]));
  await context.routeWebSocket(
    (url) => !origins.has(socketOrigin(url.href)),
    (ws) => {
      refuse(socketOrigin(ws.url()));
      return ws.close();
    },
  );
  await context.route(routedUrls(origins), async (route) => {
    const refused = refusedOrigin(route.request().url(), origins);
    if (refused === undefined) return route.continue();
    refuse(refused);
    return route.abort('blockedbyclient');
  });
  return { blocked: () => blocked };
}

/**
 * The route's decision on a request: undefined when it goes through (a scheme that passes, or one
 * of the box's origins), else the origin it is refused and counted under ('null' for a URL that
 * does not parse).
 */
export function refusedOrigin(url: string, origins: ReadonlySet<string>): string | undefined {
  if (PASS.test(url)) return undefined;
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    origin = 'null';
  }
  return origins.has(origin) ? undefined : origin;
}

/**
 * The requests the box's route handles: every URL but those that begin with one of the box's own
 * origins (then `/`, `?`, `#` or their end) and those of the schemes it lets pass. A RegExp is
 * matched by Playwright's driver, which continues a request of the box's own origins itself; a
 * `**` glob sent each one to the handler and back (docs/decisions.md, "The box's route as a
 * RegExp": CPU 0.94-0.96 on 100 light runs). Only a URL whose origin is one of the box's can
 * begin so, so the handler still sees every request `refusedOrigin` refuses; an allowed entry
 * that is not an http(s) origin as `URL.origin` writes it is left out of the pattern.
 */
export function routedUrls(origins: ReadonlySet<string>): RegExp {
  const own = [...origins].filter((o) => {
    try {
      const u = new URL(o);
      return u.origin === o && (u.protocol === 'http:' || u.protocol === 'https:');
    } catch {
      return false;
    }
  });
  const ownPart = own.length ? `|(?:${own.map(escapeRegExp).join('|')})(?:[/?#]|$)` : '';
  return new RegExp(`^(?!${PASS_SCHEMES}${ownPart})`);
}

/** The run's note about what the box refused (origins, then windows), if anything. */
export function blockedNote(blocked: Map<string, number>): string | undefined {
  const notes: string[] = [];
  const refused = [...blocked].filter(([origin]) => origin !== NEW_WINDOWS);
  if (refused.length > 0) {
    const list = refused
      .slice(0, 5)
      .map(([origin, n]) => `${origin} (${n})`)
      .join(', ');
    const more = refused.length > 5 ? ` and ${refused.length - 5} more` : '';
    notes.push(
      `the report page asked for origins it may not reach, blocked: ${list}${more}; L1_PAGE_ORIGINS allows one (e.g. a CDN)`,
    );
  }
  const windows = blocked.get(NEW_WINDOWS);
  if (windows)
    notes.push(
      `the report page opened ${windows} new window${windows === 1 ? '' : 's'} (popups), closed as ${windows === 1 ? 'it' : 'they'} opened: a report needs none to show its DATA`,
    );
  return notes.length > 0 ? notes.join('; ') : undefined;
}
