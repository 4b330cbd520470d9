/**
 * Saved queries (`/entities/saved-queries`): queries kept on the server and shared in the account. The app
 * mounts the routes; a run is an ordinary query job (jobs/).
 */
export { savedQueryRoutes } from './routes';
