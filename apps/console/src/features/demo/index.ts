export { DemoBanner } from './DemoBanner';
export { DemoPanel } from './DemoPanel';
