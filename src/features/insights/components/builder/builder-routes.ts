import { getRouteApi } from '@tanstack/react-router';

/** The builders' routes: their pages read and write the URL search (the builder state) here. */
export const newBuilderRoute = getRouteApi('/_authed/projects/$projectId/insights/new/$kind');

export const editBuilderRoute = getRouteApi('/_authed/projects/$projectId/insights/$insightId/edit');
