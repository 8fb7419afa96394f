import { getRouteApi } from '@tanstack/react-router';

/** The builders' routes: their pages read and write the URL search (the builder state) here. */
export const newBuilderRoutes = {
  trends: getRouteApi('/_authed/projects/$projectId/insights/new/trends'),
  funnels: getRouteApi('/_authed/projects/$projectId/insights/new/funnels'),
  retention: getRouteApi('/_authed/projects/$projectId/insights/new/retention'),
  paths: getRouteApi('/_authed/projects/$projectId/insights/new/paths'),
} as const;

export const editBuilderRoute = getRouteApi('/_authed/projects/$projectId/insights/$insightId/edit');
