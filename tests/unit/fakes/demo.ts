import path from 'node:path';
import { startDemo, type DemoServer } from '../../../demo/server';

/**
 * The demo platform on free ports with light report pages (DATA only, no chart scripts: the demo
 * reads L1_DEMO_CHARTS on each request, demo/handlers-pages.ts), its credentials file in `dir`.
 * What a unit test over it measures or counts is then the suite's work, not the charts'. `close`
 * stops the demo and gives L1_DEMO_CHARTS back its value.
 */
export async function lightDemo(dir: string): Promise<DemoServer> {
  const charts = process.env.L1_DEMO_CHARTS;
  const restore = () => {
    if (charts === undefined) delete process.env.L1_DEMO_CHARTS;
    else process.env.L1_DEMO_CHARTS = charts;
  };
  process.env.L1_DEMO_CHARTS = '0';
  try {
    const demo = await startDemo({
      port: 0,
      quiet: true,
      credentialsFile: path.join(dir, 'credentials.json'),
    });
    return { ...demo, close: () => demo.close().finally(restore) };
  } catch (e) {
    restore();
    throw e;
  }
}
