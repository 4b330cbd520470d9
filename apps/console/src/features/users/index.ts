export { usersQueryOptions } from './api';
export { UsersPage } from './UsersPage';
