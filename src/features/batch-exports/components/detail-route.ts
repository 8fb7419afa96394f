import { getRouteApi } from '@tanstack/react-router';

/**
 * The export's page keeps its state in its URL (`?tab=&runsPage=&logsPage=&backfillsPage=&backfill=`, validated
 * by the route): the page and its panels read and change it here instead of through props.
 */
export const detailRoute = getRouteApi('/_authed/organizations/$organizationId/batch-exports/$batchExportId/');
