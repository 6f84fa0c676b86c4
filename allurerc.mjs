// Allure Report 3 (`npm run report`, `npm run demo`): one self-contained HTML file.
export default {
  name: 'L1 report checks',
  output: './allure-report',
  plugins: {
    awesome: {
      options: {
        singleFile: true,
        reportName: 'L1 report checks',
        reportLanguage: 'en',
        groupBy: ['epic', 'feature'],
      },
    },
  },
};
