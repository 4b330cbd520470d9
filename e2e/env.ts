/** The server the browser tests start (see playwright.config.ts): its port and first administrator. */
export const PORT = Number(process.env.SVC_E2E_PORT ?? 8181);
export const BASE_URL = `http://localhost:${PORT}`;
export const ADMIN_EMAIL = 'admin@e2e.test';
export const ADMIN_PASSWORD = 'e2e password 123';
