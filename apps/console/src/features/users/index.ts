export { userKeys, usersQueryOptions } from './api';
export { UsersPage } from './UsersPage';
