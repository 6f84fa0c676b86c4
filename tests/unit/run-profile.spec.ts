import { expect, test } from './test-type';
import { recognizeProfile } from '../../lib/run/profile';

const settings = { host: 'portal-b.example.com:8443', groupName: '星河集团', companyId: 3100 };

test.describe('spec 9.1.1 / docs/contract.md §2: Profile B recognition', () => {
  test('the report host equal to {portal_b_host} (with port) → Profile B', () => {
    expect(recognizeProfile({ host: 'portal-b.example.com:8443', companyId: 1 }, settings).profile).toBe('B');
    expect(recognizeProfile({ host: 'portal-b.example.com', companyId: 1 }, settings).profile).toBe('A');
  });

  test('the report host against {portal_b_host} in any letter case, a default port written or not', () => {
    const on = (host: string, portal: string) =>
      recognizeProfile({ host, companyId: 1 }, { host: portal }).profile;
    expect(on('portal.example.com', 'Portal.Example.COM')).toBe('B');
    // https://portal.example.com:443/… is read as host portal.example.com (docs/contract.md §1.1).
    expect(on(new URL('https://portal.example.com:443/r').host, 'portal.example.com:443')).toBe('B');
    expect(on(new URL('http://portal.example.com:80/r').host, 'portal.example.com:80')).toBe('B');
    expect(on('portal.example.com:8443', 'PORTAL.example.com:8443')).toBe('B');
    expect(on('portal.example.com', 'portal.example.com:8443')).toBe('A');
    expect(on('portal.example.com:8444', 'portal.example.com:8443')).toBe('A');
    expect(on('portal.example.com.evil.test', 'portal.example.com')).toBe('A');
  });

  test('with the report scheme known, the configured host is written for it alone: :443 is an https page, never an http one (as where credentials go, §3)', () => {
    const on = (url: string, portal: string) => {
      const page = new URL(url);
      return recognizeProfile({ host: page.host, protocol: page.protocol, companyId: 1 }, { host: portal })
        .profile;
    };
    expect(on('https://portal.example.com/r', 'portal.example.com:443')).toBe('B');
    expect(on('http://portal.example.com/r', 'portal.example.com:80')).toBe('B');
    // Near misses: the other scheme's default port is another port.
    expect(on('http://portal.example.com/r', 'portal.example.com:443')).toBe('A');
    expect(on('https://portal.example.com/r', 'portal.example.com:80')).toBe('A');
  });

  test('the line naming the group → Profile B', () => {
    const d = recognizeProfile({ host: 'x', companyId: 1, line: '星河集团·电视线' }, settings);
    expect(d).toEqual({ profile: 'B', reason: 'DATA.meta.line names the group' });
  });

  test('9.1.1 "the line field contains the group\'s name": the name in another Unicode form (NFD, a CJK compatibility ideograph) is the same name → Profile B, either side decomposed (HTML-side audit 59f: Profile A); near miss: a fullwidth form is another text', () => {
    const of = (line: string, groupName: string) =>
      recognizeProfile({ host: 'x', companyId: 1, line }, { groupName }).profile;
    expect(of('Nestle\u0301集团·电视线', 'Nestl\u00e9集团')).toBe('B');
    expect(of('Nestl\u00e9集团·电视线', 'Nestle\u0301集团')).toBe('B');
    // U+F900 is canonically U+8C48 (豈): NFC maps one to the other.
    expect(of('\uf900山集团·电视线', '\u8c48山集团')).toBe('B');
    expect(of('ＮＥＳＴＬＥ集团·电视线', 'NESTLE集团')).toBe('A');
  });

  test("companyId equal to the group's fixed id → Profile B", () => {
    expect(recognizeProfile({ host: 'x', companyId: 3100 }, settings).profile).toBe('B');
    expect(recognizeProfile({ host: 'x', companyId: 3101 }, settings).profile).toBe('A');
  });

  test('otherwise Profile A (spec 1.4: A is the default)', () => {
    expect(recognizeProfile({ host: 'x', companyId: 1, line: '其他集团' }, settings).profile).toBe('A');
  });

  test('an unset variable never matches: no settings, no Profile B, even for an empty line', () => {
    expect(recognizeProfile({ host: '', companyId: 0, line: '' }, {}).profile).toBe('A');
    expect(recognizeProfile({ host: 'x', companyId: 1, line: '' }, { groupName: '' }).profile).toBe('A');
  });
});
