/**
 * The row of GET /api/apps/{apiKey}/visitors/{visitorId}/guides now lives in shared/api/analytics.ts with the
 * admin API's other answers. This re-export remains only for console/pages/VisitorPage.tsx, which imports it from
 * here; once that page reads `../types`, delete this file.
 */
export type { VisitorGuideRow, VisitorGuideStatus } from '../../shared/api';
