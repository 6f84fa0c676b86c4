import { expect, test } from '@playwright/test';
import { runParameters, runTests, testIds } from '../../lib/report/allure/test-ids';

test.describe('the tests of a run as Allure knows them', () => {
  test("ids are allure-playwright 3.12's: a real result of the demo's A-monitor, item 5", () => {
    // As allure-playwright wrote it on 2026-11-26 (the demo platform, batch date 2026-11-25).
    const parameters = runParameters({
      companyId: 1001,
      projectId: '101101',
      reportType: 'monitor',
      batchDate: '2026-11-25',
      profile: 'A',
    });
    expect(parameters).toEqual([
      { name: 'company', value: '1001' },
      { name: 'project', value: '101101' },
      { name: 'report type', value: 'monitor' },
      { name: 'batch date', value: '2026-11-25', excluded: true },
      { name: 'profile', value: 'A' },
    ]);
    const item5 = runTests().find((t) => t.test === 5)!;
    expect(testIds('A-monitor', item5.title, parameters)).toEqual({
      fullName: 'checks.spec.ts › A-monitor › item 5 · industry exposure ranking',
      testCaseId: 'becca67a0ded8e9906432c5786a5790a',
      historyId: 'becca67a0ded8e9906432c5786a5790a:77c59fe1493605a8b0d8cbea8082f00d',
      fallbackTestCaseId: 'f4a9f66727887a89c9341188dc46b9c3',
      titlePath: ['l1-verify', 'checks.spec.ts', 'A-monitor'],
    });
    // the batch date is not in the history id: another night, the same id
    const tomorrow = runParameters({
      companyId: 1001,
      projectId: '101101',
      reportType: 'monitor',
      batchDate: '2026-11-26',
      profile: 'A',
    });
    expect(testIds('A-monitor', item5.title, tomorrow).historyId).toBe(
      'becca67a0ded8e9906432c5786a5790a:77c59fe1493605a8b0d8cbea8082f00d',
    );
    expect(runTests().map((t) => [t.name, t.tags.join(' ')])).toEqual([
      ['collection · report page and endpoints, once', 'collect'],
      ['item 03 · KPI cards, aggregate', 'item3 kpi'],
      ['item 04 · KPI points per platform', 'item4 kpi'],
      ['item 05 · industry exposure ranking', 'item5 ranking'],
      ['item 06 · word cloud', 'item6 wordcloud'],
      ['item 07 · content type shares', 'item7 shares'],
      ['item 08 · publish time shares', 'item8 shares'],
      ['item 09 · media type shares', 'item9 shares'],
      ['item 10 · media name shares', 'item10 shares'],
      ['item 11 · related sources: title, channel, cited count', 'item11 sources'],
      ['item 12 · related sources: title at each ordinal', 'item12 sources'],
    ]);
  });
});
