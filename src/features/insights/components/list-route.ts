import { getRouteApi } from '@tanstack/react-router';

/** The list keeps its state in its URL (`?search=&favorited=&page=&pageSize=`, validated by the route). */
export const listRoute = getRouteApi('/_authed/projects/$projectId/insights/');
