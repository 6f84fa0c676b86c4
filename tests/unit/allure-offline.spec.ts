import { expect, test } from './test-type';
import {
  describeExternalUrls,
  findExternalUrls,
  isLoopbackHost,
  makeOffline,
  REMOVED_URL,
  runHosts,
} from '../../lib/report/allure/offline';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

/** The shape of an awesome single-file report: app bundle as a data URL, data files as `d(name, base64)`. */
function report(parts: { head?: string; app?: string; data?: Record<string, string> } = {}): string {
  const app = parts.app ?? 'const svg="http://www.w3.org/2000/svg";const base="https://localhost";';
  const data = Object.entries(parts.data ?? { 'widgets/statistic.json': '{"total":1}' })
    .map(([name, body]) => `d("${name}","${b64(body)}")`)
    .join(',');
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'%3E%3C/svg%3E">
<script>window.allureReportOptions = {"ci":{"jobUrl":""}}</script>
${parts.head ?? ''}
<script src="data:text/javascript;base64,${b64(app)}"></script>
</head><body><div id="app"></div>
<script defer>Promise.allSettled([${data}])</script></body></html>`;
}

const ANALYTICS = `<script async src="https://www.googletagmanager.com/gtag/js?id=G-LNDJ3J7WT0"></script>
<script>
  window.dataLayer = window.dataLayer || [];
  function gtag(){dataLayer.push(arguments);}
  gtag('js', new Date());
  gtag('config', 'G-LNDJ3J7WT0', {"report": "awesome"});
</script>`;

test.describe('README.md § Security and limits: a report that calls nobody', () => {
  test('a clean report names no external host: namespaces, loopback and data URLs are fine', () => {
    expect(findExternalUrls(report())).toEqual([]);
  });

  test('the planted analytics tag is found, removed, and the result passes the check', () => {
    const planted = report({ head: ANALYTICS });
    expect(findExternalUrls(planted).map((f) => f.host)).toEqual(['www.googletagmanager.com']);
    // As scripts/report.ts says it when a host is left after cleaning.
    expect(describeExternalUrls(findExternalUrls(planted))).toMatch(/www\.googletagmanager\.com/);

    const { html, removed } = makeOffline(planted);
    expect(html).not.toContain('googletagmanager');
    expect(html).not.toContain('gtag(');
    expect(removed).toEqual(['<script src> from www.googletagmanager.com', 'inline analytics script']);
    expect(findExternalUrls(html)).toEqual([]);
    // the rest of the page is untouched
    expect(html).toContain('window.allureReportOptions');
    expect(html).toContain("xmlns='http://www.w3.org/2000/svg'");
  });

  test('hosts hidden in the base64 app bundle and data files are found and neutralised', () => {
    const planted = report({
      app: 'const Rs="https://trace.playwright.dev",Ns=`${Rs}/`;const a={href:"https://allurereport.org"};const svg="http://www.w3.org/2000/svg";',
      data: {
        'widgets/ci.json': '{"jobUrl":"https://github.com/acme/l1/actions/runs/1"}',
        'data/test-results/1.json':
          '{"message":"GET https://platform.example.com/api: HTTP 500","links":[{"url":"http://127.0.0.1:4173/r"}]}',
        'data/attachments/2.png': '\u0089PNG https://binary.example',
      },
    });
    // a plain-text search of the file sees none of them
    expect(planted).not.toMatch(/trace\.playwright\.dev|github\.com|platform\.example/);
    const found = findExternalUrls(planted);
    expect(found.map((f) => `${f.where} ${f.host}`).sort()).toEqual([
      'data/test-results/1.json platform.example.com',
      'data:text/javascript allurereport.org',
      'data:text/javascript trace.playwright.dev',
      'widgets/ci.json github.com',
    ]);

    // the configured runs' host is not a third party
    const allowed = { allowedHosts: ['platform.example.com'] };
    expect(findExternalUrls(planted, allowed).map((f) => f.host)).not.toContain('platform.example.com');

    const { html } = makeOffline(planted, allowed);
    expect(findExternalUrls(html, allowed)).toEqual([]);
    const app = unb64(/data:text\/javascript;base64,([A-Za-z0-9+/=]+)/.exec(html)?.[1] ?? '');
    expect(app).toContain(`const Rs="${REMOVED_URL}",Ns=\`\${Rs}/\``);
    expect(app).toContain('const svg="http://www.w3.org/2000/svg"');
    const result = unb64(/d\("data\/test-results\/1\.json","([^"]*)"\)/.exec(html)?.[1] ?? '');
    expect(JSON.parse(result)).toEqual({
      message: 'GET https://platform.example.com/api: HTTP 500',
      links: [{ url: 'http://127.0.0.1:4173/r' }],
    });
    // without the allowance the platform host goes too, and the JSON stays valid
    const strict = makeOffline(planted).html;
    const strictResult = unb64(/d\("data\/test-results\/1\.json","([^"]*)"\)/.exec(strict)?.[1] ?? '');
    // data is defanged, not replaced: the reader still sees the host and the path
    expect(JSON.parse(strictResult).message).toBe('GET hxxps://platform[.]example[.]com/api: HTTP 500');
    expect(findExternalUrls(strict)).toEqual([]);
  });

  test('URLs glued together in data are each defanged, host and path kept; nothing is left to find', () => {
    // A source whose title is its URL (item 11/12's mismatch table has it twice in a row: key and
    // HTML value), and generated neighbours glued by CJK brackets, commas, JSON escapes, nothing.
    const urls: [string, string][] = [
      ['https://www.zhihu.com/question/58123456', 'hxxps://www[.]zhihu[.]com/question/58123456'],
      [
        'http://news.example.cn:8080/a/b.html?id=7&x=1#top',
        'hxxp://news[.]example[.]cn:8080/a/b.html?id=7&x=1#top',
      ],
      ['https://中文.example/路径/页', 'hxxps://中文[.]example/路径/页'],
      ['HTTPS://Upper.Example/X', 'HXXPS://Upper[.]Example/X'],
      // the host is after the userinfo: not loopback
      ['https://127.0.0.1@evil.example/after-userinfo', 'hxxps://127.0.0.1@evil[.]example/after-userinfo'],
    ];
    const glues = ['」,「', ',', '，', '」', '\n', ';', '|', '」\n「', ''];
    const data: Record<string, string> = {};
    const csvs: Record<string, string> = {};
    const jsons: Record<string, unknown> = {};
    for (const [g, glue] of glues.entries())
      for (let i = 0; i < urls.length; i++) {
        const three = [i, (i + 1) % urls.length, (i + 3) % urls.length].map((k) => urls[k]!);
        const text = `「${three.map(([url]) => url).join(glue)}」`;
        const want = `「${three.map(([, shown]) => shown).join(glue)}」`;
        const csv = `data/attachments/${g}-${i}.csv`;
        data[csv] = `key,html\r\ntitle ${text},${text}\r\n`;
        csvs[csv] = `key,html\r\ntitle ${want},${want}\r\n`;
        // JSON with "\n" and "\/" escapes, and the text percent-encoded in a link's query
        const json = `data/test-results/${g}-${i}.json`;
        data[json] = JSON.stringify({ message: text, link: `x?u=${encodeURIComponent(text)}` }).replace(
          /\//g,
          '\\/',
        );
        jsons[json] = { message: want, link: `x?u=${want}` };
      }
    const planted = report({ data });
    const found = findExternalUrls(planted);
    // three URLs a case, twice in each file (CSV: key and value; JSON: message and link)
    expect(found).toHaveLength(Object.keys(data).length * 3 * 2);
    expect(new Set(found.map((f) => f.host))).toEqual(
      new Set([
        ...['www.zhihu.com', 'news.example.cn', '中文.example', 'upper.example', 'evil.example'],
        '%e4%b8%ad%e6%96%87.example',
      ]),
    );

    const { html } = makeOffline(planted);
    expect(findExternalUrls(html)).toEqual([]);
    const embedded = (name: string) =>
      unb64(new RegExp(`d\\("${name.replace(/[./]/g, '\\$&')}","([^"]*)"\\)`).exec(html)?.[1] ?? '');
    for (const [name, want] of Object.entries(csvs)) expect(embedded(name), name).toBe(want);
    // still JSON; the percent-encoded URLs defanged in their own spelling
    for (const [name, want] of Object.entries(jsons)) {
      const value = JSON.parse(embedded(name)) as { message: string; link: string };
      expect({ ...value, link: decodeURIComponent(value.link) }, name).toEqual(want);
    }
  });

  test('the verifier catches leftovers in every spelling and in elements that load', () => {
    const leftovers = [
      '<img src="https://cdn.example/x.png">',
      '<link rel="stylesheet" href="https://fonts.googleapis.com/css">',
      '<iframe src="//frame.example/x"></iframe><a href="https://evil.example/y">y</a>',
      '<style>body{background:url(//css.example/bg.png)}</style>',
      '<script>const u = "https:\\/\\/json.example\\/p";</script>',
      '<script>const e = "https%3A%2F%2Fencoded.example%2Fq";</script>',
      '<script>const v = "http://[2001:db8::1]:8080/x";</script>',
      // As a result's JSON holds the HTML markdown made of a description (output injection audit).
      '<script>const r = {"descriptionHtml":"<img src=\\"//md.example/p.png\\"> <a href=\\"\\/\\/phish.example/x\\">x</a>"};</script>',
    ];
    const planted = report({ head: leftovers.join('\n') });
    expect([...new Set(findExternalUrls(planted).map((f) => f.host))].sort()).toEqual([
      '[2001:db8::1]',
      'cdn.example',
      'css.example',
      'encoded.example',
      'evil.example',
      'fonts.googleapis.com',
      'frame.example',
      'json.example',
      'md.example',
      'phish.example',
    ]);
    const { html } = makeOffline(planted);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('fonts.googleapis.com');
    expect(html).not.toContain('<iframe');
    expect(findExternalUrls(html)).toEqual([]);
  });

  test('loopback and run hosts', () => {
    for (const h of ['localhost', 'a.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1']) {
      expect(isLoopbackHost(h), h).toBe(true);
    }
    for (const h of ['127.0.0.1.nip.io', 'localhost.example', '10.0.0.1', 'example.com']) {
      expect(isLoopbackHost(h), h).toBe(false);
    }
    expect(
      runHosts(['https://Platform.Example.com:8443/p?token=x', null, '/tmp/cal.json', 'http://[::1]:4173/']),
    ).toEqual(['platform.example.com', '::1']);
  });
});
