/** Invitations and password resets by one-time link (decision 0044): the console routes. */
export { invitationRoutes } from './routes';
