import { getRouteApi } from '@tanstack/react-router';

/**
 * The insight's page keeps its state in its URL (`?tab=&share=`, validated by the route): the
 * page and its parts read and change it here instead of through props.
 */
export const detailRoute = getRouteApi('/_authed/projects/$projectId/insights/$insightId/');
