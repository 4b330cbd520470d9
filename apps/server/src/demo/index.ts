/** The living demo of the first start: its seeder (main.ts) and its routes (app.ts). */
export { demoRoutes } from './routes';
export { DEMO_DATABASE, type DemoSummary, demoEnabled, seedDemo } from './seed';
