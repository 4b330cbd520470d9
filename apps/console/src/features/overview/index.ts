export { OverviewPage } from './OverviewPage';
