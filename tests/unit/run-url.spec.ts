import { expect, test } from './test-type';
import {
  hostSettingProblem,
  maskUrlText,
  normalizeDate,
  onPortalHost,
  pageLoginBase,
  portalHost,
  readUrls,
} from '../../lib/run/url';

const platformUrl = 'https://geo.example.com/platform/projects/P1001/overview';

test.describe('docs/contract.md §1.1: what is read from the URLs', () => {
  test('query forms: reportType, batchDate, companyId, topic; projectId after a "projects" segment', () => {
    const facts = readUrls({
      htmlUrl:
        'https://reports.example.com/l1/view?reportType=monitor&batchDate=2026-11-20&companyId=1001&topic=T9',
      platformUrl,
    });
    expect(facts).toEqual({
      reportType: 'monitor',
      batchDate: '2026-11-20',
      companyId: 1001,
      topic: 'T9',
      projectId: 'P1001',
      host: 'reports.example.com',
      protocol: 'https:',
      baseUrl: 'https://geo.example.com',
    });
  });

  test('snake_case query names and a YYYYMMDD batch date normalise to YYYY-MM-DD', () => {
    const facts = readUrls({
      htmlUrl: 'http://127.0.0.1:4173/r?report_type=diagnosis&batch_date=20261119&company_id=7&topicId=x',
      platformUrl: 'http://127.0.0.1:4173/platform?project_id=P7',
    });
    expect(facts).toMatchObject({
      reportType: 'diagnosis',
      batchDate: '2026-11-19',
      companyId: 7,
      topic: 'x',
      projectId: 'P7',
      host: '127.0.0.1:4173',
    });
  });

  test('path segments: monitor|diagnosis and a YYYY-MM-DD or YYYYMMDD segment; project after "project"', () => {
    const facts = readUrls({
      htmlUrl: 'https://h/reports/P1/diagnosis/20261118/index.html',
      platformUrl: 'https://h/project/P1',
      companyId: '42',
    });
    expect(facts).toMatchObject({
      reportType: 'diagnosis',
      batchDate: '2026-11-18',
      companyId: 42,
      projectId: 'P1',
    });
    expect(facts.topic).toBeUndefined();
  });

  test('the query wins over a path segment (first match wins)', () => {
    const facts = readUrls({
      htmlUrl: 'https://h/monitor/2026-01-01?reportType=diagnosis&batchDate=2026-02-02&companyId=1',
      platformUrl,
    });
    expect(facts).toMatchObject({ reportType: 'diagnosis', batchDate: '2026-02-02' });
  });

  test('the URL companyId wins over the run companyId; the run companyId is the fallback', () => {
    expect(
      readUrls({ htmlUrl: 'https://h/monitor/2026-01-01?companyId=5', platformUrl, companyId: 9 }).companyId,
    ).toBe(5);
    expect(readUrls({ htmlUrl: 'https://h/monitor/2026-01-01', platformUrl, companyId: 9 }).companyId).toBe(
      9,
    );
  });

  test('baseUrl overrides the platform origin, without a trailing slash', () => {
    const facts = readUrls({
      htmlUrl: 'https://h/monitor/2026-01-01?companyId=1',
      platformUrl,
      baseUrl: 'https://api.example.com/gw/',
    });
    expect(facts.baseUrl).toBe('https://api.example.com/gw');
  });

  test('spec 1.6: a report type other than monitor or diagnosis is an error naming the field', () => {
    expect(() =>
      readUrls({ htmlUrl: 'https://h/x/2026-01-01?reportType=weekly&companyId=1', platformUrl }),
    ).toThrow('htmlUrl · reportType: must be monitor or diagnosis, got "weekly"');
  });

  test('missing values are errors naming the URL and the field', () => {
    expect(() => readUrls({ htmlUrl: 'https://h/x/2026-01-01?companyId=1', platformUrl })).toThrow(
      /htmlUrl · reportType: missing/,
    );
    expect(() => readUrls({ htmlUrl: 'https://h/monitor?companyId=1', platformUrl })).toThrow(
      /htmlUrl · batchDate: missing/,
    );
    expect(() => readUrls({ htmlUrl: 'https://h/monitor/2026-01-01', platformUrl })).toThrow(
      /htmlUrl · companyId: missing/,
    );
    expect(() =>
      readUrls({ htmlUrl: 'https://h/monitor/2026-01-01?companyId=1', platformUrl: 'https://h/overview' }),
    ).toThrow(/platformUrl · projectId: missing/);
    expect(() => readUrls({ htmlUrl: 'not a url', platformUrl })).toThrow(
      /htmlUrl · url: not an absolute http\(s\) URL/,
    );
  });

  test("a hash-routed page's values after # are still not read (§1.1), and the message says that is where they are, by name only, and what to do", () => {
    const message = (htmlUrl: string, platform = platformUrl) => {
      try {
        readUrls({ htmlUrl, platformUrl: platform });
        return 'read';
      } catch (e) {
        return (e as Error).message;
      }
    };
    const note = (what: string) =>
      ` (the part after # has ${what}, which is never read, docs/contract.md §1.1: repeat it in the query before the #, where a hash-routed page ignores it)`;
    expect(message('https://h/#/report?reportType=monitor&batchDate=2026-01-01&companyId=1&token=t0k')).toBe(
      `htmlUrl · reportType: missing: add the query reportType=monitor|diagnosis or a path segment monitor|diagnosis${note('reportType=')}`,
    );
    expect(message('https://h/#/monitor/2026-01-01?companyId=1')).toContain(note('a segment monitor'));
    expect(message('https://h/monitor?companyId=1#/?batch_date=2026-01-01')).toContain(note('batch_date='));
    expect(message('https://h/monitor/2026-01-01#/?companyId=1')).toContain(note('companyId='));
    expect(message('https://h/monitor/2026-01-01?companyId=1', 'https://p/#/projects/P1')).toBe(
      `platformUrl · projectId: missing: add the query projectId=… or a path …/projects/<projectId>/… to the platform URL${note('a segment projects')}`,
    );
    expect(message('https://h/#/report?reportType=monitor&token=t0k')).not.toContain('t0k');
    // Near miss: repeated before the #, the values are read; a fragment naming none adds nothing.
    expect(
      message('https://h/?reportType=monitor&batchDate=2026-01-01&companyId=1#/report?reportType=monitor'),
    ).toBe('read');
    expect(message('https://h/x/2026-01-01?companyId=1#section-2')).toBe(
      'htmlUrl · reportType: missing: add the query reportType=monitor|diagnosis or a path segment monitor|diagnosis',
    );
  });

  test('an impossible date is not a batch date', () => {
    expect(normalizeDate('2026-02-30')).toBeUndefined();
    expect(normalizeDate('20261301')).toBeUndefined();
    expect(() =>
      readUrls({ htmlUrl: 'https://h/monitor?batchDate=2026-02-30&companyId=1', platformUrl }),
    ).toThrow(/htmlUrl · batchDate: not a date/);
  });
});

test.describe('docs/contract.md §1: htmlUrl, platformUrl and baseUrl are absolute http(s) URLs', () => {
  // Assembled at run time: this source never holds a secret-looking value literally.
  const secret = ['hun', 'ter2'].join('');
  const html = 'https://p.example.com/monitor/2026-01-09?companyId=7';
  const platform = 'https://p.example.com/projects/p1';
  const refusal = (input: { htmlUrl: string; platformUrl: string; baseUrl?: string }) => {
    try {
      readUrls(input);
    } catch (e) {
      return (e as Error).message;
    }
    return 'read';
  };

  test('a URL without its scheme is an error naming the field, not an origin "null…"', () => {
    expect(refusal({ htmlUrl: html, platformUrl: platform, baseUrl: 'p.example.com:8443' })).toBe(
      'baseUrl · url: not an absolute http(s) URL (write it with https:// or http://): "p.example.com:8443"',
    );
    expect(refusal({ htmlUrl: 'localhost:4173/monitor/2026-01-09', platformUrl: platform })).toMatch(
      /^htmlUrl · url: not an absolute http\(s\) URL/,
    );
    expect(refusal({ htmlUrl: html, platformUrl: 'localhost:4173/projects/p1' })).toMatch(
      /^platformUrl · url: not an absolute http\(s\) URL/,
    );
    expect(refusal({ htmlUrl: html, platformUrl: platform, baseUrl: 'ftp://p.example.com/x' })).toMatch(
      /^baseUrl · url: not an absolute http\(s\) URL/,
    );
  });

  test('the message never echoes userinfo, a query or a fragment', () => {
    const message = refusal({
      htmlUrl: html,
      platformUrl: platform,
      baseUrl: `admin:${secret}@p.example.com`,
    });
    expect(message).toBe(
      'baseUrl · url: not an absolute http(s) URL (write it with https:// or http://): "***@p.example.com"',
    );
    const query = refusal({
      htmlUrl: `p.example.com /monitor?token=${secret}#k=${secret}`,
      platformUrl: platform,
    });
    expect(query).toContain('"p.example.com /monitor?***"');
    expect(query).not.toContain(secret);
  });

  test('maskUrlText: after the first ? or #, and anything before an @ of a host part, masked', () => {
    expect(maskUrlText(`u:${secret}@h/x?a=1#b`)).toBe('***@h/x?***');
    expect(maskUrlText(`https://u:${secret}@h, http://v@g/p#${secret}`)).toBe(
      'https://***@h, http://***@g/p#***',
    );
    expect(maskUrlText('h/x?')).toBe('h/x?');
    expect(maskUrlText('plain text')).toBe('plain text');
  });
});

test('docs/contract.md §1.1: a batch date is YYYY-MM-DD or YYYYMMDD, never a mix of the two', () => {
  expect(normalizeDate('2026-0109')).toBeUndefined();
  expect(normalizeDate('202601-09')).toBeUndefined();
  expect(normalizeDate('2026-01-09')).toBe('2026-01-09');
  expect(normalizeDate('20260109')).toBe('2026-01-09');
  expect(() =>
    readUrls({ htmlUrl: 'https://h/monitor/2026-01-09?batchDate=2026-0109&companyId=1', platformUrl }),
  ).toThrow('htmlUrl · batchDate: not a date YYYY-MM-DD or YYYYMMDD: "2026-0109"');
});

test.describe('docs/contract.md §1.1: a path segment that is not valid percent-encoding', () => {
  test('a bare % in a segment the suite does not read is skipped, not an error', () => {
    const facts = readUrls({
      htmlUrl: 'https://r.example.com/r/50%off/monitor/2025-01-02',
      platformUrl: 'https://p.example.com/x/100%/projects/P1',
      companyId: 7,
    });
    expect(facts).toMatchObject({ reportType: 'monitor', batchDate: '2025-01-02', projectId: 'P1' });
  });

  test('a bare % in the projectId segment is an error naming platformUrl, projectId and the segment', () => {
    expect(() =>
      readUrls({
        htmlUrl: 'https://h/monitor/2026-01-01?companyId=1',
        platformUrl: 'https://p.example.com/projects/P%1/overview',
      }),
    ).toThrow('platformUrl · projectId: path segment "P%1" is not valid percent-encoding');
  });

  test('an undecodable segment keeps its place: the segment after "projects" is still the next one', () => {
    expect(() =>
      readUrls({
        htmlUrl: 'https://h/monitor/2026-01-01?companyId=1',
        platformUrl: 'https://p.example.com/projects/%zz/P1',
      }),
    ).toThrow(/platformUrl · projectId: path segment "%zz"/);
    expect(
      readUrls({
        htmlUrl: 'https://h/monitor/2026-01-01?companyId=1',
        platformUrl: 'https://p/projects/P%201',
      }).projectId,
    ).toBe('P 1');
  });

  test('a bare % where the batch date would be: the batch date is missing, naming htmlUrl', () => {
    expect(() => readUrls({ htmlUrl: 'https://h/monitor/2026-01%-01', platformUrl, companyId: 1 })).toThrow(
      /htmlUrl · batchDate: missing/,
    );
  });
});

test.describe('docs/contract.md §2/§3: the Profile B host as the URL parser writes it', () => {
  test('an uppercase configured host is lowercased', () => {
    expect(portalHost('Portal.Example.COM', 'https:')).toBe('portal.example.com');
    expect(onPortalHost(new URL('https://portal.example.com/r'), 'Portal.Example.COM')).toBe(true);
  });

  test("the scheme's default port is dropped: :443 with https, :80 with http", () => {
    expect(portalHost('portal.example.com:443', 'https:')).toBe('portal.example.com');
    expect(portalHost('portal.example.com:80', 'http:')).toBe('portal.example.com');
    expect(onPortalHost(new URL('https://portal.example.com:443/r'), 'portal.example.com:443')).toBe(true);
    expect(onPortalHost(new URL('http://portal.example.com/r'), 'portal.example.com:80')).toBe(true);
    // :443 is not http's default port, nor :80 https's: another port.
    expect(onPortalHost(new URL('http://portal.example.com/r'), 'portal.example.com:443')).toBe(false);
    expect(onPortalHost(new URL('https://portal.example.com/r'), 'portal.example.com:80')).toBe(false);
  });

  test('a non-default port is kept and must be the page port', () => {
    expect(portalHost('portal.example.com:8443', 'https:')).toBe('portal.example.com:8443');
    expect(onPortalHost(new URL('https://portal.example.com:8443/r'), 'portal.example.com:8443')).toBe(true);
    expect(onPortalHost(new URL('https://portal.example.com/r'), 'portal.example.com:8443')).toBe(false);
    expect(onPortalHost(new URL('https://portal.example.com:8444/r'), 'portal.example.com:8443')).toBe(false);
  });

  test('a host that only shares a prefix, or a value that is not a plain host[:port], never matches', () => {
    expect(onPortalHost(new URL('https://portal.example.com.evil.test/r'), 'portal.example.com')).toBe(false);
    expect(onPortalHost(new URL('https://portal.example.co/r'), 'portal.example.com')).toBe(false);
    for (const bad of [
      'evil.test/portal.example.com',
      'x@portal.example.com',
      'portal.example.com:99999',
      ' ',
    ])
      expect(portalHost(bad, 'https:'), bad).toBeUndefined();
    expect(onPortalHost(new URL('https://evil.test/r'), 'evil.test/portal.example.com')).toBe(false);
    expect(onPortalHost(new URL('https://portal.example.com/r'), undefined)).toBe(false);
  });
});

test('docs/contract.md §2: a Profile B host setting written as a URL is refused with the host to write', () => {
  expect(hostSettingProblem('portal.example.com')).toBeUndefined();
  expect(hostSettingProblem('Portal.Example.com:8443')).toBeUndefined();
  expect(hostSettingProblem('https://portal.example.com/')).toBe(
    'expected a host[:port], not a URL: write portal.example.com',
  );
  expect(hostSettingProblem(`https://u:${['p', 'w'].join('')}@portal.example.com:8443/x?y`)).toBe(
    'expected a host[:port], not a URL: write portal.example.com:8443',
  );
  expect(hostSettingProblem('portal.example.com/reports')).toBe(
    'expected a host[:port], not a URL: write portal.example.com',
  );
  expect(hostSettingProblem('portal example')).toBe('expected a host[:port], e.g. portal.example.com');
});

test.describe('docs/contract.md §3: where the report page logs in', () => {
  test('base_url (with its path) when the report is on its origin, else the report origin', () => {
    expect(pageLoginBase('https://geo.example.com/r/monitor/2026-01-01', 'https://geo.example.com/gw')).toBe(
      'https://geo.example.com/gw',
    );
    expect(pageLoginBase('https://portal-b.example.com:8443/r?x=1', 'https://geo.example.com')).toBe(
      'https://portal-b.example.com:8443',
    );
  });
});

test('docs/contract.md §1.1: a companyId past 2^53 is an error naming the field, never another company', () => {
  for (const id of ['9007199254740993', '123456789012345678901'])
    expect(() =>
      readUrls({
        htmlUrl: `https://r.test/reports/101/monitor/2026-11-20?companyId=${id}&topic=T`,
        platformUrl,
      }),
    ).toThrow(/companyId.*past 2\^53/);
  expect(
    readUrls({
      htmlUrl: 'https://r.test/reports/101/monitor/2026-11-20?companyId=9007199254740991',
      platformUrl,
    }).companyId,
  ).toBe(9007199254740991);
});
