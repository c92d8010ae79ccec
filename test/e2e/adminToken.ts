/** The e2e server's admin token (issue #14): the global setup starts the server with it, /api/* reads send it. */
export const E2E_ADMIN_TOKEN = 'e2e-admin-token-0123456789';
