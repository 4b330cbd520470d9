/** What other features use of bulk import: the error a refused part file becomes (table import reads parts too). */
export { toApiError } from './files';
